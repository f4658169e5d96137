import PointerAdaptation
import CWaylandProtocols
import CWaylandServer
import WaylandServer

/// `wp_cursor_shape_manager_v1` (cursor-shape-v1, `protocols/cursor-shape-v1.xml`): clients
/// name their cursor ("text", "ew-resize") instead of drawing it, which is exactly what the
/// adaptive pointer needs to know.
final class WpCursorShapeManager: Resource, WpCursorShapeManagerV1Handler {
    /// Version 2 adds the dnd_ask and all_resize shapes; a client asks for it explicitly.
    static let version: Int32 = 2
    unowned let seat: Seat

    init?(seat: Seat, client: Client, version: UInt32, id: UInt32) {
        self.seat = seat
        super.init(client: client, version: version, id: id)
    }

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        case .destroy: destroy()
        case .getPointer:
            _ = WpCursorShapeDevice(seat: seat, pointer: a.object(1, as: WlPointer.self), client: client, version: version, id: a.newID(0))
        case .getTabletToolV2:
            // Lodestone offers no tablets, so no client holds a zwp_tablet_tool_v2; the
            // device still has to exist for the new id, and stays inert.
            _ = WpCursorShapeDevice(seat: seat, pointer: nil, client: client, version: version, id: a.newID(0))
        }
    }
}

/// `wp_cursor_shape_device_v1`: one wl_pointer's cursor by name. Inert once its pointer is
/// gone (or for a tablet tool).
final class WpCursorShapeDevice: Resource, WpCursorShapeDeviceV1Handler {
    unowned let seat: Seat
    private weak var wlPointer: WlPointer?

    init?(seat: Seat, pointer: WlPointer?, client: Client, version: UInt32, id: UInt32) {
        self.seat = seat
        wlPointer = pointer
        super.init(client: client, version: version, id: id)
    }

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        case .destroy: destroy()
        case .setShape: setShape(serial: a.uint(0), value: a.uint(1))
        }
    }

    private func setShape(serial: UInt32, value: UInt32) {
        // An unknown shape is an error even on an inert device: the client broke the protocol.
        guard let name = CursorName(shape: value, version: version) else {
            return postError(WP_CURSOR_SHAPE_DEVICE_V1_ERROR_INVALID_SHAPE.rawValue,
                             "\(value) is not a wp_cursor_shape_device_v1 shape of version \(version) (1 to \(CursorName.lastShape(version: version)))")
        }
        guard let wlPointer else { return }
        seat.setCursorShape(name, from: wlPointer, serial: serial)
    }
}
