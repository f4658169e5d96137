import CWaylandServer
import WaylandServer

/// `wl_touch`: touch points for one client. Inert when the compositor has no
/// touchscreen (the seat then does not advertise the capability), and after the
/// touchscreen it was made for went away (a TTY's last touch device unplugged).
final class WlTouch: Resource, WlTouchHandler {
    private weak var touchscreen: Touchscreen?

    init?(touchscreen: Touchscreen?, client: Client, version: UInt32, id: UInt32) {
        self.touchscreen = touchscreen
        super.init(client: client, version: version, id: id)
        touchscreen?.touches.append(self)
    }

    func handle(_ request: Request, _ arguments: Arguments) {
        switch request {
        case .release: destroy()
        }
    }

    override func destroyed() { touchscreen?.touches.removeAll { $0 === self } }

    // Events

    func down(serial: UInt32, time: UInt32, surface: WlSurface, id: Int32, x: Double, y: Double) {
        send(surface) { wl_touch_send_down($0, serial, time, $1, id, wl_fixed_from_double(x), wl_fixed_from_double(y)) }
    }
    func up(serial: UInt32, time: UInt32, id: Int32) { send { wl_touch_send_up($0, serial, time, id) } }
    func motion(time: UInt32, id: Int32, x: Double, y: Double) {
        send { wl_touch_send_motion($0, time, id, wl_fixed_from_double(x), wl_fixed_from_double(y)) }
    }
    func frame() { send { wl_touch_send_frame($0) } }
    func cancel() { send { wl_touch_send_cancel($0) } }
}
