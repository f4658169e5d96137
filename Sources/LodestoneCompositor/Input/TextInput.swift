import CWaylandServer
import Rendering
import WaylandServer

/// What an app described of its text field, in zwp_text_input_v3's terms (`set_*`), pending
/// or applied by its commit. The v1 front translates into them.
struct TextInputState {
    var enabled = false
    /// `set_surrounding_text`: the text around the cursor, and the cursor and anchor in bytes.
    var surrounding: (text: String, cursor: Int32, anchor: Int32)?
    /// `set_text_change_cause`: 0 input_method, 1 other.
    var changeCause = ZWP_TEXT_INPUT_V3_CHANGE_CAUSE_INPUT_METHOD.rawValue
    /// `set_content_type`, v3's values.
    var hint: UInt32 = 0, purpose: UInt32 = 0
    /// `set_cursor_rectangle`, surface-local.
    var cursor: PixelRect?
}

/// An app's text field as `TextInputs` serves it, whichever protocol the app speaks:
/// zwp_text_input_v3 (`ZwpTextInput`) or v1, Qt 6.4's (`ZwpTextInputV1`).
protocol AppTextInput: AnyObject {
    var client: Client { get }
    /// The surface it was told it entered.
    var focus: WlSurface? { get }
    /// What it applied last; `enabled` when it may be served on `focus`.
    var current: TextInputState { get }
    /// The seat's keyboard moved: enter and leave as its protocol says.
    func keyboardFocusChanged(to surface: WlSurface?)
    /// The focused surface is being destroyed: the client knows; no leave names it.
    func forgetFocus()
    /// One input-method edit: a preedit (nil: none) with its cursor, a deletion around the
    /// cursor, a commit string, in its protocol's events.
    func apply(preedit: (text: String, begin: Int32, end: Int32)?, commit: String?, delete: (before: UInt32, after: UInt32))
}

/// The seat's text inputs (zwp_text_input_v3, `ZwpTextInputManager.swift`; v1,
/// `ZwpTextInputManagerV1.swift`) and the one input method serving them (zwp_input_method_v2,
/// `ZwpInputMethodManager.swift`).
///
/// A client's text inputs enter the surface with the keyboard and leave it with the focus
/// (v1's only the surface they were activated on).
/// The *active* text input is the first one enabled on the focused surface: the input method
/// is activated for it, hears what it describes at each commit (surrounding text, change
/// cause, content type; then `done`), and its commits (preedit, commit string, delete) reach
/// only it. While active, the input method's keyboard grab hears the seat's keys before the
/// app (`keyGrabbed`). Its popup surface is placed at the active text input's cursor
/// rectangle (`InputMethodPopup.swift`).
final class TextInputs {
    let display: Display
    let scene: Scene
    let layout: OutputLayout
    /// The seat's keyboard focus: the grab's keys and modifiers go through it.
    let keyboard: KeyboardFocus
    let clock: FrameClock
    private var inputs: [any AppTextInput] = []
    /// The surface with the keyboard, as the text inputs were told.
    private(set) weak var focus: WlSurface?
    /// The seat's input method; a second one is told `unavailable` (`ZwpInputMethod.isInert`).
    private(set) weak var inputMethod: ZwpInputMethod?
    /// The text input the input method serves.
    private(set) weak var active: (any AppTextInput)?
    /// Keys pressed into the grab: their release goes there too, whatever is active then.
    private var grabbedKeys: [UInt32] = []
    /// Where the popup is drawn now (`placePopup`), read by the scene each frame.
    var popupPlacement: PopupPlacement?
    /// An input method outside Lodestone (`TextInputBridge.swift`): what it was last told to
    /// serve, and whether it left a preedit in the app.
    var outsideServes: ((TextInputDescription?) -> Void)? {
        didSet { toldOutside = nil; updateOutside() }
    }
    var toldOutside: TextInputDescription?
    var outsidePreedit = false

    init(display: Display, scene: Scene, layout: OutputLayout, keyboard: KeyboardFocus, clock: FrameClock) {
        self.display = display
        self.scene = scene
        self.layout = layout
        self.keyboard = keyboard
        self.clock = clock
        scene.inputPopup = { [unowned self] in
            guard let p = self.popupPlacement, let surface = p.surface else { return nil }
            return (surface, p.rect.x, p.rect.y)
        }
    }

    // MARK: Text inputs

    func created(_ input: any AppTextInput) {
        inputs.append(input)
        input.keyboardFocusChanged(to: focus)
    }

    func destroyed(_ input: any AppTextInput) {
        inputs.removeAll { $0 === input }
        if active === input || active == nil { updateActive() }
    }

    /// The keyboard moved (`Seat.setKeyboardFocus`): text inputs leave the old surface and
    /// enter the new one; the input method follows.
    func keyboardFocusChanged(to surface: WlSurface?) {
        focus = surface
        // A destroyed surface is left without an event (its weak reference is gone).
        for input in inputs { input.keyboardFocusChanged(to: surface) }
        updateActive()
    }

    /// The surface with the keyboard is being destroyed: no leave names it.
    func focusedSurfaceDestroyed() {
        focus = nil
        for input in inputs { input.forgetFocus() }
        updateActive()
    }

    /// A text input applied new state: the active one's reaches the input method; enabling
    /// or disabling (v1: activating, deactivating) may change which one is active.
    func committed(_ input: any AppTextInput) {
        guard input === active, input.current.enabled else { return updateActive() }
        if let inputMethod {
            inputMethod.describe(input.current)
            inputMethod.done()
        }
        placePopup()
        updateOutside()
    }

    private func updateActive() {
        let next = inputs.first { $0.focus != nil && $0.focus === focus && $0.current.enabled }
        guard next !== active else { return }
        if active != nil, let inputMethod {
            inputMethod.deactivate()
            inputMethod.done()
        }
        active = next
        outsidePreedit = false
        if let next, let inputMethod { activate(inputMethod, for: next) }
        placePopup()
        updateOutside()
    }

    private func activate(_ inputMethod: ZwpInputMethod, for input: any AppTextInput) {
        inputMethod.activate()
        inputMethod.describe(input.current)
        inputMethod.done()
    }

    // MARK: The input method

    /// A new input method: the seat's if it has none (it is activated at once when a text
    /// input is active), else false: the caller makes it inert.
    func inputMethodCreated(_ inputMethod: ZwpInputMethod) -> Bool {
        guard self.inputMethod == nil else { return false }
        self.inputMethod = inputMethod
        // It takes precedence over an outside input method.
        clearOutsidePreedit()
        updateOutside()
        if let active { activate(inputMethod, for: active) }
        return true
    }

    /// The input method went: a preedit it left in the app is cleared (a `done` with none).
    func inputMethodDestroyed(_ inputMethod: ZwpInputMethod) {
        guard self.inputMethod === inputMethod else { return }
        self.inputMethod = nil
        grabbedKeys.removeAll()
        active?.apply(preedit: nil, commit: nil, delete: (0, 0))
        placePopup()
        updateOutside()
    }

    /// `zwp_input_method_v2.commit` with the right serial: the active text input gets it.
    func inputMethodCommitted(_ inputMethod: ZwpInputMethod, preedit: (text: String, begin: Int32, end: Int32)?, commit: String?, delete: (before: UInt32, after: UInt32)) {
        guard inputMethod === self.inputMethod, let active else { return }
        active.apply(preedit: preedit, commit: commit, delete: delete)
    }

    // MARK: Keyboard grab

    /// A seat key (after Lodestone's shortcuts): true when the input method's grab took it.
    /// Keys go to the grab while a text input is active; a key pressed into the grab is
    /// released there. The input method passes back what it does not use through its
    /// virtual keyboard (fcitx5 does), which reaches the app directly.
    func keyGrabbed(_ key: UInt32, pressed: Bool, time: UInt32, modifiers: Keymap.Modifiers) -> Bool {
        guard let grab = inputMethod?.grab else { return false }
        if pressed {
            guard active != nil else { return false }
            if !grabbedKeys.contains(key) { grabbedKeys.append(key) }
        } else {
            guard grabbedKeys.contains(key) else { return false }
            grabbedKeys.removeAll { $0 == key }
        }
        let serial = display.nextSerial()
        grab.key(serial: serial, time: time, key: key, pressed: pressed)
        if modifiers != keyboard.modifiers {
            keyboard.grabbed(modifiers: modifiers)
            grab.modifiers(serial: serial, modifiers)
        }
        return true
    }
}
