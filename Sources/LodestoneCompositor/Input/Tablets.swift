import AdaptivePointerEngine
import Rendering
import WaylandServer

/// Tablet tools (a pen and its eraser end): which surface each is over, what its client
/// hears, and the adaptive pointer's part.
///
/// Routing follows the protocol's frame rules: each `TabletToolEvent` is one frame for the
/// client it reaches (proximity_in, motion and the changed axes, down or up, then `frame`).
/// A tool hovering over another surface leaves the old one (proximity_out, frame) first.
/// While the tip touches, the surface it touched keeps the tool, as a pressed button keeps
/// the pointer. Meanwhile the adaptive pointer shows the Pencil hover preview at the tool
/// (its size following the distance), and hides while the tip touches.
///
/// Like `Gestures`, it holds no seat: what the seat must do (the pointer's stylus input, the
/// window a tip activates, Scribble's click) comes back as the event's `Outcome`.
final class Tablets {
    private let display: Display
    private unowned let scene: Scene
    /// Set once it is built (after the seat, which holds the tablets).
    weak var scribble: Scribble?
    /// Every client's tablet seat.
    var seats: [ZwpTabletSeat] = []
    /// Tools seen so far, in order: every tablet seat hears of each before its events.
    private(set) var tools: [TabletTool] = []
    static let tabletName = "Lodestone tablet"

    /// One tool in proximity.
    private struct ToolState {
        weak var focus: WlSurface?
        var isDown = false
        /// The tip is down but the app was not told: Scribble holds the press (`Scribble.Route`).
        var held = false
        /// The axes last sent to the focus, so unchanged ones are not repeated.
        var sent: TabletToolAxes?
        var local: (x: Double, y: Double) = (0, 0)
    }
    private var states: [TabletTool: ToolState] = [:]

    /// What the seat does after one tool event, in this order.
    struct Outcome {
        /// Input for the seat's pointer: the hover preview, or hidden while the tip touches.
        var pointer: [PointerInput] = []
        /// The window the tip touched: focus follows click-to-focus.
        var activate: DesktopWindow?
        /// Writing began on a field without focus: a pointer click where the pen first touched.
        var click: InkPoint?
    }
    /// Gathered while one event is handled, returned and emptied at its end.
    private var outcome = Outcome()

    init(display: Display, scene: Scene) {
        self.display = display
        self.scene = scene
    }

    func seatBound(_ seat: ZwpTabletSeat) {
        seats.append(seat)
        seat.addTablet(name: Self.tabletName)
        for tool in tools { seat.addTool(tool) }
    }

    /// Whether a tool's tip is on the screen.
    func isDown(_ tool: TabletTool) -> Bool { states[tool]?.isDown ?? false }
    /// The surface a tool is over.
    func focus(of tool: TabletTool) -> WlSurface? { states[tool]?.focus }

    func handle(_ event: TabletToolEvent, time: UInt32) -> Outcome {
        defer { outcome = Outcome() }
        let tool = event.tool
        if !tools.contains(tool) {
            tools.append(tool)
            for seat in seats { seat.addTool(tool) }
        }
        switch event {
        case .proximityIn(_, let axes):
            if states[tool] == nil { states[tool] = ToolState() }
            moved(tool, axes, time: time)
        case .axes(_, let axes):
            if states[tool] == nil { states[tool] = ToolState() }  // a lost proximity_in
            if states[tool]?.held == true, scribbleMoved(tool, axes, time: time) { return outcome }
            moved(tool, axes, time: time)
        case .tip(_, let down, let axes):
            if states[tool] == nil { states[tool] = ToolState() }
            if !down { states[tool]?.isDown = false }
            if !down, states[tool]?.held == true {
                scribbleLifted(tool, axes, time: time)
                return outcome
            }
            moved(tool, axes, time: time, framed: false)
            if down {
                states[tool]?.isDown = true
                if scribbleHolds(tool, axes, time: time) { return outcome }
                let serial = display.nextSerial()
                each(tool) { $0.down(serial: serial) }
                // The pen draws: it goes to the client, and focus follows click-to-focus.
                activateFocus(of: tool)
            } else {
                each(tool) { $0.up() }
            }
            each(tool) { $0.frame(time: time) }
            updatePointer(tool, axes)
        case .button(_, let button, let pressed):
            let serial = display.nextSerial()
            each(tool) { $0.button(serial: serial, button: button, pressed: pressed); $0.frame(time: time) }
        case .proximityOut:
            if states[tool]?.held == true { scribble?.toolLost(tool) }
            if states[tool]?.isDown == true, states[tool]?.held != true { each(tool) { $0.up() } }
            each(tool) { $0.proximityOut(); $0.frame(time: time) }
            states[tool] = nil
            outcome.pointer.append(.stylus(.away))
        }
        return outcome
    }

    /// The window under a tool whose tip went down, for the seat to activate.
    private func activateFocus(of tool: TabletTool) {
        if let s = states[tool]?.focus, let t = scene.window(of: s) { outcome.activate = t }
    }

    /// The tool is at `axes`: proximity moves to the surface under it (unless its tip holds
    /// the one it touched), then motion and the axes that changed, then frame.
    private func moved(_ tool: TabletTool, _ axes: TabletToolAxes, time: UInt32, framed: Bool = true) {
        guard var state = states[tool] else { return }
        var target = state.focus
        var local: (x: Double, y: Double)
        // A tip held on a window when the session locked holds it no longer.
        if state.isDown, let focus = state.focus, scene.mayReceiveInput(focus), let (ox, oy) = scene.origin(of: focus) {
            local = (axes.x - Double(ox), axes.y - Double(oy))
        } else {
            let hit = scene.surfaceAt(x: axes.x, y: axes.y)
            target = hit?.surface
            local = (hit?.sx ?? 0, hit?.sy ?? 0)
        }
        if target !== state.focus {
            if state.focus != nil { each(tool) { $0.proximityOut(); $0.frame(time: time) } }
            state.focus = target
            state.sent = nil
            if let target {
                let serial = display.nextSerial()
                for t in objects(tool, of: target) { t.proximityIn(serial: serial, surface: target) }
            }
        }
        let old = state.sent
        state.sent = axes
        state.local = local
        states[tool] = state
        each(tool) { t in
            if old == nil || old!.x != axes.x || old!.y != axes.y { t.motion(x: local.x, y: local.y) }
            if let p = axes.pressure, p != old?.pressure { t.pressure(p) }
            if let d = axes.distance, d != old?.distance { t.distance(d) }
            if let tilt = axes.tilt, tilt.x != old?.tilt?.x || tilt.y != old?.tilt?.y { t.tilt(x: tilt.x, y: tilt.y) }
            if let r = axes.rotation, r != old?.rotation { t.rotation(r) }
            if framed { t.frame(time: time) }
        }
        if framed { updatePointer(tool, axes) }
    }

    // MARK: Scribble

    /// The tip touched: true when Scribble holds the press (the app hears of it later, or never).
    private func scribbleHolds(_ tool: TabletTool, _ axes: TabletToolAxes, time: UInt32) -> Bool {
        guard let state = states[tool] else { return false }
        let route = scribble?.tipDown(tool, at: Self.ink(axes), surface: state.focus, local: state.local, time: time)
        guard route == .held else { return false }
        states[tool]?.held = true
        each(tool) { $0.frame(time: time) }  // the motion to where it touched
        updatePointer(tool, axes)
        return true
    }

    /// The held pen moved: true when Scribble keeps it (a stroke, or still undecided).
    private func scribbleMoved(_ tool: TabletTool, _ axes: TabletToolAxes, time: UInt32) -> Bool {
        switch scribble?.moved(tool, to: Self.ink(axes), time: time) ?? .app {
        case .held:
            updatePointer(tool, axes)
            return true
        case .clickThenHold(let start):
            // Writing on a field without focus: it is clicked where the pen touched first.
            outcome.click = start
            updatePointer(tool, axes)
            return true
        case .release:
            // A still press: the app's after all, late but whole.
            states[tool]?.held = false
            moved(tool, axes, time: time, framed: false)
            let serial = display.nextSerial()
            each(tool) { $0.down(serial: serial); $0.frame(time: time) }
            activateFocus(of: tool)
            updatePointer(tool, axes)
            return true
        case .app, .tap:
            states[tool]?.held = false
            return false
        }
    }

    /// The held pen lifted: a stroke ends (the app hears nothing), or a tap reaches the app.
    private func scribbleLifted(_ tool: TabletTool, _ axes: TabletToolAxes, time: UInt32) {
        states[tool]?.held = false
        if scribble?.tipUp(tool, at: Self.ink(axes), time: time) == .tap {
            moved(tool, axes, time: time, framed: false)
            let serial = display.nextSerial()
            each(tool) { $0.down(serial: serial); $0.frame(time: time) }
            activateFocus(of: tool)
            each(tool) { $0.up(); $0.frame(time: time) }
        }
        updatePointer(tool, axes)
    }

    /// A pen's point as ink: a device without pressure presses at half.
    private static func ink(_ axes: TabletToolAxes) -> InkPoint { InkPoint(x: axes.x, y: axes.y, pressure: axes.pressure ?? 0.5) }

    /// The hover preview while the tool hovers, the pointer hidden while it touches.
    private func updatePointer(_ tool: TabletTool, _ axes: TabletToolAxes) {
        let at = Point<Global>(x: axes.x, y: axes.y)
        outcome.pointer.append(.stylus(isDown(tool) ? .touching(at: at) : .hovering(at: at, distance: axes.distance ?? 0.5)))
    }

    private func objects(_ tool: TabletTool, of surface: WlSurface) -> [ZwpTabletTool] {
        seats.compactMap { $0.client == surface.client ? $0.tools[tool] : nil }
    }

    /// The tool objects of the client whose surface the tool is over.
    private func each(_ tool: TabletTool, _ body: (ZwpTabletTool) -> Void) {
        guard let focus = states[tool]?.focus else { return }
        for t in objects(tool, of: focus) { body(t) }
    }

    /// A surface went away: tools over it are over nothing until they move.
    func surfaceDestroyed(_ surface: WlSurface) {
        for (tool, state) in states where state.focus === surface || state.focus == nil {
            states[tool]?.focus = nil
            states[tool]?.isDown = false
            if states[tool]?.held == true { scribble?.toolLost(tool) }
            states[tool]?.held = false
        }
    }
}
