import CWaylandServer
import WaylandServer

/// `wl_pointer`: pointer events for one client.
final class WlPointer: Resource, WlPointerHandler {
    unowned let seat: Seat
    /// The serial of the last enter this pointer got: set_cursor, move and resize must
    /// carry it or a later one (see `Seat.isCurrentPointerSerial`).
    private(set) var enterSerial: UInt32?

    init?(seat: Seat, client: Client, version: UInt32, id: UInt32) {
        self.seat = seat
        super.init(client: client, version: version, id: id)
    }

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        case .setCursor: seat.setCursor(from: self, serial: a.uint(0), surface: a.object(1, as: WlSurface.self), hotspotX: a.int(2), hotspotY: a.int(3))
        case .release: destroy()
        }
    }

    override func destroyed() { seat.wlPointers.removeAll { $0 === self } }

    // Events

    func enter(serial: UInt32, surface: WlSurface, x: Double, y: Double) {
        enterSerial = serial
        send(surface) { wl_pointer_send_enter($0, serial, $1, wl_fixed_from_double(x), wl_fixed_from_double(y)) }
    }
    func leave(serial: UInt32, surface: WlSurface) { send(surface) { wl_pointer_send_leave($0, serial, $1) } }
    func motion(time: UInt32, x: Double, y: Double) { send { wl_pointer_send_motion($0, time, wl_fixed_from_double(x), wl_fixed_from_double(y)) } }
    func button(serial: UInt32, time: UInt32, button: UInt32, pressed: Bool) {
        send { wl_pointer_send_button($0, serial, time, button, pressed ? WL_POINTER_BUTTON_STATE_PRESSED.rawValue : WL_POINTER_BUTTON_STATE_RELEASED.rawValue) }
    }

    /// One scroll step with its source and discrete count, in the form this version understands.
    func axis(time: UInt32, axis: UInt32, value: Double, discrete: Int32, source: UInt32) {
        // Since 5
        if has(5) { send { wl_pointer_send_axis_source($0, source) } }
        if value == 0 && has(5) {
            send { wl_pointer_send_axis_stop($0, time, axis) }
            return
        }
        if discrete != 0 {
            // Since 8 value120 replaces discrete.
            if has(8) { send { wl_pointer_send_axis_value120($0, axis, discrete.clampedMultiplied(by: 120)) } }
            else if has(5) { send { wl_pointer_send_axis_discrete($0, axis, discrete) } }
        }
        send { wl_pointer_send_axis($0, time, axis, wl_fixed_from_double(value)) }
    }

    /// Since 5: ends a group of events.
    func frame() { if has(5) { send { wl_pointer_send_frame($0) } } }
}
