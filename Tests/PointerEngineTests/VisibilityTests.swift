import XCTest
@testable import AdaptivePointerEngine

final class VisibilityTests: XCTestCase {
    func visibility(after seconds: Double, device: DeviceKind) -> Bool {
        var h = Harness()
        h.send(.device(device))
        h.move(to: point(300, 300))
        h.run(seconds)
        return h.last.isVisible
    }

    func testTrackpadPointerHidesAfter3Point25Seconds() {
        XCTAssertTrue(visibility(after: 3.2, device: .trackpad))
        XCTAssertFalse(visibility(after: 3.3, device: .trackpad))
    }

    func testMousePointerHidesAfter8Seconds() {
        XCTAssertTrue(visibility(after: 7.9, device: .mouse))
        XCTAssertFalse(visibility(after: 8.1, device: .mouse))
    }

    func testHidingFadesOutAndMotionFadesBackIn() {
        var h = Harness()
        h.send(.device(.trackpad))
        h.move(to: point(300, 300))
        let frames = h.run(4)
        XCTAssertTrue(frames.contains { $0.pointer.alpha > 0.05 && $0.pointer.alpha < 0.95 }, "animated, not cut")
        XCTAssertEqual(h.last.pointer.alpha, 0, accuracy: 1e-9)
        h.move(to: point(301, 300))
        h.run(1)
        XCTAssertTrue(h.last.isVisible)
        XCTAssertEqual(h.last.pointer.alpha, 1, accuracy: 1e-9)
    }

    func testIdleInhibitionKeepsThePointerShownAndItsEndRestartsTheDelay() {
        var h = Harness()
        h.send(.device(.trackpad))
        h.move(to: point(300, 300))
        h.send(.idleInhibited(true))
        h.run(10)
        XCTAssertTrue(h.last.isVisible, "no auto-hide while idle is inhibited")
        h.send(.idleInhibited(false))
        h.run(3.2)
        XCTAssertTrue(h.last.isVisible, "the delay starts when the inhibition ends")
        h.run(0.2)
        XCTAssertFalse(h.last.isVisible)
    }

    func testTypingHidesThePointerEvenWhileIdleIsInhibited() {
        var h = Harness()
        h.move(to: point(300, 300))
        h.send(.idleInhibited(true))
        h.send(.keyTyped)
        h.run(0.1)
        XCTAssertFalse(h.last.isVisible)
    }

    func testTypingHidesThePointerUntilItMoves() {
        var h = Harness()
        h.move(to: point(300, 300))
        h.send(.keyTyped)
        h.run(0.1)
        XCTAssertFalse(h.last.isVisible)
        h.move(to: point(305, 300))
        h.run(0.1)
        XCTAssertTrue(h.last.isVisible)
    }

    func testPointerOutsideTheOutputsFadesOutUntilItComesBack() {
        var settings = PointerSettings()
        settings.autoHide = false
        var h = Harness(settings: settings)
        h.move(to: point(300, 300))
        h.send(.outsideOutputs(true))
        h.run(1)
        XCTAssertFalse(h.last.isVisible)
        XCTAssertEqual(h.last.pointer.alpha, 0, accuracy: 1e-9, "hidden even with auto-hide off")
        h.send(.outsideOutputs(false))
        h.run(1)
        XCTAssertTrue(h.last.isVisible)
        XCTAssertEqual(h.last.pointer.alpha, 1, accuracy: 1e-9)
    }

    func testAutoHideCanBeTurnedOff() {
        var settings = PointerSettings()
        settings.autoHide = false
        var h = Harness(settings: settings)
        h.send(.keyTyped)
        h.run(20)
        XCTAssertTrue(h.last.isVisible)
    }

    func testPointerLockHidesThePointerAndReportsOnlyRelativeMotion() {
        var h = Harness(at: point(300, 300))
        h.send(.pointerLock(true))
        h.send(.relativeMotion(Vector(dx: 5, dy: -3)))
        h.move(to: point(400, 400))
        h.move(to: point(410, 395))
        h.run(1)
        XCTAssertFalse(h.last.isVisible)
        XCTAssertTrue(h.last.isLocked)
        XCTAssertEqual(h.last.pointer.alpha, 0, accuracy: 1e-9)
        XCTAssertEqual(h.last.logicalPosition, point(300, 300), "the pointer does not move while locked")
        XCTAssertEqual(h.events, [.lockedMotion(Vector(dx: 5, dy: -3)), .lockedMotion(Vector(dx: 10, dy: -5))])
        h.send(.pointerLock(false))
        h.run(1)
        XCTAssertTrue(h.last.isVisible)
        XCTAssertEqual(h.last.pointer.alpha, 1, accuracy: 1e-9)
    }
}
