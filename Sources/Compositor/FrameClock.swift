import Glibc
import WaylandServer

/// When frames happen: at the output's refresh rate on the real clock, or
/// only when a test advances the manual clock.
public final class FrameClock {
    public enum Mode: Sendable { case realtime, manual }

    public let mode: Mode
    /// Milliseconds per frame.
    public let interval: UInt32
    private var timer: EventSource?
    private var manualNow: UInt32 = 0
    private let start: UInt64
    private(set) var scheduled = false
    var onFrame: () -> Void = {}

    init(mode: Mode, refreshHz: Int32, loop: EventLoop) {
        self.mode = mode
        interval = UInt32(max(1, 1000 / max(refreshHz, 1)))
        start = Self.monotonicMilliseconds()
        if mode == .realtime {
            timer = loop.addTimer { [unowned self] in self.fire() }
        }
    }

    /// Milliseconds since the compositor started (or manual time).
    public var now: Milliseconds {
        mode == .manual ? manualNow : UInt32(truncatingIfNeeded: Self.monotonicMilliseconds() - start)
    }

    /// Asks for a frame at the next refresh; repeated calls before it are free.
    func schedule() {
        guard !scheduled else { return }
        scheduled = true
        if mode == .realtime {
            let next = interval - now % interval
            timer?.arm(milliseconds: Int32(max(1, next)))
        }
    }

    private func fire() {
        guard scheduled else { return }
        scheduled = false
        onFrame()
    }

    /// Manual clock: moves time forward, running each frame that falls due
    /// (at most one per refresh interval). Returns the number of frames run.
    @discardableResult
    func advance(by milliseconds: UInt32) -> Int {
        precondition(mode == .manual)
        var frames = 0
        var remaining = milliseconds
        repeat {
            let step = min(remaining, interval)
            manualNow &+= step
            remaining -= step
            if scheduled { fire(); frames += 1 }
        } while remaining > 0
        return frames
    }

    private static func monotonicMilliseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1000 + UInt64(ts.tv_nsec) / 1_000_000
    }
}
