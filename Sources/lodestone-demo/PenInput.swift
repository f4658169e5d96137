import CWaylandClient
import CWaylandProtocols
import WaylandClient

/// The demo's tablet tools (`zwp_tablet_manager_v2`): each tool's events gathered until
/// `frame`, then handed on as one `PenFrame` (the protocol sends only the axes that changed,
/// so the last value of each is kept).
final class PenInput {
    /// What one frame of a tool says, with every axis current.
    struct PenFrame {
        var position = Point.outside
        /// 0 to 1.
        var pressure = 0.0
        /// Degrees from upright.
        var tiltX = 0.0, tiltY = 0.0
        var inProximity = false
        var touching = false
        // This frame:
        var wentDown = false, wentUp = false
    }

    private final class Tool {
        let proxy: Proxy
        var state = PenFrame()
        init(_ proxy: Proxy) { self.proxy = proxy }
    }

    private let manager: Proxy
    private var seat: Proxy?
    private var tablets: [Proxy] = []
    private var tools: [Tool] = []
    private let surface: Proxy
    /// Each frame over the demo's surface.
    var onFrame: ((PenFrame) -> Void)?

    /// Nil when the compositor offers no `zwp_tablet_manager_v2` or the client has no seat.
    init?(globals: Globals, surface: Proxy) {
        guard let seat = globals.seat, let m = globals.registry.bind(cwp_zwp_tablet_manager_v2_interface(), version: 1) else { return nil }
        let connection = globals.connection
        manager = Proxy(m, on: connection)
        self.surface = surface
        guard let s = try? Proxy(creating: { seat.request { zwp_tablet_manager_v2_get_tablet_seat(m, $0) } }, on: connection,
                                 what: "zwp_tablet_manager_v2.get_tablet_seat") else { return nil }
        s.handleEvents(TabletSeatEvent.self) { [unowned self] event in
            switch event {
            case .tabletAdded(let t): self.tablets.append(Proxy(t, on: connection))
            case .toolAdded(let t):
                let tool = Tool(Proxy(t, on: connection))
                self.tools.append(tool)
                tool.proxy.handleEvents(TabletToolProxyEvent.self) { [unowned self, unowned tool] in self.event($0, of: tool) }
            case .padAdded(let p): Proxy(p, on: connection).destroy { zwp_tablet_pad_v2_destroy($0) }
            }
        }
        self.seat = s
    }

    private func event(_ event: TabletToolProxyEvent, of tool: Tool) {
        switch event {
        case .proximityIn(_, _, let surface): tool.state.inProximity = self.surface.isObject(surface)
        case .proximityOut: tool.state.inProximity = false; tool.state.touching = false
        case .down: tool.state.touching = true; tool.state.wentDown = true
        case .up: tool.state.touching = false; tool.state.wentUp = true
        case .motion(let x, let y): tool.state.position = Point(x, y)
        case .pressure(let p): tool.state.pressure = Double(p) / 65535
        case .tilt(let x, let y): (tool.state.tiltX, tool.state.tiltY) = (x, y)
        case .frame:
            onFrame?(tool.state)
            tool.state.wentDown = false
            tool.state.wentUp = false
        case .removed: tools.removeAll { $0 === tool }
        default: break
        }
    }
}
