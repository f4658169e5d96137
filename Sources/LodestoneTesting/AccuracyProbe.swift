// What each element of an app should make the pointer do, and whether it did (the accuracy
// benchmark, `lodestone-bench --accuracy`, and AccuracyTests). The rules are the benchmark's own, from the guidelines
// (docs/accuracy.md), not Lodestone's code: a control gets a platter of its size, an
// icon-only button a lift, text a beam the height of its line, anything else the circle.
import Foundation

/// One element as `Tests/clients/atspi_elements.py` reads it.
public struct AccessibleNode: Decodable, Sendable {
    public var role: String
    public var name: String
    public var states: [String]
    /// Screen coordinates: x, y, width, height.
    public var extents: [Double]
    public var frame: [Double]
    /// The frame's name (the window's title, as a rule).
    public var frameName: String
    public var depth: Int
    /// The role of its nearest interactive ancestor ("" for none): a check box's label is part of it.
    public var within: String
    /// Neither it nor an interactive ancestor is sensitive or enabled: pressing does nothing.
    public var greyed: Bool
    public var children: [String]
    public var lineHeight: Double?
}

/// How a probe went, by the kinds of miss.
public enum AccuracyVerdict: String, CaseIterable, CustomStringConvertible, Sendable {
    case right, wrongElement = "wrong element", wrongSize = "wrong size", wrongForm = "wrong form", none
    public var description: String { rawValue }
}

public struct AccuracyRect: Sendable {
    public var x, y, width, height: Double
    public var midX: Double { x + width / 2 }
    public var midY: Double { y + height / 2 }
    public func contains(_ px: Double, _ py: Double) -> Bool { px >= x && px < x + width && py >= y && py < y + height }
}

public struct AccuracyProbe: Sendable {
    public enum Expectation: Sendable {
        case platter, lift, beam(lineHeight: Double?), circle
        public var isAdaptive: Bool { if case .circle = self { return false } else { return true } }
    }

    public var role: String
    public var name: String
    /// The element in global logical coordinates.
    public var rect: AccuracyRect
    public var expectation: Expectation
    /// Where the pointer goes: the element's centre.
    public var point: (x: Double, y: Double)

    public func describe() -> String {
        String(format: "%@ '%@' %.0f,%.0f %.0f×%.0f (expects %@)", role, name, rect.x, rect.y, rect.width, rect.height, "\(expectation)")
    }

    /// How far a platter's edge may lie outside the element's published extents: toolkits
    /// publish the content box (GTK 4.8: a 138×24 drop-down button is drawn 157×33), so the
    /// drawn button's padding and border, and the platter's own margin, fit in 24 px on each
    /// side and 14 above and below (a 93×24 toggle button is drawn 126×33, and its platter is 131×38). Inside, 4 px (rounding, and Qt's border boxes).
    public static let outside = (horizontal: 24.0, vertical: 14.0), inside = 4.0

    public func judge(_ s: TestControl.PointerShape) -> AccuracyVerdict {
        let shape = AccuracyRect(x: s.x, y: s.y, width: s.width, height: s.height)
        let adapted = s.effect == .highlight || s.effect == .lift || s.kind == .verticalBeam || s.kind == .horizontalBeam
        switch expectation {
        case .circle:
            return adapted || s.kind != .circle ? .wrongForm : .right
        case .platter, .lift:
            let wanted: TestControl.PointerShape.Effect = { if case .lift = expectation { return .lift } else { return .highlight } }()
            guard s.effect == .highlight || s.effect == .lift else { return adapted ? .wrongForm : .none }
            guard shape.contains(point.x, point.y) else { return .wrongElement }
            // A lift scales the element up a little (up to 15%) as well.
            let grow = wanted == .lift ? 1.15 : 1.0
            let h = Self.outside.horizontal + rect.width * (grow - 1) / 2, v = Self.outside.vertical + rect.height * (grow - 1) / 2
            let left = rect.x - shape.x, right = shape.x + shape.width - (rect.x + rect.width)
            let top = rect.y - shape.y, bottom = shape.y + shape.height - (rect.y + rect.height)
            // Holding the element and much larger on some side: a container was chosen over it.
            if min(left, right) >= -Self.inside, min(top, bottom) >= -Self.inside, max(left, right) > 2 * h || max(top, bottom) > 2 * v {
                return .wrongElement
            }
            let sized = min(left, right) >= -Self.inside && max(left, right) <= h && min(top, bottom) >= -Self.inside && max(top, bottom) <= v
            guard sized else { return .wrongSize }
            return s.effect == wanted ? .right : .wrongForm
        case .beam(let line):
            guard s.kind == .verticalBeam else { return adapted ? .wrongForm : .none }
            let beamX = s.x + s.width / 2
            guard beamX >= rect.x - 8, beamX <= rect.x + rect.width + 8, s.y + s.height >= rect.y - 8, s.y <= rect.y + rect.height + 8 else {
                return .wrongElement
            }
            if let line { return s.height >= 0.6 * line - 4 && s.height <= 1.6 * line + 4 ? .right : .wrongSize }
            return s.height <= rect.height + 8 ? .right : .wrongSize
        }
    }

    static let controls: Set<String> = ["push button", "toggle button", "check box", "radio button", "combo box", "menu item",
                                        "check menu item", "radio menu item", "page tab", "link", "switch", "button", "slider"]
    static let texts: Set<String> = ["text", "entry", "password text", "terminal", "paragraph"]
    static let plain: Set<String> = ["label", "static", "image", "icon"]

    /// The probes for an app's elements: each control and text element at its centre, unless a
    /// deeper control or text holds that point (the child wins over its container); labels and
    /// images outside every control and text, expecting the circle (or a beam, selectable).
    /// `limit` keeps that many, spread over the list.
    /// Each frame is placed on the window titled like it, else the one of its size, else
    /// `active`; what lies under `active` but belongs to another window is covered, not probed.
    public static func choose(from nodes: [AccessibleNode], in windows: [TestControl.WindowState], active: TestControl.WindowState,
                              output: (Double, Double), limit: Int) -> [AccuracyProbe] {
        func window(of n: AccessibleNode) -> TestControl.WindowState {
            windows.first { !n.frameName.isEmpty && $0.title == n.frameName }
                ?? windows.first { n.frame.count == 4 && Double($0.width) == n.frame[2] && Double($0.height) == n.frame[3] }
                ?? active
        }
        func covered(_ n: AccessibleNode, _ x: Double, _ y: Double) -> Bool {
            let w = window(of: n)
            return w != active && active.contains((x, y))
        }
        func global(_ n: AccessibleNode) -> AccuracyRect? {
            guard n.extents.count == 4, n.frame.count == 4 else { return nil }
            let window = window(of: n)
            // AT-SPI's frame is the window's surface at the screen's origin; the window
            // geometry may add a title bar (server-side decorations) above it.
            let dx = max(0, Double(window.width) - n.frame[2]), dy = max(0, Double(window.height) - n.frame[3])
            let side = dx < 64 && dy < 128 ? (dx / 2).rounded(.down) : 0
            let top = dx < 64 && dy < 128 ? max(0, dy - side) : 0
            return AccuracyRect(x: Double(window.x) + n.extents[0] - n.frame[0] + side, y: Double(window.y) + n.extents[1] - n.frame[1] + top,
                                width: n.extents[2], height: n.extents[3])
        }
        func editable(_ n: AccessibleNode) -> Bool { n.states.contains("editable") }
        let active = nodes.compactMap { n -> (AccessibleNode, AccuracyRect)? in
            guard controls.contains(n.role) || texts.contains(n.role), let r = global(n), r.width >= 4, r.height >= 4 else { return nil }
            if n.role == "paragraph" || n.role == "text", !editable(n), !n.states.contains("selectable-text") { return nil }
            return (n, r)
        }
        var probes: [AccuracyProbe] = []
        var seen: Set<String> = []
        func onScreen(_ x: Double, _ y: Double) -> Bool { x >= 1 && y >= 1 && x < output.0 - 1 && y < output.1 - 1 }
        for (n, r) in active {
            let (px, py) = (r.midX.rounded(.down), r.midY.rounded(.down))
            guard onScreen(px, py), !covered(n, px, py) else { continue }
            // A deeper control or text element holding the point is what the pointer is over.
            if active.contains(where: { $0.0.depth > n.depth && $0.1.contains(px, py) }) { continue }
            let key = "\(Int(r.x)),\(Int(r.y)),\(Int(r.width)),\(Int(r.height))"
            guard seen.insert(key).inserted else { continue }
            let expectation: Expectation
            if n.greyed && (controls.contains(n.role) || editable(n)) {
                // Greyed out (itself or the control it is in): not judged. Lodestone adapts it
                // like an enabled one (docs/accuracy.md).
                continue
            } else if texts.contains(n.role) || (n.role == "combo box" && editable(n)) {
                expectation = .beam(lineHeight: n.lineHeight)
            } else if n.role == "push button" || n.role == "toggle button" || n.role == "button",
                      !n.children.contains(where: { $0 == "label" || $0 == "text" }), r.width <= 2 * r.height {
                // No label inside and about square: an icon.
                expectation = .lift
            } else {
                expectation = .platter
            }
            probes.append(AccuracyProbe(role: n.role, name: n.name, rect: r, expectation: expectation, point: (px, py)))
        }
        for n in nodes where plain.contains(n.role) {
            guard let r = global(n), r.width >= 8, r.height >= 8 else { continue }
            let (px, py) = (r.midX.rounded(.down), r.midY.rounded(.down))
            // Part of a control (a check box's label), or within a control's hit padding (the
            // guidelines' 12 points around a bezel), the pointer rightly takes the control's form.
            guard n.within.isEmpty, onScreen(px, py), !covered(n, px, py),
                  !active.contains(where: { AccuracyRect(x: $0.1.x - 12, y: $0.1.y - 12, width: $0.1.width + 24, height: $0.1.height + 24).contains(px, py) }) else { continue }
            let key = "\(Int(r.x)),\(Int(r.y)),\(Int(r.width)),\(Int(r.height))"
            guard seen.insert(key).inserted else { continue }
            let selectable = n.states.contains("selectable-text")
            probes.append(AccuracyProbe(role: n.role, name: n.name, rect: r, expectation: selectable ? .beam(lineHeight: n.lineHeight) : .circle, point: (px, py)))
        }
        guard probes.count > limit else { return probes }
        let stride = Double(probes.count) / Double(limit)
        return (0..<limit).map { probes[Int(Double($0) * stride)] }
    }
}

extension TestControl.WindowState {
    /// Whether the window geometry holds the point.
    public func contains(_ p: (x: Double, y: Double)) -> Bool {
        p.x >= Double(x) && p.y >= Double(y) && p.x < Double(x) + Double(width) && p.y < Double(y) + Double(height)
    }
}

extension AccessibleNode {
    /// An app's elements as `Tests/clients/atspi_elements.py` (`dumper`) reads them over the
    /// AT-SPI bus of `environment`'s session bus.
    public static func read(dumper: String, pid: Int32, environment: [String: String]) throws -> [AccessibleNode] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [dumper, String(pid)]
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return try JSONDecoder().decode([AccessibleNode].self, from: data)
    }
}
