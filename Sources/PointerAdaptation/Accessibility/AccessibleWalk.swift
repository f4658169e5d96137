// Over 300 lines: the walk (its queue, its budget of calls in flight, the frame and the pointer's branch read first) and the rules for each node it reaches share private state that a split would open to the module.
import AdaptivePointerEngine
/// A bounded, asynchronous walk of one AT-SPI window's subtree: for each node its role,
/// state and extents (and, for text, its font), at most `maximumInFlight` calls waiting at a
/// time. Nodes that are not visible or have no extents (GTK's hidden stack pages) are not
/// descended; controls are leaves. `completion` gets the elements once every reply is in.
///
/// An app may lie (issue 24, Tests/clients/hostile_atspi_app.py): every bound holds whatever
/// it answers. At most `maximumNodes` nodes, each visited once (a child that is its own
/// ancestor ends there), `maximumDepth` deep; a reply of a million children is read no further
/// than the nodes left; after `maximumDuration` the walk ends with what it has (a stalled call
/// costs `DBusConnection.callTimeout`, and calls waiting then are ignored). Extents beyond
/// `maximumExtent` and lines of text no font has are dropped, as is an element wholly outside
/// its window.
final class AccessibleWalk {
    static let maximumNodes = 3000, maximumDepth = 40, maximumInFlight = 64
    static let maximumDuration = 4.0
    /// Wayland's own limit on a surface's size is about this; no window's element is larger or farther.
    static let maximumExtent = 65536.0

    private let bus: DBusConnection
    private let app: String
    /// What the walk found so far (`AccessibleText` adds each line of a text's).
    var elements: [AccessibleElement] = []
    /// Index in `elements` of the button each node is inside, to learn that it has a label.
    private var labelled: Set<Int> = []
    /// The push and toggle buttons among the elements: only they were searched for a label,
    /// so only they can be icon buttons (a page tab's label is never looked for).
    private var buttons: Set<Int> = []
    private var queued: [() -> Void] = []
    private var inFlight = 0
    private(set) var nodes = 0
    /// Paths visited: a cycle in the tree is walked once.
    private var visited: Set<String> = []
    /// Which bounds ended the walk early, for the log; nil when the tree ended first.
    var limitReached: String? { limits.isEmpty ? nil : limits.joined(separator: " and the ") }
    private var limits: [String] = []
    private func reached(_ limit: String) { if !limits.contains(limit) { limits.append(limit) } }
    private let deadline = DBusConnection.monotonicSeconds + AccessibleWalk.maximumDuration
    private var completion: (([AccessibleElement], _ frameSize: (Double, Double)) -> Void)?
    /// The frame's own extents: its origin is subtracted from every element's.
    private var frame = (x: 0.0, y: 0.0, width: 0.0, height: 0.0)

    /// Extents are read in screen coordinates (`ATSPI_COORD_TYPE_SCREEN`) and made relative to
    /// the frame: Qt gives window coordinates relative to the nearest dock widget, and on
    /// Wayland both toolkits put the window at the screen's origin (GTK 4 answers the same
    /// for both types).
    init(bus: DBusConnection, app: String, window: String, pointer: (x: Double, y: Double)? = nil,
         completion: @escaping ([AccessibleElement], _ frameSize: (Double, Double)) -> Void) {
        self.bus = bus
        self.app = app
        self.completion = completion
        self.pointer = pointer
        visit(window, depth: 0, button: nil)
        finishIfDone()
    }

    /// A walk of one node's subtree, `depth` deep in a window whose frame has the extents
    /// `frame` (screen coordinates): the element a point query found (`AccessiblePointQuery`).
    init(bus: DBusConnection, app: String, node: String, depth: Int, frame: (x: Double, y: Double, width: Double, height: Double),
         completion: @escaping ([AccessibleElement], _ frameSize: (Double, Double)) -> Void) {
        self.bus = bus
        self.app = app
        self.completion = completion
        self.frame = frame
        visit(node, depth: max(1, depth), button: nil)
        finishIfDone()
    }

    /// Stops the walk: replies still coming are ignored.
    func cancel() { completion = nil; queued = [] }

    // MARK: Calls, throttled

    func call(_ path: String, _ interface: String, _ member: String, _ arguments: [DBusArgument] = [], first: Bool = false,
                      _ reply: @escaping (DBusMessage?) -> Void) {
        let work: () -> Void = { [weak self] in
            guard let self else { return }
            self.inFlight += 1
            let sent = self.bus.call(self.app, path, "org.a11y.atspi." + interface, member, arguments) { [weak self] result in
                guard let self, self.completion != nil else { return }
                self.inFlight -= 1
                if DBusConnection.monotonicSeconds > self.deadline {
                    // Out of time: what has been read so far is the walk.
                    self.reached("time limit (\(Self.maximumDuration) s)")
                    self.queued = []
                    self.inFlight = 0
                    return self.finishIfDone()
                }
                reply(try? result.get())
                self.pump()
                self.finishIfDone()
            }
            if !sent { self.inFlight -= 1; reply(nil) }
        }
        if first { queued.insert(work, at: 0) } else { queued.append(work) }
    }

    /// Where the pointer is, relative to the frame (nil: not on this window). The branch that
    /// holds it is read before its siblings' branches (issue 41): on a window just mapped, the
    /// element under the pointer is in place long before the whole tree.
    var pointer: (x: Double, y: Double)?
    /// How far outside a node's extents the pointer may be and its branch still come first
    /// (the frame's origin may lie a title bar or a shadow from the window geometry's).
    static let pointerSlack = 32.0
    /// Nodes that hold the pointer: their children are read first.
    private var pointerBranch: Set<String> = []
    /// Children of such nodes: their own three calls go first.
    private var readFirst: Set<String> = []

    private func pump() {
        while inFlight < Self.maximumInFlight, !queued.isEmpty { queued.removeFirst()() }
    }

    /// What has been read so far, every `progressInterval` s while the walk goes on: a window
    /// just mapped adapts before its whole tree is in (issue 27: within 100 ms).
    var progress: (([AccessibleElement], _ frameSize: (Double, Double)) -> Void)?
    static let progressInterval = 0.02
    private var progressAt = DBusConnection.monotonicSeconds

    private func finishIfDone() {
        pump()
        guard inFlight == 0, queued.isEmpty, let completion else {
            if let progress, completion != nil, frame.width > 0, DBusConnection.monotonicSeconds - progressAt > Self.progressInterval {
                progressAt = DBusConnection.monotonicSeconds
                progress(result(), (frame.width, frame.height))
            }
            return
        }
        self.completion = nil
        completion(result(), (frame.width, frame.height))
    }

    /// Extents that made no sense: such elements are dropped, never cached, and the window
    /// is read again soon, when the toolkit may have laid it out.
    private(set) var liesSeen = 0

    /// The elements read so far, relative to the frame.
    private func result() -> [AccessibleElement] {
        let frame = self.frame
        return elements.enumerated().compactMap { i, e in
            var e = e
            e.x -= frame.x
            e.y -= frame.y
            // Larger than its window: a lie (as 0-based the frame has no room for it).
            if e.width > frame.width + 2 || e.height > frame.height + 2 { liesSeen += 1; return nil }
            // Wholly outside the window (scrolled away, or a lie): it could only pull the pointer off it.
            guard e.x < frame.width, e.y < frame.height, e.x + e.width > 0, e.y + e.height > 0 else { return nil }
            // A button without a label that is about square shows an icon: it lifts.
            if e.kind == .control, buttons.contains(i), !labelled.contains(i), e.width <= e.height * 1.5 { e.kind = .iconButton }
            return e
        }
    }

    // MARK: Nodes

    /// What the three calls about one node answered.
    private final class Node {
        var role: UInt32?, states: (UInt32, UInt32)?, extents: (Double, Double, Double, Double)?
        var answers = 0
    }

    private func visit(_ path: String, depth: Int, button: Int?) {
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

    /// Nodes inside a combo box, where only text is looked for.
    private var textOnly: Set<String> = []
    /// Nodes inside a page tab, where only buttons are looked for.
    private var buttonsOnly: Set<String> = []
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

    /// Texts read line by line so far (`sampleLines`).
    var sampledTexts = 0
}
