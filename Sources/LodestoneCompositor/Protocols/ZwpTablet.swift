import CWaylandServer
import WaylandServer

/// `zwp_tablet_manager_v2` (tablet-unstable-v2): hands out a client's tablet seat.
final class ZwpTabletManager: Resource, ZwpTabletManagerV2Handler {
    static let version: Int32 = 1
    unowned let tablets: Tablets

    init?(tablets: Tablets, client: Client, version: UInt32, id: UInt32) {
        self.tablets = tablets
        super.init(client: client, version: version, id: id)
    }

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        case .getTabletSeat:
            // Lodestone has one wl_seat: the argument only names it.
            if let seat = ZwpTabletSeat(tablets: tablets, client: client, version: version, id: a.newID(0)) { tablets.seatBound(seat) }
        case .destroy: destroy()
        }
    }
}

/// `zwp_tablet_seat_v2`: announces the tablet and each tool to one client.
final class ZwpTabletSeat: Resource, ZwpTabletSeatV2Handler {
    unowned let tablets: Tablets
    private(set) var tablet: ZwpTabletDevice?
    private(set) var tools: [TabletTool: ZwpTabletTool] = [:]

    init?(tablets: Tablets, client: Client, version: UInt32, id: UInt32) {
        self.tablets = tablets
        super.init(client: client, version: version, id: id)
    }

    func handle(_ request: Request, _ arguments: Arguments) { destroy() }

    override func destroyed() { tablets.seats.removeAll { $0 === self } }

    /// tablet_added, then the tablet's description and done.
    func addTablet(name: String) {
        guard let t = ZwpTabletDevice(client: client, version: version) else { return }
        send(t) { zwp_tablet_seat_v2_send_tablet_added($0, $1) }
        t.send { zwp_tablet_v2_send_name($0, name) }
        t.send { zwp_tablet_v2_send_done($0) }
        tablet = t
    }

    /// tool_added, then the tool's type, serial, capabilities and done.
    func addTool(_ tool: TabletTool) {
        guard tools[tool] == nil, let t = ZwpTabletTool(tool: tool, seat: self, client: client, version: version) else { return }
        send(t) { zwp_tablet_seat_v2_send_tool_added($0, $1) }
        t.send { zwp_tablet_tool_v2_send_type($0, tool.kind.rawValue) }
        if tool.serial != 0 { t.send { zwp_tablet_tool_v2_send_hardware_serial($0, UInt32(tool.serial >> 32), UInt32(truncatingIfNeeded: tool.serial)) } }
        for c in [ZWP_TABLET_TOOL_V2_CAPABILITY_TILT, ZWP_TABLET_TOOL_V2_CAPABILITY_PRESSURE, ZWP_TABLET_TOOL_V2_CAPABILITY_DISTANCE,
                  ZWP_TABLET_TOOL_V2_CAPABILITY_ROTATION] {
            t.send { zwp_tablet_tool_v2_send_capability($0, c.rawValue) }
        }
        t.send { zwp_tablet_tool_v2_send_done($0) }
        tools[tool] = t
    }

    func toolDestroyed(_ t: ZwpTabletTool) { if tools[t.tool] === t { tools[t.tool] = nil } }
    func tabletDestroyed(_ t: ZwpTabletDevice) { if tablet === t { tablet = nil } }
}

/// `zwp_tablet_v2`: the tablet device (Lodestone describes one for all its tools).
final class ZwpTabletDevice: Resource, ZwpTabletV2Handler {

    /// A compositor-created object (new_id in an event).
    init?(client: Client, version: UInt32) {
        super.init(client: client, version: version, id: 0)
    }

    func handle(_ request: Request, _ arguments: Arguments) { destroy() }
}

/// `zwp_tablet_tool_v2`: one physical tool (a pen, an eraser) for one client. Every group
/// of events ends with `frame` (`Tablets` sends it).
final class ZwpTabletTool: Resource, ZwpTabletToolV2Handler {
    let tool: TabletTool
    private weak var seat: ZwpTabletSeat?

    init?(tool: TabletTool, seat: ZwpTabletSeat, client: Client, version: UInt32) {
        self.tool = tool
        self.seat = seat
        super.init(client: client, version: version, id: 0)
    }

    func handle(_ request: Request, _ arguments: Arguments) {
        switch request {
        // The adaptive pointer's hover preview is the tool's cursor: a client's image is not shown.
        case .setCursor: break
        case .destroy: destroy()
        }
    }

    override func destroyed() { seat?.toolDestroyed(self) }

    var tablet: ZwpTabletDevice? { seat?.tablet }

    // Events

    func proximityIn(serial: UInt32, surface: WlSurface) {
        guard let tablet else { return }
        send(tablet, surface) { zwp_tablet_tool_v2_send_proximity_in($0, serial, $1, $2) }
    }
    func proximityOut() { send { zwp_tablet_tool_v2_send_proximity_out($0) } }
    func down(serial: UInt32) { send { zwp_tablet_tool_v2_send_down($0, serial) } }
    func up() { send { zwp_tablet_tool_v2_send_up($0) } }
    func motion(x: Double, y: Double) { send { zwp_tablet_tool_v2_send_motion($0, wl_fixed_from_double(x), wl_fixed_from_double(y)) } }
    /// 0 to 1, sent as 0 to 65535.
    func pressure(_ p: Double) { send { zwp_tablet_tool_v2_send_pressure($0, Self.normalized(p)) } }
    func distance(_ d: Double) { send { zwp_tablet_tool_v2_send_distance($0, Self.normalized(d)) } }
    func tilt(x: Double, y: Double) { send { zwp_tablet_tool_v2_send_tilt($0, wl_fixed_from_double(x), wl_fixed_from_double(y)) } }
    func rotation(_ degrees: Double) { send { zwp_tablet_tool_v2_send_rotation($0, wl_fixed_from_double(degrees)) } }
    func button(serial: UInt32, button: UInt32, pressed: Bool) {
        send { zwp_tablet_tool_v2_send_button($0, serial, button,
                                       pressed ? ZWP_TABLET_TOOL_V2_BUTTON_STATE_PRESSED.rawValue : ZWP_TABLET_TOOL_V2_BUTTON_STATE_RELEASED.rawValue) }
    }
    func frame(time: UInt32) { send { zwp_tablet_tool_v2_send_frame($0, time) } }

    static func normalized(_ v: Double) -> UInt32 { v.isFinite ? UInt32((min(max(v, 0), 1) * 65535).rounded()) : 0 }
}
