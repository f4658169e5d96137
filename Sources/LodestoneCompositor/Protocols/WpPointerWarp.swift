import CWaylandProtocols
import CWaylandServer
import WaylandServer

/// `wp_pointer_warp_v1` (pointer-warp-v1, wayland-protocols staging; vendored in
/// `protocols/`): a client asks to move the pointer within one of its surfaces. The
/// protocol has no refusal event: a refused warp is logged and nothing moves.
final class WpPointerWarp: Resource, WpPointerWarpV1Handler {
    static let version: Int32 = 1
    unowned let seat: Seat

    init?(seat: Seat, client: Client, version: UInt32, id: UInt32) {
        self.seat = seat
        super.init(client: client, version: version, id: id)
    }

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        case .destroy: destroy()
        case .warpPointer:
            guard let surface = a.object(0, as: WlSurface.self) else { return }
            seat.warp(to: surface, x: a.fixed(2), y: a.fixed(3), serial: a.uint(4))
        }
    }
}
