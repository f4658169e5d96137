import CWaylandProtocols
import CWaylandServer
import Rendering
import WaylandServer

/// `zwp_text_input_manager_v3` (text-input-unstable-v3): apps (GTK 4, GTK 3, Qt 6.7+, foot)
/// ask for an input method through a text input per seat. The state, and the relay to the
/// input method, is `TextInputs` (`Input/TextInput.swift`).
final class ZwpTextInputManager: Resource, ZwpTextInputManagerV3Handler {
    static let version: Int32 = 1
    unowned let textInputs: TextInputs

    init?(textInputs: TextInputs, client: Client, version: UInt32, id: UInt32) {
        self.textInputs = textInputs
        super.init(client: client, version: version, id: id)
    }

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        case .destroy: destroy()
        // The seat argument names Lodestone's only seat.
        case .getTextInput:
            guard let input = ZwpTextInput(textInputs: textInputs, client: client, version: version, id: a.newID(0)) else { return }
            textInputs.created(input)
        }
    }
}

/// `zwp_text_input_v3`: one app's text field, as it describes it at each `commit`. Every
/// request but `commit` changes the pending state; `commit` applies it and counts, and the
/// count is the serial of the `done` events that answer it.
final class ZwpTextInput: Resource, ZwpTextInputV3Handler, AppTextInput {
    unowned let textInputs: TextInputs

    private var pending = TextInputState()
    private(set) var current = TextInputState()
    /// Commits so far: the serial `done` carries.
    private(set) var serial: UInt32 = 0
    /// The surface this text input was told it entered (the focused surface of its client).
    private(set) weak var focus: WlSurface?

    init?(textInputs: TextInputs, client: Client, version: UInt32, id: UInt32) {
        self.textInputs = textInputs
        super.init(client: client, version: version, id: id)
    }

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        case .destroy: destroy()
        // enable resets everything described so far (the protocol's words).
        case .enable: pending = TextInputState(enabled: true)
        case .disable: pending.enabled = false
        case .setSurroundingText: pending.surrounding = (a.string(0) ?? "", a.int(1), a.int(2))
        case .setTextChangeCause: pending.changeCause = a.uint(0)
        case .setContentType: pending.hint = a.uint(0); pending.purpose = a.uint(1)
        case .setCursorRectangle: pending.cursor = PixelRect(x: a.int(0), y: a.int(1), width: a.int(2), height: a.int(3))
        case .commit:
            serial &+= 1
            current = pending
            // The change cause is reset on each commit: the next change is the app's unless it says otherwise.
            pending.changeCause = ZWP_TEXT_INPUT_V3_CHANGE_CAUSE_INPUT_METHOD.rawValue
            textInputs.committed(self)
        }
    }

    override func destroyed() { textInputs.destroyed(self) }

    // MARK: Events

    /// v3 text inputs follow the keyboard: they enter whatever surface of their client has it.
    func keyboardFocusChanged(to surface: WlSurface?) {
        if let old = focus, old !== surface { leave(old) }
        if let surface, client == surface.client { enter(surface) }
    }

    func enter(_ surface: WlSurface) {
        guard focus !== surface else { return }
        if let old = focus { leave(old) }
        focus = surface
        send(surface) { zwp_text_input_v3_send_enter($0, $1) }
    }

    /// Leaves the focused surface; the app disables itself (the protocol asks it to), and
    /// until it enables again nothing it commits reaches the input method.
    func leave(_ surface: WlSurface) {
        guard focus === surface else { return }
        focus = nil
        send(surface) { zwp_text_input_v3_send_leave($0, $1) }
    }

    /// The focused surface is being destroyed: the client knows; no leave names it.
    func forgetFocus() { focus = nil }

    /// One input-method commit, in the protocol's order, ended by `done` with this text
    /// input's commit count. A preedit not sent is an empty one. Its cursor is kept within
    /// its text (both -1 hide it): an app such as GTK reads the text at those offsets.
    func apply(preedit: (text: String, begin: Int32, end: Int32)?, commit: String?, delete: (before: UInt32, after: UInt32)) {
        if let preedit {
            let length = Int32(preedit.text.utf8.count)
            let hidden = preedit.begin == -1 && preedit.end == -1
            let (begin, end) = hidden ? (-1, -1) : (min(max(preedit.begin, 0), length), min(max(preedit.end, 0), length))
            send { zwp_text_input_v3_send_preedit_string($0, preedit.text, begin, end) }
        }
        if delete.before > 0 || delete.after > 0 { send { zwp_text_input_v3_send_delete_surrounding_text($0, delete.before, delete.after) } }
        if let commit { send { zwp_text_input_v3_send_commit_string($0, commit) } }
        send { zwp_text_input_v3_send_done($0, serial) }
    }
}
