import WaylandServer
import XCTest

/// An event source holds its loop's display while it is in the loop, so the loop outlives it
/// whatever order their owners let go in: at exit a release build freed the display (its
/// other owners gone) before the frames' timer was removed in a deinit, and the removal wrote
/// into the freed loop (valgrind: wl_event_source_remove after wl_display_destroy).
final class EventSourceLifetimeTests: XCTestCase {
    func testASourceKeepsTheDisplayUntilItIsRemoved() throws {
        var display: Display? = try Display()
        weak let gone = display
        let timer = try XCTUnwrap(display).eventLoop.addTimer {}
        timer.arm(milliseconds: 1000)
        display = nil
        XCTAssertNotNil(gone, "the timer is in the loop: the display stays")
        timer.remove()
        XCTAssertNil(gone, "removed: nothing holds the display")
    }

    func testASourceReleasedWithoutRemovalLetsTheDisplayGoAfterIt() throws {
        var display: Display? = try Display()
        weak let gone = display
        var idle: EventSource? = try XCTUnwrap(display).eventLoop.addIdle {}
        display = nil
        XCTAssertNotNil(gone)
        XCTAssertNotNil(idle)
        idle = nil
        XCTAssertNil(gone, "the source's deinit removed it, then let the display go")
    }

    func testTheLoopValueAloneDoesNotKeepTheDisplay() throws {
        var display: Display? = try Display()
        weak let gone = display
        let loop = try XCTUnwrap(display).eventLoop
        display = nil
        XCTAssertNil(gone, "a stored loop value holds no display")
        withExtendedLifetime(loop) {}
    }
}
