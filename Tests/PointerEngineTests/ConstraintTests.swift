import AdaptivePointerEngine
import XCTest

/// Locks and confinement are the engine's: the compositor only says which rule holds.
final class ConstraintTests: XCTestCase {
    func testConfinedPointerStopsAtTheEdgeOfItsRectangle() {
        var h = Harness(at: point(150, 150))
        h.send(.confine(to: [rect(100, 100, 200, 100)]))
        h.send(.relativeMotion(Vector(dx: 500, dy: 0)))
        XCTAssertEqual(h.engine.devicePosition, point(299, 150), "the last whole pixel inside")
        h.move(to: point(10, 10))
        XCTAssertEqual(h.engine.devicePosition, point(100, 100))
        XCTAssertEqual(h.engine.logicalPosition, point(100, 100))
    }

    func testConfinedPointerCrossesIntoAnotherRectangleOfItsRegion() {
        var h = Harness(at: point(150, 150))
        h.send(.confine(to: [rect(100, 100, 100, 100), rect(200, 100, 100, 100)]))
        h.move(to: point(250, 180))
        XCTAssertEqual(h.engine.devicePosition, point(250, 180))
    }

    func testEndingTheConfinementFreesThePointer() {
        var h = Harness(at: point(150, 150))
        h.send(.confine(to: [rect(100, 100, 100, 100)]))
        h.send(.confine(to: nil))
        XCTAssertFalse(h.engine.isConstrained)
        h.move(to: point(400, 300))
        XCTAssertEqual(h.engine.devicePosition, point(400, 300))
    }

    func testLockedPointerStaysWhereItWas() {
        var h = Harness(at: point(150, 150))
        h.send(.pointerLock(true))
        h.send(.relativeMotion(Vector(dx: 30, dy: 30)))
        h.move(to: point(400, 400))
        XCTAssertEqual(h.engine.devicePosition, point(150, 150))
        XCTAssertTrue(h.engine.isConstrained)
    }

    func testWarpIgnoresLocksAndConfinement() {
        var h = Harness(at: point(150, 150))
        h.send(.confine(to: [rect(100, 100, 100, 100)]))
        h.send(.warp(to: point(500, 400)))
        XCTAssertEqual(h.engine.devicePosition, point(500, 400))
        h.send(.pointerLock(true))
        h.send(.warp(to: point(20, 30)))
        XCTAssertEqual(h.engine.devicePosition, point(20, 30))
    }
}

/// Outputs of different heights side by side (`setOutputBounds(_:areas:)`): their bounding
/// box has a gap no output covers, and the pointer never goes there.
final class OutputAreaTests: XCTestCase {
    private let left = rect(0, 0, 800, 600), right = rect(800, 0, 640, 400)

    private func engine() -> PointerEngine {
        var e = PointerEngine(outputBounds: rect(0, 0, 1440, 600), initialPosition: point(100, 100))
        e.setOutputBounds(rect(0, 0, 1440, 600), areas: [left, right])
        return e
    }

    func testAMoveIntoTheGapLandsOnTheNearestOutput() {
        var e = engine()
        e.handle(.motion(to: point(1000, 550)), at: Instant(seconds: 0))
        XCTAssertEqual(e.devicePosition.x, 1000)
        XCTAssertEqual(e.devicePosition.y, 400, accuracy: 0.001, "up onto the right output's bottom edge")
        XCTAssertLessThan(e.devicePosition.y, 400)
    }

    func testRelativeMotionAlongTheTallerOutputsBottomStopsAtItsEdge() {
        var e = engine()
        e.handle(.motion(to: point(700, 550)), at: Instant(seconds: 0))
        e.handle(.relativeMotion(Vector(dx: 300, dy: 0)), at: Instant(seconds: 0.008))
        XCTAssertTrue(left.contains(e.devicePosition) || right.contains(e.devicePosition), "on an output: \(e.devicePosition)")
    }

    func testOneOutputIsClampedAsBefore() {
        var e = PointerEngine(outputBounds: left, initialPosition: point(100, 100))
        e.handle(.motion(to: point(900, 700)), at: Instant(seconds: 0))
        XCTAssertEqual(e.devicePosition.x, 800, accuracy: 0.001)
        XCTAssertEqual(e.devicePosition.y, 600, accuracy: 0.001)
        XCTAssertTrue(left.contains(e.devicePosition))
    }
}
