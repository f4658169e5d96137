import CWaylandServer
import WaylandServer

/// `wl_keyboard`: key events for one client.
final class WlKeyboard: Resource, ProtocolObject {
    static var interface: UnsafePointer<wl_interface> { Interface.keyboard }
    unowned let seat: Seat

    enum Request: UInt32 { case release }

    init?(seat: Seat, client: Client, version: UInt32, id: UInt32) {
        self.seat = seat
        super.init(client: client, interface: Self.interface, version: version, id: id)
    }

    override func dispatch(opcode: UInt32, arguments: Arguments) {
        if Request(rawValue: opcode) == .release { destroy() }
    }

    override func destroyed() { seat.keyboard.keyboards.removeAll { $0 === self } }

    // Events

    func keymap(_ keymap: Keymap) {
        wl_keyboard_send_keymap(pointer, WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1.rawValue, keymap.fd, keymap.size)
    }

    func enter(serial: UInt32, surface: WlSurface, keys: [UInt32]) {
        withArray(keys) { wl_keyboard_send_enter(pointer, serial, surface.pointer, $0) }
    }

    func leave(serial: UInt32, surface: WlSurface) { wl_keyboard_send_leave(pointer, serial, surface.pointer) }

    func key(serial: UInt32, time: UInt32, key: UInt32, pressed: Bool) {
        wl_keyboard_send_key(pointer, serial, time, key, pressed ? WL_KEYBOARD_KEY_STATE_PRESSED.rawValue : WL_KEYBOARD_KEY_STATE_RELEASED.rawValue)
    }

    func modifiers(serial: UInt32, _ m: Keymap.Modifiers) {
        wl_keyboard_send_modifiers(pointer, serial, m.depressed, m.latched, m.locked, m.group)
    }

    /// Since 4: the seat's repeat rate (keys per second) and delay (ms).
    func repeatInfo() { if has(4) { wl_keyboard_send_repeat_info(pointer, seat.keyboard.repeatRate, seat.keyboard.repeatDelay) } }
}
