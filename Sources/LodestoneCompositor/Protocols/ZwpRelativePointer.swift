import CWaylandServer
import WaylandServer

/// `zwp_relative_pointer_manager_v1`: hands out relative-motion listeners.
final class ZwpRelativePointerManager: Resource, ZwpRelativePointerManagerV1Handler {
    static let version: Int32 = 1
    unowned let seat: Seat

    init?(seat: Seat, client: Client, version: UInt32, id: UInt32) {
        self.seat = seat
        super.init(client: client, version: version, id: id)
    }

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        case .destroy: destroy()
        case .getRelativePointer:
            if let relative = ZwpRelativePointer(seat: seat, client: client, id: a.newID(0)) { seat.constraints.relativePointers.append(relative) }
        }
    }
}

/// `zwp_relative_pointer_v1`: unaccelerated device motion, also while the pointer is locked.
final class ZwpRelativePointer: Resource, ZwpRelativePointerV1Handler {
    unowned let seat: Seat

    init?(seat: Seat, client: Client, id: UInt32) {
        self.seat = seat
        super.init(client: client, version: 1, id: id)
    }

    func handle(_ request: Request, _ arguments: Arguments) { destroy() }

    override func destroyed() { seat.constraints.relativePointers.removeAll { $0 === self } }

    /// Time in microseconds; Lodestone's devices are not accelerated, so both deltas agree.
    func relativeMotion(microseconds: UInt64, dx: Double, dy: Double) {
        let fx = wl_fixed_from_double(dx), fy = wl_fixed_from_double(dy)
        send { zwp_relative_pointer_v1_send_relative_motion($0, UInt32(microseconds >> 32), UInt32(truncatingIfNeeded: microseconds), fx, fy, fx, fy) }
    }
}
