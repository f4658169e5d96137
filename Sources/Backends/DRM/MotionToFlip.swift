/// Motion → page flip on a TTY (`--stats`): from the kernel's timestamp of a pointer motion
/// (libinput's `libinput_event_pointer_get_time_usec`, CLOCK_MONOTONIC) to the page flip that
/// shows the frame composed after it (the flip event's time, the same clock). A motion the
/// cursor plane shows moves no frame: it is counted apart, since no flip carries it (the
/// plane moves at the next vblank).
///
/// Pure: fed by `DRMBackend` with times in microseconds, tested without devices.
public struct MotionToFlip: Sendable {
    /// The oldest motion not yet in a composed frame (what the hand has waited longest for).
    private var pending: UInt64?
    /// The oldest motion in the frame whose flip is queued.
    private var inFlight: UInt64?
    /// Microseconds from motion to flip, in order.
    public private(set) var samples: [UInt64] = []
    /// Motions shown by the cursor plane, with no frame.
    public private(set) var onPlane = 0

    public init() {}

    /// A pointer motion at `time` (µs) reached the seat.
    public mutating func motion(at time: UInt64) {
        if pending == nil { pending = time }
    }

    /// The cursor plane moved the pointer there without a frame: those motions are shown.
    public mutating func shownOnPlane() {
        if pending != nil { onPlane += 1 }
        pending = nil
    }

    /// A composed frame was queued for a flip: it carries the motions since the last one.
    public mutating func frameQueued() {
        if let pending, inFlight == nil { inFlight = pending }
        pending = nil
    }

    /// The queued frame was flipped at `time` (µs).
    public mutating func flipped(at time: UInt64) {
        if let inFlight, time >= inFlight, samples.count < Self.maximumSamples { samples.append(time - inFlight) }
        inFlight = nil
    }

    static let maximumSamples = 1 << 20

    /// "motion → page flip: p50 … ms, p99 … ms, max … ms over N frames; M motions on the cursor plane".
    public var summary: String {
        let sorted = samples.sorted()
        func ms(_ p: Int) -> String {
            let micros = sorted[min(sorted.count - 1, sorted.count * p / 100)]
            return "\(Double(micros / 10) / 100) ms"
        }
        let frames = sorted.isEmpty ? "no frame carried a motion" : "p50 \(ms(50)), p99 \(ms(99)), max \(ms(100)) over \(sorted.count) frames"
        return "motion → page flip: \(frames); \(onPlane) motions shown on the cursor plane without a frame"
    }
}
