import CWaylandProtocols
import CWaylandServer
import Rendering
import WaylandServer

/// `zwp_input_method_manager_v2` (input-method-unstable-v2): an input method (fcitx5, a
/// pywayland test IME) serves the seat's text inputs. One at a time: the protocol says a
/// second gets `unavailable` as its only event, and is inert from then on.
final class ZwpInputMethodManager: Resource, ZwpInputMethodManagerV2Handler {
    static let version: Int32 = 1
    unowned let textInputs: TextInputs

    init?(textInputs: TextInputs, client: Client, version: UInt32, id: UInt32) {
        self.textInputs = textInputs
        super.init(client: client, version: version, id: id)
    }

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        // The seat argument names Lodestone's only seat.
        case .getInputMethod: _ = ZwpInputMethod(textInputs: textInputs, client: client, version: version, id: a.newID(1))
        case .destroy: destroy()
        }
    }
}

/// `zwp_input_method_v2`: hears about the active text input (`activate`, its description,
/// `done`) and answers with preedit, commit string and deletions, applied at `commit`.
final class ZwpInputMethod: Resource, ZwpInputMethodV2Handler {
    unowned let textInputs: TextInputs
    /// Another input method was there first: `unavailable` was sent and requests do nothing.
    private(set) var isInert = false
    /// What `commit` applies, reset by each commit.
    private struct Pending {
        var preedit: (text: String, begin: Int32, end: Int32)?
        var commit: String?
        var delete: (before: UInt32, after: UInt32) = (0, 0)
    }
    private var pending = Pending()
    /// `done` events sent: a commit with another serial is stale and changes nothing.
    private var doneCount: UInt32 = 0
    /// activate/deactivate as sent, and as applied by the last `done`.
    private var pendingActive = false
    private(set) var isActive = false
    private(set) var popups: [ZwpInputPopupSurface] = []
    private(set) weak var grab: ZwpInputMethodKeyboardGrab?
    /// The protocol's limit on every text it carries: a Wayland message is 4096 bytes, and
    /// libwayland disconnects a client it cannot send an event to.
    static let textLimit = 4000

    init?(textInputs: TextInputs, client: Client, version: UInt32, id: UInt32) {
        self.textInputs = textInputs
        super.init(client: client, version: version, id: id)
        if !textInputs.inputMethodCreated(self) {
            isInert = true
            send { zwp_input_method_v2_send_unavailable($0) }
        }
    }

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        case .commitString: pending.commit = text(a.string(0))
        case .setPreeditString: pending.preedit = text(a.string(0)).map { ($0, a.int(1), a.int(2)) }
        case .deleteSurroundingText: pending.delete = (a.uint(0), a.uint(1))
        case .commit:
            let applied = pending
            pending = Pending()
            guard !isInert, a.uint(0) == doneCount else { return }
            textInputs.inputMethodCommitted(self, preedit: applied.preedit, commit: applied.commit, delete: applied.delete)
        case .getInputPopupSurface:
            guard let surface = a.object(1, as: WlSurface.self),
                  let popup = ZwpInputPopupSurface(inputMethod: self, surface: surface, client: client, version: version, id: a.newID(0)),
                  surface.assignRole(popup, error: (self, ZWP_INPUT_METHOD_V2_ERROR_ROLE.rawValue)) else { return }
            popups.append(popup)
            textInputs.placePopup()
        case .grabKeyboard:
            guard let grab = ZwpInputMethodKeyboardGrab(inputMethod: self, client: client, version: version, id: a.newID(0)) else { return }
            // An inert input method's grab stays inert too: it hears no keys.
            guard !isInert else { return }
            self.grab = grab
            let keyboard = textInputs.keyboard
            grab.keymap(keyboard.keymap)
            grab.repeatInfo(rate: keyboard.repeatRate, delay: keyboard.repeatDelay)
        case .destroy: destroy()
        }
    }

    /// Text over the protocol's limit is dropped: the app could not be sent it.
    private func text(_ s: String?) -> String? {
        guard let s, s.utf8.count <= Self.textLimit else { return nil }
        return s
    }

    override func destroyed() {
        if !isInert { textInputs.inputMethodDestroyed(self) }
    }

    func popupDestroyed(_ popup: ZwpInputPopupSurface) {
        popups.removeAll { $0 === popup }
        textInputs.placePopup()
    }

    func grabReleased(_ released: ZwpInputMethodKeyboardGrab) { if grab === released { grab = nil } }

    // MARK: Events

    func activate() {
        pendingActive = true
        pending = Pending()
        send { zwp_input_method_v2_send_activate($0) }
    }

    func deactivate() {
        pendingActive = false
        send { zwp_input_method_v2_send_deactivate($0) }
    }

    /// The active text input's state, as it committed it.
    func describe(_ state: TextInputState) {
        if let s = state.surrounding, s.text.utf8.count <= Self.textLimit {
            send { zwp_input_method_v2_send_surrounding_text($0, s.text, UInt32(max(0, s.cursor)), UInt32(max(0, s.anchor))) }
        }
        send { zwp_input_method_v2_send_text_change_cause($0, state.changeCause) }
        send { zwp_input_method_v2_send_content_type($0, state.hint, state.purpose) }
    }

    func done() {
        isActive = pendingActive
        doneCount &+= 1
        send { zwp_input_method_v2_send_done($0) }
    }
}

/// `zwp_input_popup_surface_v2`: the input method's candidate window, shown while it is
/// active, at the text input's cursor rectangle (`TextInputs.placePopup`).
final class ZwpInputPopupSurface: Resource, ZwpInputPopupSurfaceV2Handler, SurfaceRole {
    let roleName = "zwp_input_popup_surface_v2"
    private(set) weak var inputMethod: ZwpInputMethod?
    private(set) weak var surface: WlSurface?
    private var sentRectangle: PixelRect?

    init?(inputMethod: ZwpInputMethod, surface: WlSurface, client: Client, version: UInt32, id: UInt32) {
        self.inputMethod = inputMethod
        self.surface = surface
        super.init(client: client, version: version, id: id)
    }

    func handle(_ request: Request, _ a: Arguments) { if request == .destroy { destroy() } }

    func surfaceCommitted() { inputMethod?.textInputs.placePopup() }

    override func destroyed() { inputMethod?.popupDestroyed(self) }

    /// The text cursor rectangle, relative to the popup.
    func textInputRectangle(_ r: PixelRect) {
        guard r != sentRectangle else { return }
        sentRectangle = r
        send { zwp_input_popup_surface_v2_send_text_input_rectangle($0, r.x, r.y, r.width, r.height) }
    }
}

/// `zwp_input_method_keyboard_grab_v2`: the seat's keys, for the input method first
/// (`TextInputs.keyGrabbed`); like a `wl_keyboard` of version 6 without focus events.
final class ZwpInputMethodKeyboardGrab: Resource, ZwpInputMethodKeyboardGrabV2Handler {
    private(set) weak var inputMethod: ZwpInputMethod?

    init?(inputMethod: ZwpInputMethod, client: Client, version: UInt32, id: UInt32) {
        self.inputMethod = inputMethod
        super.init(client: client, version: version, id: id)
    }

    func handle(_ request: Request, _ a: Arguments) { if request == .release { destroy() } }

    override func destroyed() { inputMethod?.grabReleased(self) }

    func keymap(_ keymap: Keymap) {
        send { zwp_input_method_keyboard_grab_v2_send_keymap($0, WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1.rawValue, keymap.fd, keymap.size) }
    }

    func key(serial: UInt32, time: UInt32, key: UInt32, pressed: Bool) {
        let state = pressed ? WL_KEYBOARD_KEY_STATE_PRESSED.rawValue : WL_KEYBOARD_KEY_STATE_RELEASED.rawValue
        send { zwp_input_method_keyboard_grab_v2_send_key($0, serial, time, key, state) }
    }

    func modifiers(serial: UInt32, _ m: Keymap.Modifiers) {
        send { zwp_input_method_keyboard_grab_v2_send_modifiers($0, serial, m.depressed, m.latched, m.locked, m.group) }
    }

    func repeatInfo(rate: Int32, delay: Int32) { send { zwp_input_method_keyboard_grab_v2_send_repeat_info($0, rate, delay) } }
}
