import LodestoneSystem
import AdaptivePointerClient
import CWaylandClient
import CWaylandProtocols
import Glibc
import WaylandClient

/// The demo window: every sample panel on one xdg_toplevel, its regions on
/// the toplevel's surface. Pointer events go to the panels; a panel that
/// changed asks for a redraw, and the redraw commits buffer and regions together.
final class DemoApp {
    static let size = (width: Int32(1280), height: Int32(800))
    static let title = "Lodestone demo"

    let connection: Connection
    let globals: Globals
    let window: Window
    let adaptive: AdaptivePointer
    let regions: SurfaceRegions
    let panels: [Panel]
    let sketch: SketchPanel
    let dropPanel: DropTargetPanel
    /// Real drags: the drop panel's chip, and drops on its folder.
    private var dragAndDrop: DemoDragAndDrop?
    /// The pen, when the compositor serves `zwp_tablet_manager_v2`.
    private var pen: PenInput?
    private var needsRedraw = false
    private var pointer = Point.outside
    private var pressedPanel: Panel?

    init(connection: Connection, tabletPresent: Bool) throws {
        self.connection = connection
        globals = try Globals(connection: connection)
        adaptive = try AdaptivePointer(registry: globals.registry)
        let toolbar = ToolbarPanel()
        let text = TextAreaPanel(toolbar: toolbar)
        sketch = SketchPanel(card: Box(440, 548, 820, 176), tabletPresent: tabletPresent)
        dropPanel = DropTargetPanel(card: Box(440, 346, 400, 186))
        panels = [
            toolbar,
            IconGridPanel(card: Box(20, 76, 400, 254)),
            CardsPanel(card: Box(440, 76, 400, 254)),
            text,
            SplitViewPanel(card: Box(20, 346, 400, 186)),
            dropPanel,
            BandCanvasPanel(card: Box(860, 346, 400, 186)),
            GraphPanel(card: Box(20, 548, 400, 176)),
            sketch,
            HidingToolbarPanel(windowWidth: Double(Self.size.width), windowHeight: Double(Self.size.height)),
        ]
        var draw: (ClientShmBuffer) -> Void = { _ in }
        window = try Window(globals, title: Self.title, width: Self.size.width, height: Self.size.height) { draw($0) }
        regions = adaptive.regions(on: window.surface)
        draw = { [unowned self] in self.draw(into: $0) }
        for p in panels { p.declare(on: regions) { [unowned self] in self.needsRedraw = true } }
        globals.onPointerEvent = { [unowned self] in self.pointerEvent($0) }
        dragAndDrop = DemoDragAndDrop(globals: globals)
        wireDragAndDrop()
        pen = PenInput(globals: globals, surface: window.surface)
        pen?.onFrame = { [unowned self] in self.penFrame($0) }
        window.redraw()
        try connection.roundtrip()
    }

    // MARK: Input

    /// `LODESTONE_DEMO_TRACE=1`: every pointer event on stderr.
    private let trace = getenv("LODESTONE_DEMO_TRACE") != nil

    private func pointerEvent(_ event: WlPointerEvent) {
        if trace {
            let line = "pointer \(Self.traceName(event)) at \(pointer)\n"
            _ = line.withCString { write(2, $0, strlen($0)) }
        }
        switch event {
        case .enter(_, _, let x, let y): moved(to: Point(x, y))
        case .leave: moved(to: .outside)
        case .motion(_, let x, let y): moved(to: Point(x, y))
        case .button(_, _, 0x110, let state):                  // BTN_LEFT
            if state == 1 {
                pressedPanel = panels.last { $0.contains(pointer) }
                if pressedPanel?.pointerPressed(at: pointer) == true { needsRedraw = true }
            } else {
                if pressedPanel?.pointerReleased(at: pointer) == true { needsRedraw = true }
                pressedPanel = nil
            }
        default: break
        }
    }

    /// The event's name in the protocol, for the trace.
    private static func traceName(_ event: WlPointerEvent) -> String {
        switch event {
        case .enter: "enter"
        case .leave: "leave"
        case .motion: "motion"
        case .button: "button"
        case .axis: "axis"
        case .frame: "frame"
        case .axisSource: "axis_source"
        case .axisStop: "axis_stop"
        case .axisDiscrete: "axis_discrete"
        case .axisValue120: "axis_value120"
        }
    }

    /// The drop panel's chip starts a real drag, and real drags over the window ask the panel.
    private func wireDragAndDrop() {
        guard let dnd = dragAndDrop else { return }
        let panel = dropPanel
        if trace { dnd.trace = { line in _ = (line + "\n").withCString { write(2, $0, strlen($0)) } } }
        panel.startDrag = { [unowned self] in
            let inset = Int32(DropTargetPanel.iconInset)
            // The icon below-right of the pointer, so the pointer stays visible beside it.
            let started = dnd.startDrag(from: window.surface, scale: window.scale, size: DropTargetPanel.iconSize,
                                        offset: (10 - inset, 8 - inset)) { [unowned self] buffer in
                if let c = Canvas(buffer, scale: Double(window.scale)) { DropTargetPanel.drawIcon(c) }
            }
            // The compositor keeps the pointer's release for the drop: the press ends here.
            if started { pressedPanel = nil }
            return started
        }
        dnd.onSourceChanged = { [unowned self] dragging in
            if !dragging { panel.chipDragEnded() }
            needsRedraw = true
        }
        dnd.target = .init(
            accepts: { panel.accepts($0) },
            hovered: { [unowned self] p in if panel.dragHovered(p) { needsRedraw = true } },
            dropped: { [unowned self] mime, bytes in panel.dropArrived(mime: mime, bytes: bytes); needsRedraw = true },
            left: { [unowned self] p in panel.dragLeft(at: p); needsRedraw = true })
    }

    /// A pen draws on the drawing panel: pressure sets the width, tilt the shade. (While it
    /// hovers, the compositor shows the hover preview; the app need not draw anything.)
    private func penFrame(_ f: PenInput.PenFrame) {
        if trace {
            let line = "pen at \(f.position) pressure \(f.pressure) tilt \(f.tiltX) \(f.tiltY) touching \(f.touching)\n"
            _ = line.withCString { write(2, $0, strlen($0)) }
        }
        var changed = false
        if f.wentDown { changed = sketch.penDown(at: f.position, pressure: f.pressure, tiltX: f.tiltX, tiltY: f.tiltY) }
        else if f.touching { changed = sketch.penMoved(to: f.position, pressure: f.pressure, tiltX: f.tiltX, tiltY: f.tiltY) }
        if f.wentUp || !f.inProximity { changed = sketch.penUp() || changed }
        if changed { needsRedraw = true }
    }

    private func moved(to p: Point) {
        pointer = p
        for panel in panels where panel.pointerMoved(to: p, dragging: pressedPanel != nil && panel === pressedPanel) {
            needsRedraw = true
        }
    }

    // MARK: Drawing

    private func draw(into buffer: ClientShmBuffer) {
        guard let c = Canvas(buffer, scale: Double(window.scale)) else { return }
        c.fill(Box(0, 0, Double(window.width), Double(window.height)), .window)
        for p in panels {
            if let card = p.card {
                c.shadow(card, radius: 14, depth: 4, opacity: 0.06)
                c.fill(card, .panel, radius: 14)
                c.text(p.caption, at: Point(card.x + 14, card.y + 20), .caption, .secondaryInk)
            }
            p.draw(c)
        }
    }

    /// Draws and commits if anything changed.
    func flush() {
        guard needsRedraw else { connection.flush(); return }
        needsRedraw = false
        window.redraw()
    }

    // MARK: Running

    /// Runs until the compositor goes away or the window is closed. With
    /// `syncOnStdin`, each line `sync N` read from stdin is answered on stdout
    /// with `synced N` once every event sent before it is handled and the
    /// resulting commit has reached the compositor (the tour's handshake).
    func run(syncOnStdin: Bool) throws {
        let fd = connection.fileDescriptor
        var pending = ""
        while !window.closeRequested {
            try connection.dispatchPending()
            flush()
            try connection.flushChecked()
            var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
            if syncOnStdin { fds.append(pollfd(fd: 0, events: Int16(POLLIN), revents: 0)) }
            let drops = dragAndDrop?.readFDs ?? []
            fds += drops.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            guard poll(&fds, nfds_t(fds.count), -1) >= 0 || lastErrno == EINTR else { return }
            if fds[0].revents & Int16(POLLHUP | POLLERR) != 0 { return }
            if fds[0].revents & Int16(POLLIN) != 0 { try connection.readAndDispatch() }
            for (i, drop) in drops.enumerated() where fds[fds.count - drops.count + i].revents != 0 { dragAndDrop?.readable(drop) }
            if syncOnStdin, fds[1].revents != 0 {
                var bytes = [UInt8](repeating: 0, count: 256)
                let n = read(0, &bytes, bytes.count)
                if n <= 0 { return }  // the tour is gone
                pending += String(decoding: bytes[0..<n], as: UTF8.self)
                while let newline = pending.firstIndex(of: "\n") {
                    let line = String(pending[..<newline])
                    pending = String(pending[pending.index(after: newline)...])
                    try sync(line)
                }
            }
        }
    }

    private func sync(_ line: String) throws {
        guard line.hasPrefix("sync ") else { return }
        try connection.roundtrip()  // every event sent before the request is dispatched
        flush()
        try connection.roundtrip()  // and the commit it caused is applied
        let answer = "synced \(line.dropFirst(5))\n"
        _ = answer.withCString { write(1, $0, strlen($0)) }
    }
}
