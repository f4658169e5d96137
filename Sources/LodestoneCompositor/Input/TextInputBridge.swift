import Rendering

/// The active text input as an input method outside Lodestone hears it: the nested backend's
/// parent session, whose own `zwp_text_input_v3` Lodestone is (`ParentTextInput`). The state
/// an app committed on its `zwp_text_input_v3`, with the cursor rectangle in global
/// coordinates.
public struct TextInputDescription: Equatable {
    /// `set_surrounding_text`: the text around the cursor, and the cursor and anchor in bytes.
    public struct Surrounding: Equatable {
        public var text: String
        public var cursor: Int32, anchor: Int32
    }
    /// Which text input this is: another one is another field to the input method.
    public let field: ObjectIdentifier
    public var surrounding: Surrounding?
    /// `set_text_change_cause`, `set_content_type`.
    public var changeCause: UInt32
    public var hint: UInt32, purpose: UInt32
    /// `set_cursor_rectangle`, moved by the surface's origin: global, logical.
    public var cursor: PixelRect?
}

/// An outside input method's answer for one field, as its `done` ends it: a preedit (nil or
/// empty: none) with its cursor, a deletion around the cursor, then a commit string.
public struct TextInputEdit {
    public var preedit: (text: String, begin: Int32, end: Int32)?
    public var delete: (before: UInt32, after: UInt32)
    public var commit: String?

    public init(preedit: (text: String, begin: Int32, end: Int32)? = nil, delete: (before: UInt32, after: UInt32) = (0, 0), commit: String? = nil) {
        self.preedit = preedit
        self.delete = delete
        self.commit = commit
    }
}

/// The seat's text inputs as a bridge to an outside input method sees them. An input method
/// inside Lodestone (`zwp_input_method_v2`) takes precedence: while it runs, the outside
/// one is told there is nothing to serve, and its edits are dropped.
public protocol BridgedTextInput: AnyObject {
    /// Told the active text input's description whenever it changes, or nil when there is
    /// none to serve (no text input enabled on the focused surface, or a local input method).
    var outsideServes: ((TextInputDescription?) -> Void)? { get set }
    /// The outside input method's edit for `field`; dropped when that is not the active field.
    func applyOutside(_ edit: TextInputEdit, to field: ObjectIdentifier)
}

extension TextInputs: BridgedTextInput {
    /// What the outside input method should serve now.
    private var outsideDescription: TextInputDescription? {
        guard inputMethod == nil, let active, let target = active.focus, let (ox, oy) = scene.origin(of: target) else { return nil }
        let s = active.current
        return TextInputDescription(field: ObjectIdentifier(active),
                                    surrounding: s.surrounding.map { .init(text: $0.text, cursor: $0.cursor, anchor: $0.anchor) },
                                    changeCause: s.changeCause, hint: s.hint, purpose: s.purpose,
                                    cursor: s.cursor?.offsetBy(dx: ox, dy: oy))
    }

    /// Tells the outside input method what to serve, when that changed: after a commit, a
    /// change of the active text input or of the input method, and a layout change (the
    /// app's window moved, so its caret did).
    func updateOutside() {
        let description = outsideDescription
        guard description != toldOutside else { return }
        toldOutside = description
        outsideServes?(description)
    }

    func applyOutside(_ edit: TextInputEdit, to field: ObjectIdentifier) {
        guard inputMethod == nil, let active, ObjectIdentifier(active) == field else { return }
        // Text over the protocol's limit is dropped, as a local input method's is: the app
        // could not be sent it (the parent's strings are not ours to trust).
        let limit = ZwpInputMethod.textLimit
        let preedit = edit.preedit.flatMap { $0.text.utf8.count <= limit ? $0 : nil }
        let commit = edit.commit.flatMap { $0.utf8.count <= limit ? $0 : nil }
        outsidePreedit = preedit.map { !$0.text.isEmpty } ?? false
        active.apply(preedit: preedit, commit: commit, delete: edit.delete)
    }

    /// A local input method came: a preedit the outside one left in the app goes first.
    func clearOutsidePreedit() {
        guard outsidePreedit else { return }
        outsidePreedit = false
        active?.apply(preedit: nil, commit: nil, delete: (0, 0))
    }
}
