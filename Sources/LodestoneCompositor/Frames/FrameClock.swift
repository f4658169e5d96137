import Glibc
import LodestoneSystem
import WaylandServer

/// When frames happen: at the output's refresh rate on the real clock, or
/// only when a test advances the manual clock.
public final class FrameClock: LoopDeadline {
    public enum Mode: Sendable { case realtime, manual }

    public let mode: Mode
    /// Milliseconds per frame (the fastest head's, with several: `retune`).
    public private(set) var interval: UInt32
    private var timer: EventSource?
    private var manualNow: UInt32 = 0
    private let start: UInt64
    private(set) var scheduled = false
    var onFrame: () -> Void = {}
    /// Manual clock: called after `advance` moved time on (idle timeouts fall due).
    var advanced: () -> Void = {}
    /// Set by a backend whose display paces frames (the nested backend, until
    /// the parent's frame callback arrives): due frames wait for `resume()`.
    public private(set) var isHeld = false
    /// When a frame starts before its refresh (`--max-render-time`), and what frames took.
    public private(set) var scheduler: FrameScheduler
    /// The refresh the frame the timer is armed for is meant for (.infinity: none, as a
    /// frame released by `resume()`, which runs at once).
    private var refresh = Double.infinity
    /// Set when the display's run loop waits for the frames itself (`Display.run(until:)`,
    /// as `lodestone` runs): a due frame is then a deadline on the loop's own wait
    /// (monotonic microseconds), and scheduling one costs no timerfd syscall.
    public var drivenByLoop = false
    private var deadline: UInt64?

    init(mode: Mode, refreshHz: Int32, maxRenderTime: MaxRenderTime = .off, loop: EventLoop) throws(SystemError) {
        self.mode = mode
        interval = UInt32(max(1, 1000 / max(refreshHz, 1)))
        scheduler = FrameScheduler(mode: maxRenderTime, interval: Double(interval))
        start = Self.monotonicMilliseconds()
        if mode == .realtime {
            timer = try loop.addTimer { [unowned self] in self.fire() }
        }
    }

    /// A new refresh rate (a head of another rate came or went): the ticks follow it, and
    /// the scheduler starts again from it (what frames took is kept out: a new rhythm).
    func retune(refreshHz: Int32) {
        let new = UInt32(max(1, 1000 / max(refreshHz, 1)))
        guard new != interval else { return }
        interval = new
        scheduler = FrameScheduler(mode: scheduler.mode, interval: Double(new))
    }

    /// Milliseconds since the compositor started (or manual time).
    public var now: Milliseconds {
        mode == .manual ? manualNow : UInt32(truncatingIfNeeded: Self.monotonicMilliseconds() - start)
    }

    /// The current instant as a timestamp clients can compare: CLOCK_MONOTONIC on the
    /// real clock, the manual clock's milliseconds (from zero) on the manual one.
    /// Presentation feedback and screencopy's `ready` carry it.
    public var timestamp: Timestamp {
        guard mode == .realtime else { return Timestamp(milliseconds: manualNow) }
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Timestamp(seconds: UInt64(ts.tv_sec), nanoseconds: UInt32(ts.tv_nsec))
    }

    /// The refresh the last frame was composed for, until its presentation says when it
    /// was shown (nil: none awaited).
    private var awaitedRefresh: Double?

    /// Asks for a frame at the next refresh; repeated calls before it are free.
    func schedule() {
        guard !scheduled else { return }
        scheduled = true
        if mode == .realtime && !isHeld { arm() }
    }

    /// A frame as soon as the loop comes round, or as soon as the presenter can take one:
    /// for updates that need nothing composed (a client's frame on a backend's plane), whose
    /// frame only hands them on. Waiting for a refresh of Lodestone's own would only add its
    /// phase to the parent's (a client on a plane drew at half the parent's rate when the two
    /// fell just apart); the presenter still takes one frame per refresh of its display.
    func scheduleSoon() {
        guard mode == .realtime else { return schedule() }
        scheduled = true
        soon = true
        guard !isHeld else { return }
        refresh = .infinity
        if drivenByLoop {
            deadline = Self.monotonicMicroseconds()
        } else {
            timer?.arm(milliseconds: 1)
        }
    }

    /// The scheduled frame is to run as soon as it can (`scheduleSoon`).
    private var soon = false

    /// The scheduled frame's timer (or the loop's deadline) at its start: its refresh less
    /// the scheduler's lead.
    private func arm() {
        // With `off` the refresh itself (interval - now % interval), as before.
        let t = Double(now)
        let frame = scheduler.frame(after: t)
        refresh = frame.refresh
        let delay = Int32(max(1, (frame.start - t).rounded(.up)))
        if drivenByLoop {
            deadline = Self.monotonicMicroseconds() + UInt64(delay) * 1000
        } else {
            timer?.arm(milliseconds: delay)
        }
    }

    /// Frames wait until `resume()`: the presenter cannot take one yet.
    public func hold() { isHeld = true }

    /// The presenter can take a frame again (the parent's frame callback, a page flip).
    /// With `--max-render-time off` a frame already due runs now, so frames follow the
    /// parent's pace rather than the timer's; otherwise it is armed for its start (the refresh
    /// predicted from the last presentation, less the lead), so input that comes meanwhile
    /// makes it in. Either way no frame runs while held.
    public func resume() {
        guard isHeld else { return }
        isHeld = false
        guard scheduled else { return }
        if scheduler.mode == .off || mode == .manual || soon { fire() } else { arm() }
    }

    /// A frame was presented at `time` (CLOCK_MONOTONIC: a page flip, the parent's
    /// `wp_presentation` feedback): the scheduler's refreshes follow it, and a frame shown a
    /// refresh after the one it was composed for grows the margin. A time not within the
    /// last second (another clock, a manual-clock parent's) is left out.
    public func presented(at time: Timestamp) {
        guard mode == .realtime else { return }
        let ms = Double(time.seconds) * 1000 + Double(time.nanoseconds) / 1_000_000 - Double(start)
        let t = Double(now)
        guard ms <= t + 1, ms > t - 1000 else { return }
        if let target = awaitedRefresh, ms > target + Double(interval) / 2 { scheduler.missedRefresh() }
        awaitedRefresh = nil
        scheduler.presented(at: ms)
    }

    /// `LoopDeadline`: nothing while held or when no frame is scheduled.
    public var millisecondsUntilDue: Int32 {
        guard scheduled, !isHeld, let deadline else { return -1 }
        let now = Self.monotonicMicroseconds()
        return now >= deadline ? 0 : Int32(clamping: (deadline - now + 999) / 1000)
    }

    public func fireIfDue() {
        if let deadline, Self.monotonicMicroseconds() >= deadline { fire() }
    }

    private func fire() {
        guard scheduled, !isHeld else { return }
        scheduled = false
        soon = false
        deadline = nil
        guard mode == .realtime else { return onFrame() }
        let begun = Self.monotonicMicroseconds()
        let target = refresh
        refresh = .infinity
        if target.isFinite { awaitedRefresh = target }
        onFrame()
        // What the frame took, and whether it was done by its refresh (a miss grows the margin).
        let end = Self.monotonicMicroseconds()
        scheduler.composed(duration: Double(end - begun) / 1000, finished: Double(end - start * 1000) / 1000, refresh: target)
    }

    /// Manual clock: moves time forward, running each frame that falls due
    /// (at most one per refresh interval). Returns the number of frames run.
    /// Once no frame is scheduled the rest passes at once, and at most
    /// `maximumFramesPerAdvance` run: the test protocol's advance_clock takes any
    /// UInt32, and 2^32 ms of 60 Hz frames would hold the loop for hours.
    @discardableResult
    public func advance(by milliseconds: UInt32) -> Int {
        precondition(mode == .manual)
        var frames = 0
        var remaining = milliseconds
        repeat {
            guard scheduled, frames < Self.maximumFramesPerAdvance else {
                manualNow &+= remaining
                break
            }
            let step = min(remaining, interval)
            manualNow &+= step
            remaining -= step
            fire()
            frames += 1
        } while remaining > 0
        advanced()
        return frames
    }

    /// 100 s of frames at 60 Hz.
    public static let maximumFramesPerAdvance = 6000

    private static func monotonicMicroseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000 + UInt64(ts.tv_nsec) / 1000
    }

    private static func monotonicMilliseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1000 + UInt64(ts.tv_nsec) / 1_000_000
    }
}

/// An instant as Wayland's timestamp triples carry it (tv_sec_hi, tv_sec_lo, tv_nsec).
public struct Timestamp: Equatable, Sendable {
    public var seconds: UInt64
    public var nanoseconds: UInt32

    public init(seconds: UInt64, nanoseconds: UInt32) { self.seconds = seconds; self.nanoseconds = nanoseconds }
    init(milliseconds: UInt32) { self.init(seconds: UInt64(milliseconds / 1000), nanoseconds: milliseconds % 1000 * 1_000_000) }

    var secondsHigh: UInt32 { UInt32(truncatingIfNeeded: seconds >> 32) }
    var secondsLow: UInt32 { UInt32(truncatingIfNeeded: seconds) }
}
