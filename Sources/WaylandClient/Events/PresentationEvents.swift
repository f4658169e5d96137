/// `wp_presentation_feedback` events: when a commit was shown, or that it never was.
/// Either `presented` or `discarded` ends the feedback (the server destroys it).
public enum PresentationFeedbackEvent: ProxyEvent {
    /// The commit is on this `wl_output *` (sent before `presented`).
    case syncOutput(output: OpaquePointer?)
    /// Shown at this time (on the clock `wp_presentation.clock_id` named), with the
    /// output's refresh in nanoseconds (0: unknown), its frame counter and the
    /// `WP_PRESENTATION_FEEDBACK_KIND_*` flags.
    case presented(seconds: UInt64, nanoseconds: UInt32, refresh: UInt32, sequence: UInt64, flags: UInt32)
    /// Never shown (replaced before it could be, or its surface was hidden).
    case discarded

    public init?(opcode: UInt32, arguments a: EventArguments) {
        switch opcode {
        case 0: self = .syncOutput(output: a.object(0))
        case 1: self = .presented(seconds: UInt64(a.uint(0)) << 32 | UInt64(a.uint(1)), nanoseconds: a.uint(2), refresh: a.uint(3),
                                  sequence: UInt64(a.uint(4)) << 32 | UInt64(a.uint(5)), flags: a.uint(6))
        case 2: self = .discarded
        default: return nil
        }
    }
}

/// `wp_presentation` events.
public enum PresentationEvent: ProxyEvent {
    /// The clock feedback times are on (`CLOCK_MONOTONIC` is 1).
    case clockID(UInt32)

    public init?(opcode: UInt32, arguments a: EventArguments) {
        guard opcode == 0 else { return nil }
        self = .clockID(a.uint(0))
    }
}
