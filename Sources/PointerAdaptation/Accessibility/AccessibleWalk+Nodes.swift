/// The nodes: each one's role, state and extents asked, and what it becomes (an element, its
/// children walked, or neither).
extension AccessibleWalk {
    // MARK: Nodes

    /// What the three calls about one node answered.
    private final class Node {
        var role: UInt32?, states: (UInt32, UInt32)?, extents: (Double, Double, Double, Double)?
        var answers = 0
    }

    func visit(_ path: String, depth: Int, button: Int?) {
        guard nodes < Self.maximumNodes else { reached("node limit (\(Self.maximumNodes))"); return }
        guard depth <= Self.maximumDepth else { reached("depth limit (\(Self.maximumDepth))"); return }
        guard visited.insert(path).inserted else { return }
        nodes += 1
        let node = Node()
        let done = { [weak self] in
            node.answers += 1
            if node.answers == 3 { self?.examine(node, path, depth: depth, button: button) }
        }
        let first = readFirst.contains(path)
        call(path, "Accessible", "GetRole", first: first) { m in node.role = m?.readUInt32(); done() }
        call(path, "Accessible", "GetState", first: first) { m in
            if let words = m?.array("u", { m?.readUInt32() }), words.count >= 2 { node.states = (words[0], words[1]) }
            done()
        }
        call(path, "Component", "GetExtents", [.uint32(0)], first: first) { m in  // ATSPI_COORD_TYPE_SCREEN
            node.extents = m?.container("r", "iiii") { () -> (Double, Double, Double, Double)? in
                guard let x = m?.readInt32(), let y = m?.readInt32(), let w = m?.readInt32(), let h = m?.readInt32() else { return nil }
                return (Double(x), Double(y), Double(w), Double(h))
            }
            done()
        }
    }

    private func examine(_ node: Node, _ path: String, depth: Int, button: Int?) {
        guard let rawRole = node.role, let states = node.states else { return }
        // GTK 4.8 marks only windows as showing; visible is what every toolkit sets.
        let visible = states.0 & (1 << AccessibleState.visible) != 0 || states.0 & (1 << AccessibleState.showing) != 0
        guard visible else { return }
        let role = AccessibleRole(rawValue: rawRole)
        if role == .label, let button { labelled.insert(button) }
        // Inside a combo box only its editable text and its buttons count (not the list it pops up).
        if textOnly.contains(path) {
            switch role {
            // The combo box's own arrow button (GTK's combo box with an entry) is a control of
            // its own: without it the whole combo box lit up under the arrow.
            case .text, .entry, .passwordText, .pushButton, .toggleButton: break
            case .label, nil: return children(path, depth: depth, button: button, textOnly: true)
            default: return
            }
        }
        // Inside a page tab only its buttons count (a close button): ATK hangs each page's
        // whole content under its tab, and the pages not shown are visible there too.
        if buttonsOnly.contains(path) {
            switch role {
            case .pushButton, .toggleButton: break
            case .label, nil: return children(path, depth: depth, button: button, buttonsOnly: true)
            default: return
            }
        }
        guard let (x, y, w, h) = node.extents else { return }
        // (-1, -1, -1, -1) is ATK's "no extents" (Firefox's tool bars that only group others,
        // its alerts): not a lie; what is inside may have extents of its own.
        if (x, y, w, h) == (-1, -1, -1, -1) {
            if role == nil || role == .label { children(path, depth: depth, button: button) }
            return
        }
        // Negative or absurd extents (Qt 6.4 once gave toolbar buttons a width of -921): a lie,
        // not an empty node; the window is walked again soon (`liesSeen`).
        if w < 0 || h < 0 || w > Self.maximumExtent || h > Self.maximumExtent || abs(x) > Self.maximumExtent || abs(y) > Self.maximumExtent {
            liesSeen += 1
            return
        }
        guard w > 0, h > 0 || depth == 0 else { return }
        if depth == 0 { frame = (x, y, w, h) }
        if let p = pointer, depth == 0 || (p.x >= x - frame.x - Self.pointerSlack && p.x <= x - frame.x + w + Self.pointerSlack
                                            && p.y >= y - frame.y - Self.pointerSlack && p.y <= y - frame.y + h + Self.pointerSlack) {
            pointerBranch.insert(path)
        }
        func add(_ kind: AccessibleElement.Kind) -> Int {
            var framed = role == .pushButton || role == .toggleButton || role == .comboBox
            if case .text = kind { framed = false }
            let source = AccessibleElement.Source(app: app, path: path, x: x, y: y, width: w, height: h)
            var element = AccessibleElement(kind: kind, x: x, y: y, width: w, height: h, depth: depth, framed: framed, source: source)
            // Where the pen may write (Scribble): editable text that takes input (not greyed
            // out), never a password field.
            let usable = states.0 & (1 << AccessibleState.enabled) != 0 || states.0 & (1 << AccessibleState.sensitive) != 0
            if case .text = kind, role != .passwordText, usable, states.0 & (1 << AccessibleState.editable) != 0 { element.writable = true }
            elements.append(element)
            return elements.count - 1
        }
        switch role {
        case .pushButton, .toggleButton:
            // Descend only to find its label.
            let index = add(.control)
            buttons.insert(index)
            children(path, depth: depth, button: index)
        case .comboBox where states.0 & (1 << AccessibleState.editable) != 0:
            // Itself the text it edits (Firefox's address bar): a beam, its line.
            text(add(.text(lineHeight: nil, singleLine: true)))
        case .comboBox:
            // Descend only to find the text it edits (GTK 3's combo box with an entry): a beam over it;
            // and its arrow button, a control of its own.
            let index = add(.control)
            children(path, depth: depth, button: index, textOnly: true)
        case .pageTab:
            // A tab may hold a control of its own (Firefox's close buttons): its buttons are
            // read, or the whole tab lights up under its close button.
            let index = add(.control)
            children(path, depth: depth, button: index, buttonsOnly: true)
        case .checkBox, .radioButton, .menuItem, .checkMenuItem, .radioMenuItem, .link:
            _ = add(.control)
        case .slider:
            _ = add(.slider(horizontal: states.0 & (1 << AccessibleState.horizontal) != 0 || w >= h))
        case .text, .entry, .passwordText, .terminal, .paragraph, .heading:
            // A web page's paragraphs and headings (Firefox, Chromium) are text of their own, its
            // lines read like a text view's.
            let lines = role == .text || role == .paragraph || role == .heading
            text(add(.text(lineHeight: nil, singleLine: states.0 & (1 << AccessibleState.singleLine) != 0 || !lines || h < 2 * Self.shortestLine)))
        case .listItem, .treeItem, .tableCell:
            _ = add(.item)
            children(path, depth: depth, button: button)
        case .label, nil:
            children(path, depth: depth, button: button)
        }
        /// A text's line height, then (text of several lines) each line's.
        func text(_ index: Int) {
            lineHeight(path) { [weak self] line, measured in
                guard let self, let line, case .text(_, let single) = self.elements[index].kind else { return }
                self.elements[index].kind = .text(lineHeight: line, singleLine: single)
                // Text of several lines, in a toolkit that answers character extents: each line its own beam.
                if measured, !single, h >= 2 * line, self.sampledTexts < Self.maximumSampledTexts {
                    self.sampledTexts += 1
                    self.sampleLines(path, of: index)
                }
            }
        }
    }

    /// The roles that are controls: pressed, not read.
    static let controlRoles: Set<AccessibleRole> = [.pushButton, .toggleButton, .comboBox, .checkBox, .radioButton, .menuItem,
                                                    .checkMenuItem, .radioMenuItem, .pageTab, .link, .slider]
    /// The roles of text a caret goes in.
    static let textRoles: Set<AccessibleRole> = [.text, .entry, .passwordText]

    private func children(_ path: String, depth: Int, button: Int?, textOnly inside: Bool = false, buttonsOnly inTab: Bool = false) {
        let first = pointerBranch.contains(path)
        call(path, "Accessible", "GetChildren", first: first) { [weak self] m in
            // No more children are read than nodes are left: a reply may list a million.
            guard let self, let m, let children = m.array("(so)", limit: max(0, Self.maximumNodes - self.nodes), { m.readObject() }) else { return }
            if children.count >= Self.maximumNodes - self.nodes { self.reached("node limit (\(Self.maximumNodes))") }
            for child in children where child.bus == self.app || child.bus.isEmpty {
                if inside { self.textOnly.insert(child.path) }
                if inTab { self.buttonsOnly.insert(child.path) }
                if first { self.readFirst.insert(child.path) }
                self.visit(child.path, depth: depth + 1, button: button)
            }
        }
    }
}
