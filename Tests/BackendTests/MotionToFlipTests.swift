import Backends
import XCTest

/// Motion → page flip (`--stats` on a TTY), fed with kernel-like times in microseconds.
final class MotionToFlipTests: XCTestCase {
    func testTheOldestMotionOfAFrameIsTimedToItsFlip() {
        var m = MotionToFlip()
        m.motion(at: 1_000)
        m.motion(at: 3_000)  // the same frame: the hand waited from the first
        m.frameQueued()
        m.motion(at: 9_000)  // arrives while the flip is queued: the next frame's
        m.flipped(at: 17_000)
        m.frameQueued()
        m.flipped(at: 33_500)
        XCTAssertEqual(m.samples, [16_000, 24_500])
        XCTAssertEqual(m.summary, "motion → page flip: p50 24.5 ms, p99 24.5 ms, max 24.5 ms over 2 frames; 0 motions shown on the cursor plane without a frame")
    }

    func testMotionTheCursorPlaneShowsAndFramesWithoutMotionAreNotTimed() {
        var m = MotionToFlip()
        m.motion(at: 1_000)
        m.shownOnPlane()
        m.frameQueued()  // a client's frame, no motion in it
        m.flipped(at: 17_000)
        XCTAssertEqual(m.samples, [])
        XCTAssertEqual(m.onPlane, 1)
        XCTAssertEqual(m.summary, "motion → page flip: no frame carried a motion; 1 motions shown on the cursor plane without a frame")
    }
}
