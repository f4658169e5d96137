@testable import LodestoneCompositor
import Glibc
import WaylandServer
import XCTest

/// When frames start, on the manual clock's milliseconds with a fake compose time: as late as
/// the predicted compose time allows, a late frame grows the margin, `off` is the refresh.
final class FrameSchedulerTests: XCTestCase {
    func testTheFrameStartsAtItsRefreshLessThePredictedComposeTime() {
        var s = FrameScheduler(mode: .auto, interval: 16)
        s.presented(at: 1000)
        // Frames that take 3 ms (one outlier at 9 is above the 95th percentile of 64).
        for k in 0..<64 { s.composed(duration: k == 10 ? 9 : 3, finished: 0, refresh: 1) }
        XCTAssertEqual(s.lead, 3 + FrameScheduler.baseMargin, accuracy: 0.05)
        let f = s.frame(after: 1001)
        XCTAssertEqual(f.refresh, 1016)
        XCTAssertEqual(f.start, 1016 - s.lead, accuracy: 0.001)
        // Too late for that refresh's start: the next one.
        let late = s.frame(after: 1013)
        XCTAssertEqual(late.refresh, 1032)
        XCTAssertEqual(late.start, 1032 - s.lead, accuracy: 0.001)
    }

    /// Seen on the VM's TTY: frames of 7 ms at 13 ms refreshes with misses grew the lead to
    /// the whole refresh, its start had always passed, and every frame waited one refresh
    /// more than with `off` (motion → flip p50 20.6 ms against 9.3).
    func testALeadOfAWholeRefreshComposesAtOnceForTheFirstRefreshItCanMake() {
        var s = FrameScheduler(mode: .auto, interval: 13)
        s.presented(at: 1000)
        for _ in 0..<64 { s.composed(duration: 7, finished: 2, refresh: 1) }   // each late
        XCTAssertEqual(s.lead, 13, "capped at the refresh")
        let f = s.frame(after: 1000.5)
        XCTAssertEqual(f.refresh, 1013, "the next refresh, not the one after")
        XCTAssertEqual(f.start, 1000.5, "at once")
        // Too little time left for even the predicted 7 ms: the refresh after, still at once
        // (waiting for 1013 would take in no more input than `off`, which composes at the
        // flip: the CI's VM saw p50 24.1 ms against off's 11.8 when auto waited).
        let late = s.frame(after: 1008)
        XCTAssertEqual(late.refresh, 1026)
        XCTAssertEqual(late.start, 1008)
        // Frames slower than a refresh: at once, for the first refresh they can make.
        for _ in 0..<64 { s.composed(duration: 20, finished: 2, refresh: 1) }
        let slow = s.frame(after: 1001)
        XCTAssertEqual(slow.start, 1001)
        XCTAssertEqual(slow.refresh, 1026)
    }

    func testAMissedRefreshGrowsTheMarginAndOnTimeFramesShrinkItBack() {
        var s = FrameScheduler(mode: .auto, interval: 16)
        s.composed(duration: 3, finished: 1012, refresh: 1016)
        XCTAssertEqual(s.margin, FrameScheduler.baseMargin)
        s.composed(duration: 5, finished: 1017, refresh: 1016)
        XCTAssertEqual(s.margin, 2 * FrameScheduler.baseMargin, "a late frame doubles the margin")
        s.composed(duration: 5, finished: 1040, refresh: 1032)
        XCTAssertEqual(s.margin, 4 * FrameScheduler.baseMargin)
        for _ in 0..<1000 { s.composed(duration: 3, finished: 0, refresh: 1) }
        XCTAssertEqual(s.margin, FrameScheduler.baseMargin, "on time again: back to the base margin")
        for _ in 0..<20 { s.composed(duration: 3, finished: 2, refresh: 1) }
        XCTAssertEqual(s.margin, 8, "at most half a refresh")
    }

    func testOffComposesAtTheRefreshAsBeforeAndMillisecondsAreFixed() {
        var off = FrameScheduler(mode: .off, interval: 16)
        off.composed(duration: 12, finished: 0, refresh: 1)
        XCTAssertEqual(off.lead, 0)
        for now in [0.0, 1, 15, 16, 17, 100] {
            let f = off.frame(after: now)
            // Today's FrameClock: the timer fires `interval - now % interval` from now.
            XCTAssertEqual(f.start, now + 16 - now.truncatingRemainder(dividingBy: 16), "at \(now)")
            XCTAssertEqual(f.start, f.refresh)
        }
        let fixed = FrameScheduler(mode: .milliseconds(5), interval: 16)
        XCTAssertEqual(fixed.frame(after: 2).start, 11)
        XCTAssertEqual(FrameScheduler(mode: .milliseconds(40), interval: 16).lead, 16, "never more than a refresh")
    }

    func testAFrameShownARefreshLateGrowsTheMargin() {
        var s = FrameScheduler(mode: .auto, interval: 16)
        s.missedRefresh()
        XCTAssertEqual(s.margin, 2 * FrameScheduler.baseMargin)
        for _ in 0..<10 { s.missedRefresh() }
        XCTAssertEqual(s.margin, 8, "at most half a refresh")
    }

    // MARK: The frame clock on the real clock, driven by the loop (no time passes in these)

    private final class Count { var frames = 0 }

    /// A realtime clock whose frames `Display.run(until:)` would run, counting them, handed to
    /// `body` on a display that outlives it: the clock's timer must leave the loop before
    /// `wl_display_destroy` frees the loop (else the timer's source leaks).
    private func withLoopDrivenClock(_ mode: MaxRenderTime, count: Count, _ body: (FrameClock) throws -> Void) throws {
        let display = try Display()
        try withExtendedLifetime(display) {
            var clock: FrameClock? = try FrameClock(mode: .realtime, refreshHz: 60, maxRenderTime: mode, loop: display.eventLoop)
            clock?.drivenByLoop = true
            clock?.onFrame = { count.frames += 1 }
            try body(clock!)
            clock = nil
        }
    }

    func testOffRunsTheHeldFrameAtTheCallbackAndAutoArmsItForItsStart() throws {
        let count = Count()
        try withLoopDrivenClock(.off, count: count) { off in
            off.hold()
            off.schedule()
            XCTAssertEqual(off.millisecondsUntilDue, -1, "held: the loop waits for nothing")
            off.resume()
            XCTAssertEqual(count.frames, 1, "off: the parent's callback runs the due frame at once, as before")
        }

        count.frames = 0
        try withLoopDrivenClock(.auto, count: count) { auto in
            auto.hold()
            auto.schedule()
            auto.resume()
            XCTAssertEqual(count.frames, 0, "auto: the callback only arms the frame's deadline")
            let wait = auto.millisecondsUntilDue
            XCTAssertTrue((1...16).contains(wait), "the frame starts before the next refresh, not \(wait) ms from now")
            auto.hold()
            XCTAssertEqual(auto.millisecondsUntilDue, -1, "held again (a capture's commit): no frame until the next callback")
        }
    }

    func testPresentationTimesSetTheRefreshesAndForeignClocksAreLeftOut() throws {
        try withLoopDrivenClock(.milliseconds(4), count: Count()) { clock in
            // A presentation 3 ms ago (on CLOCK_MONOTONIC): the next refresh is 13.x ms from
            // now (the clock's interval is 16 ms at 60 Hz), and the frame starts 4 ms before it.
            var ts = timespec()
            clock_gettime(CLOCK_MONOTONIC, &ts)
            let nanoseconds = UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec) - 3_000_000
            clock.presented(at: Timestamp(seconds: nanoseconds / 1_000_000_000, nanoseconds: UInt32(nanoseconds % 1_000_000_000)))
            let grid = clock.scheduler.presented
            XCTAssertEqual(grid, Double(clock.now) - 3, accuracy: 1.5)
            clock.schedule()
            XCTAssertTrue((8...11).contains(clock.millisecondsUntilDue), "\(clock.millisecondsUntilDue) ms to the start")
            // A manual-clock parent's times (milliseconds from zero) are of another clock.
            clock.presented(at: Timestamp(seconds: 0, nanoseconds: 16_000_000))
            XCTAssertEqual(clock.scheduler.presented, grid)
        }
    }

    func testTheArgument() {
        XCTAssertEqual(MaxRenderTime(argument: "auto"), .auto)
        XCTAssertEqual(MaxRenderTime(argument: "off"), .off)
        XCTAssertEqual(MaxRenderTime(argument: "4.5"), .milliseconds(4.5))
        XCTAssertNil(MaxRenderTime(argument: "0"))
        XCTAssertNil(MaxRenderTime(argument: "-3"))
        XCTAssertNil(MaxRenderTime(argument: "nan"))
        XCTAssertNil(MaxRenderTime(argument: "soon"))
    }
}
