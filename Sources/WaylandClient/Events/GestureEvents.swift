/// `zwp_pointer_gesture_swipe_v1`, `_pinch_v1` and `_hold_v1` events (pointer-gestures-unstable-v1).
/// The three share begin (opcode 0) and end (opcode 2 for swipe and pinch, 1 for hold);
/// decode with the initializer for the object's kind.
public enum PointerGestureEvent {
    case begin(serial: UInt32, time: UInt32, surface: OpaquePointer?, fingers: UInt32)
    /// Swipe: dx, dy. Pinch: dx, dy, scale (relative to the start) and rotation (degrees since the last update).
    case update(time: UInt32, dx: Double, dy: Double, scale: Double, rotation: Double)
    case end(serial: UInt32, time: UInt32, cancelled: Bool)

    public enum Kind { case swipe, pinch, hold }

    public init?(kind: Kind, opcode: UInt32, arguments a: EventArguments) {
        switch (kind, opcode) {
        case (_, 0): self = .begin(serial: a.uint(0), time: a.uint(1), surface: a.object(2), fingers: a.uint(3))
        case (.swipe, 1): self = .update(time: a.uint(0), dx: a.fixed(1), dy: a.fixed(2), scale: 1, rotation: 0)
        case (.pinch, 1): self = .update(time: a.uint(0), dx: a.fixed(1), dy: a.fixed(2), scale: a.fixed(3), rotation: a.fixed(4))
        case (.swipe, 2), (.pinch, 2), (.hold, 1): self = .end(serial: a.uint(0), time: a.uint(1), cancelled: a.int(2) != 0)
        default: return nil
        }
    }
}
