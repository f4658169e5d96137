@testable import LodestoneCompositor
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
