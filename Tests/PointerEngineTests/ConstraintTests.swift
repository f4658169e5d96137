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
