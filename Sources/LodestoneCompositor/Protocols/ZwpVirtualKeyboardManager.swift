import CWaylandProtocols
import CWaylandServer
import Glibc
import WaylandServer

/// `zwp_virtual_keyboard_manager_v1` (virtual-keyboard-unstable-v1): `wtype`, on-screen
/// keyboards and input methods (fcitx5 passes the keys it does not use back this way) type
/// into the window with the keyboard, each with a keymap of its own. Every client may: the
/// keys reach only the focused window, as a real keyboard's would (no authorization prompt,
/// so `unauthorized` is never posted).
final class ZwpVirtualKeyboardManager: Resource, ZwpVirtualKeyboardManagerV1Handler {
    static let version: Int32 = 1
    unowned let keyboard: KeyboardFocus

    init?(keyboard: KeyboardFocus, client: Client, version: UInt32, id: UInt32) {
        self.keyboard = keyboard
        super.init(client: client, version: version, id: id)
    }

    func handle(_ request: Request, _ a: Arguments) {
        // The seat argument names Lodestone's only seat.
        if request == .createVirtualKeyboard { _ = ZwpVirtualKeyboard(keyboard: keyboard, client: client, version: version, id: a.newID(1)) }
    }
}

/// `zwp_virtual_keyboard_v1`: keys and modifiers in the client's own keymap, which the
/// focused window is sent before the first key (`KeyboardFocus.deliverVirtual`). A key or
/// modifiers before a usable keymap is the protocol's `no_keymap` error, and so is a keymap
/// Lodestone cannot use (a bad fd, a size past the file's end, a text xkbcommon refuses):
/// the protocol has no other error, and the client must not go on typing in a keymap that
/// is not there.
final class ZwpVirtualKeyboard: Resource, ZwpVirtualKeyboardV1Handler {
    unowned let keyboard: KeyboardFocus
    private var keymap: Keymap?
    /// Keys held down now: released when the keyboard goes, so no key sticks in the window.
    private var held: [UInt32] = []

    init?(keyboard: KeyboardFocus, client: Client, version: UInt32, id: UInt32) {
        self.keyboard = keyboard
        super.init(client: client, version: version, id: id)
    }

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        case .keymap: keymapReceived(format: a.uint(0), fd: a.fd(1), size: a.uint(2))
        case .key:
            guard let keymap = usableKeymap() else { return }
            let pressed = a.uint(2) == WL_KEYBOARD_KEY_STATE_PRESSED.rawValue
            let key = a.uint(1)
            if pressed { if !held.contains(key) { held.append(key) } } else { held.removeAll { $0 == key } }
            keyboard.deliverVirtual(key, pressed: pressed, time: a.uint(0), keymap: keymap)
        case .modifiers:
            guard let keymap = usableKeymap() else { return }
            keyboard.deliverVirtual(Keymap.Modifiers(depressed: a.uint(0), latched: a.uint(1), locked: a.uint(2), group: a.uint(3)), keymap: keymap)
        case .destroy: destroy()
        }
    }

    private func keymapReceived(format: UInt32, fd: Int32, size: UInt32) {
        defer { close(fd) }
        guard format == WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1.rawValue else {
            return postError(ZWP_VIRTUAL_KEYBOARD_V1_ERROR_NO_KEYMAP.rawValue, "keymap format \(format) is not xkb_v1 (1)")
        }
        do {
            keymap = try Keymap.fromClient(fd: fd, size: size)
        } catch {
            postError(ZWP_VIRTUAL_KEYBOARD_V1_ERROR_NO_KEYMAP.rawValue, "the keymap cannot be used: \(error)")
        }
    }

    private func usableKeymap() -> Keymap? {
        if keymap == nil { postError(ZWP_VIRTUAL_KEYBOARD_V1_ERROR_NO_KEYMAP.rawValue, "key or modifiers before a keymap was set") }
        return keymap
    }

    override func destroyed() {
        guard let keymap else { return }
        for key in held { keyboard.deliverVirtual(key, pressed: false, time: 0, keymap: keymap) }
    }
}
