import CWaylandClient
import LodestoneCompositor
import Glibc
import Logging
import WaylandClient

/// Tablet tools from the parent (zwp_tablet_seat_v2), passed on as InputEvents.
extension ParentInput {
    /// One parent tool: what it is, and the events of the frame being collected.
    final class ParentTool {
        let proxy: Proxy
        var kind = TabletTool.Kind.pen
        var serial: UInt64 = 0
        /// The current axes (kept across frames: the parent sends only changes).
        var axes = TabletToolAxes(x: 0, y: 0)
        var over = false
        // This frame:
        var proximityIn = false, proximityOut = false, down = false, up = false, moved = false
        var buttons: [(UInt32, Bool)] = []
        init(_ proxy: Proxy) { self.proxy = proxy }
        var tool: TabletTool { TabletTool(kind: kind, serial: serial) }
    }

    func getTabletSeat() {
        guard let manager = tabletManager else { return }
        let seat = seat
        do {
            let s = try Proxy(creating: { manager.request(seat) { zwp_tablet_manager_v2_get_tablet_seat($0, $1) } }, on: seat.connection,
                              what: "zwp_tablet_manager_v2.get_tablet_seat")
            // The connection, not `s`: the handler `s` keeps must not keep `s` (LeakSanitizer
            // found the cycle when the parent's window closed).
            let connection = s.connection
            s.handleEvents(TabletSeatEvent.self) { [unowned self] event in
                switch event {
                case .tabletAdded(let t): self.tablets.append(Proxy(t, on: connection))
                case .toolAdded(let t):
                    let tool = ParentTool(Proxy(t, on: connection))
                    self.tools[ObjectIdentifier(tool)] = tool
                    tool.proxy.handleEvents(TabletToolProxyEvent.self) { [unowned self, unowned tool] in self.toolEvent(tool, $0) }
                case .padAdded(let p):  // pads (rings, strips) are not forwarded
                    Proxy(p, on: connection).destroy { zwp_tablet_pad_v2_destroy($0) }
                }
            }
            tabletSeat = s
        } catch {
            log.error("no tablet input from the parent: \(error)")
        }
    }

    func toolEvent(_ tool: ParentTool, _ event: TabletToolProxyEvent) {
        switch event {
        case .type(let type): tool.kind = TabletTool.Kind(rawValue: type) ?? .pen
        case .hardwareSerial(let hi, let lo): tool.serial = UInt64(hi) << 32 | UInt64(lo)
        case .hardwareIDWacom, .capability, .done, .slider, .wheel: break
        case .removed:
            tools[ObjectIdentifier(tool)] = nil
            tool.proxy.destroy { zwp_tablet_tool_v2_destroy($0) }
        case .proximityIn(_, _, let surface):
            guard window.surface.isObject(surface) else { return }
            tool.proximityIn = true
            tool.over = true
        case .proximityOut: tool.proximityOut = true
        case .down: tool.down = true
        case .up: tool.up = true
        case .motion(let x, let y): tool.axes.x = x; tool.axes.y = y; tool.moved = true
        case .pressure(let p): tool.axes.pressure = Double(p) / 65535; tool.moved = true
        case .distance(let d): tool.axes.distance = Double(d) / 65535; tool.moved = true
        case .tilt(let x, let y): tool.axes.tilt = (x, y); tool.moved = true
        case .rotation(let r): tool.axes.rotation = r; tool.moved = true
        case .button(_, let button, let state): tool.buttons.append((button, state == ZWP_TABLET_TOOL_V2_BUTTON_STATE_PRESSED.rawValue))
        case .frame: toolFrame(tool)
        }
    }

    /// A tool's frame, in the order the seat expects: proximity, axes or the tip, buttons, leaving.
    func toolFrame(_ tool: ParentTool) {
        defer {
            tool.proximityIn = false; tool.proximityOut = false; tool.down = false; tool.up = false; tool.moved = false
            tool.buttons = []
        }
        guard tool.over else { return }
        let t = tool.tool
        if tool.proximityIn { send(.tabletTool(.proximityIn(t, tool.axes))) }
        if tool.down { send(.tabletTool(.tip(t, down: true, tool.axes))) }
        else if tool.up { send(.tabletTool(.tip(t, down: false, tool.axes))) }
        else if tool.moved && !tool.proximityIn { send(.tabletTool(.axes(t, tool.axes))) }
        for (button, pressed) in tool.buttons { send(.tabletTool(.button(t, button: button, pressed: pressed))) }
        if tool.proximityOut {
            send(.tabletTool(.proximityOut(t)))
            tool.over = false
        }
    }
}
