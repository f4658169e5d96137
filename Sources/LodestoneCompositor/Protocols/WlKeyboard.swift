import CWaylandServer
import WaylandServer

/// `wl_keyboard`: key events for one client.
final class WlKeyboard: Resource, WlKeyboardHandler {
    unowned let seat: Seat

    init?(seat: Seat, client: Client, version: UInt32, id: UInt32) {
        self.seat = seat
        super.init(client: client, version: version, id: id)
    }

    func handle(_ request: Request, _ arguments: Arguments) {
        if request == .release { destroy() }
    }

    override func destroyed() { seat.keyboard.keyboards.removeAll { $0 === self } }

    // Events

    func keymap(_ keymap: Keymap) {
        send { wl_keyboard_send_keymap($0, WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1.rawValue, keymap.fd, keymap.size) }
    }

    func enter(serial: UInt32, surface: WlSurface, keys: [UInt32]) {
        withArray(keys) { keys in send(surface) { wl_keyboard_send_enter($0, serial, $1, keys) } }
    }

    func leave(serial: UInt32, surface: WlSurface) { send(surface) { wl_keyboard_send_leave($0, serial, $1) } }

    func key(serial: UInt32, time: UInt32, key: UInt32, pressed: Bool) {
        send { wl_keyboard_send_key($0, serial, time, key, pressed ? WL_KEYBOARD_KEY_STATE_PRESSED.rawValue : WL_KEYBOARD_KEY_STATE_RELEASED.rawValue) }
    }

    func modifiers(serial: UInt32, _ m: Keymap.Modifiers) {
        send { wl_keyboard_send_modifiers($0, serial, m.depressed, m.latched, m.locked, m.group) }
    }

    /// Since 4: the seat's repeat rate (keys per second) and delay (ms).
    func repeatInfo() { if has(4) { send { wl_keyboard_send_repeat_info($0, seat.keyboard.repeatRate, seat.keyboard.repeatDelay) } } }
}
