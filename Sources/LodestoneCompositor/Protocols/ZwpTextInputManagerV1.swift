import CWaylandProtocols
import CWaylandServer
import Rendering
import WaylandServer

/// `zwp_text_input_manager_v1` (text-input-unstable-v1): the text input Qt 6.4's Wayland
/// plugin speaks (it knows v1, KDE's v2 and Qt's own, not v3). A second front of the same
/// `TextInputs` state as v3, so the one input method serves both.
final class ZwpTextInputManagerV1: Resource, ZwpTextInputManagerV1Handler {
    static let version: Int32 = 1
    unowned let textInputs: TextInputs

    init?(textInputs: TextInputs, client: Client, version: UInt32, id: UInt32) {
        self.textInputs = textInputs
        super.init(client: client, version: version, id: id)
    }

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        case .createTextInput:
            guard let input = ZwpTextInputV1(textInputs: textInputs, client: client, version: version, id: a.newID(0)) else { return }
            textInputs.created(input)
        }
    }
}

/// `zwp_text_input_v1`: one app's text field. Unlike v3 it is not tied to the keyboard:
/// `activate` names the surface of the field, and the text input enters that surface while it
/// has the keyboard (it is then enabled) and leaves it when the keyboard goes or at
/// `deactivate`. `set_*` are pending until `commit_state` or `reset`; the serial of the last
/// `commit_state` is the one every event carries back, as the protocol says.
final class ZwpTextInputV1: Resource, ZwpTextInputV1Handler, AppTextInput {
    unowned let textInputs: TextInputs
    /// The surface `activate` named, until `deactivate`.
    private weak var activated: WlSurface?
    private(set) weak var focus: WlSurface?
    private var pending = TextInputState()
    private var applied = TextInputState()
    /// The serial of the last `commit_state`.
    private var serial: UInt32 = 0
    /// A preedit is shown: an edit without one clears it.
    private var showsPreedit = false

    var current: TextInputState {
        var state = applied
        state.enabled = focus != nil
        return state
    }

    init?(textInputs: TextInputs, client: Client, version: UInt32, id: UInt32) {
        self.textInputs = textInputs
        super.init(client: client, version: version, id: id)
    }

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        // The seat arguments name Lodestone's only seat.
        case .activate:
            guard let surface = a.object(1, as: WlSurface.self) else { return }
            activated = surface
            // A new activation is a new field: what was described before goes, as v3's enable.
            pending = TextInputState()
            applied = TextInputState()
            showsPreedit = false
            keyboardFocusChanged(to: textInputs.focus)
            textInputs.committed(self)
        case .deactivate:
            activated = nil
            keyboardFocusChanged(to: textInputs.focus)
            textInputs.committed(self)
        // No on-screen panel, and zwp_input_method_v2 carries no language or action.
        case .showInputPanel, .hideInputPanel, .setPreferredLanguage, .invokeAction: break
        case .setSurroundingText:
            pending.surrounding = (a.string(0) ?? "", Int32(clamping: a.uint(1)), Int32(clamping: a.uint(2)))
        case .setContentType:
            pending.hint = a.uint(0)
            pending.purpose = Self.purposeV3(a.uint(1))
        case .setCursorRectangle:
            pending.cursor = PixelRect(x: a.int(0), y: a.int(1), width: a.int(2), height: a.int(3))
        case .commitState:
            serial = a.uint(0)
            apply(cause: ZWP_TEXT_INPUT_V3_CHANGE_CAUSE_INPUT_METHOD.rawValue)
        // The text changed outside the input method (Qt sends it when it enters a field).
        case .reset: apply(cause: ZWP_TEXT_INPUT_V3_CHANGE_CAUSE_OTHER.rawValue)
        }
    }

    override func destroyed() { textInputs.destroyed(self) }

    private func apply(cause: UInt32) {
        pending.changeCause = cause
        applied = pending
        textInputs.committed(self)
    }

    /// v1's hints are v3's bits (v1's `default` and `password` are combinations of them); its
    /// purposes lack v3's `pin` (9), so `date` to `terminal` are one lower. Values v1 does not
    /// define pass as they are (the protocol has no error for them).
    static func purposeV3(_ purpose: UInt32) -> UInt32 {
        let moved = ZWP_TEXT_INPUT_V1_CONTENT_PURPOSE_DATE.rawValue...ZWP_TEXT_INPUT_V1_CONTENT_PURPOSE_TERMINAL.rawValue
        return moved.contains(purpose) ? purpose + 1 : purpose
    }

    // MARK: Events

    func keyboardFocusChanged(to surface: WlSurface?) {
        let target = surface != nil && surface === activated ? surface : nil
        if focus != nil, focus !== target {
            focus = nil
            showsPreedit = false
            send { zwp_text_input_v1_send_leave($0) }
        }
        if let target, focus !== target {
            focus = target
            send(target) { zwp_text_input_v1_send_enter($0, $1) }
        }
    }

    func forgetFocus() { focus = nil }

    /// v1 has no `done`: a deletion is carried by the commit string after it (empty when the
    /// input method committed none), which also removes the preedit; the new preedit, its
    /// cursor first, comes last. A deletion is v1's cursor-relative index and total length.
    func apply(preedit: (text: String, begin: Int32, end: Int32)?, commit: String?, delete: (before: UInt32, after: UInt32)) {
        let deletes = delete.before > 0 || delete.after > 0
        if deletes {
            let (length, overflow) = delete.before.addingReportingOverflow(delete.after)
            send { zwp_text_input_v1_send_delete_surrounding_text($0, -Int32(clamping: delete.before), overflow ? .max : length) }
        }
        if commit != nil || deletes {
            send { zwp_text_input_v1_send_commit_string($0, serial, commit ?? "") }
            showsPreedit = false
        }
        if let preedit, !preedit.text.isEmpty {
            // One cursor, at the preedit's begin, kept within its text; -1 hides it.
            let length = Int32(preedit.text.utf8.count)
            let cursor = preedit.begin == -1 && preedit.end == -1 ? -1 : min(max(preedit.begin, 0), length)
            send { zwp_text_input_v1_send_preedit_cursor($0, cursor) }
            send { zwp_text_input_v1_send_preedit_string($0, serial, preedit.text, "") }
            showsPreedit = true
        } else if showsPreedit {
            send { zwp_text_input_v1_send_preedit_string($0, serial, "", "") }
            showsPreedit = false
        }
    }
}
