/// `zwp_text_input_v3` events. The preedit, deletion and commit string are pending until
/// `done`, whose serial is the number of commits the compositor had seen.
public enum TextInputEvent: ProxyEvent {
    /// Text-input focus on `surface` (a `wl_surface *`): the client may enable now.
    case enter(surface: OpaquePointer?)
    /// Focus left `surface`: the compositor ignores requests until the next enter.
    case leave(surface: OpaquePointer?)
    /// Text to show at the cursor (empty: none), its cursor from `begin` to `end` in bytes
    /// (both -1: hide the cursor).
    case preeditString(text: String, begin: Int32, end: Int32)
    case commitString(text: String)
    /// Bytes to delete before and after the cursor (or the selection).
    case deleteSurroundingText(before: UInt32, after: UInt32)
    case done(serial: UInt32)

    public init?(opcode: UInt32, arguments a: EventArguments) {
        switch opcode {
        case 0: self = .enter(surface: a.object(0))
        case 1: self = .leave(surface: a.object(0))
        case 2: self = .preeditString(text: a.string(0), begin: a.int(1), end: a.int(2))
        case 3: self = .commitString(text: a.string(0))
        case 4: self = .deleteSurroundingText(before: a.uint(0), after: a.uint(1))
        case 5: self = .done(serial: a.uint(0))
        default: return nil
        }
    }
}
