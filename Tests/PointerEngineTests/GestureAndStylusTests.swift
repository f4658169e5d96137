import XCTest
@testable import PointerEngine

/// Touchpad gestures and a tablet tool as the pointer shows them (issue 13).
final class GestureAndStylusTests: XCTestCase {
    private let button = rect(300, 300, 80, 30)

    func testHoldGestureShowsThePointerPressedUntilTheFingersLift() {
        var h = Harness(at: point(100, 100))
        h.run(0.5)
        let rest = h.last.pointer.scale
        h.send(.gestureHold(true))
        h.run(0.5)
        XCTAssertEqual(h.last.pointer.scale, PointerSettings().tuning.pressedScale * rest, accuracy: 0.01, "a hold presses the pointer like a click")
        h.send(.gestureHold(false))
        h.run(0.5)
        XCTAssertEqual(h.last.pointer.scale, rest, accuracy: 0.01)
    }

    func testPinchOverALiftedElementScalesItsEffectAndEndsBackAtTheLift() throws {
        var h = Harness(regions: [region(1, button, effect: .lift)], at: point(340, 315))
        h.run(1)
        let lifted = try XCTUnwrap(h.last.contentEffect?.scale)
        h.send(.pinch(scale: 1.8))
        h.run(0.1)
        let pinched = try XCTUnwrap(h.last.contentEffect?.scale)
        XCTAssertEqual(pinched, lifted * PointerPresentation.pinchFactor(1.8), accuracy: 0.001)
        XCTAssertGreaterThan(pinched, lifted, "spreading fingers grow the lifted element")
        XCTAssertTrue(h.last.damage.contains(h.last.contentEffect!.transformedFrame), "the grown element is repainted")
        h.send(.pinch(scale: 0.5))
        h.run(0.1)
        XCTAssertLessThan(h.last.contentEffect!.scale, lifted, "pinching in shrinks it")
        h.send(.pinch(scale: nil))
        h.run(0.1)
        XCTAssertEqual(h.last.contentEffect!.scale, lifted, accuracy: 0.001)
    }

    func testPinchOverAHighlightLeavesItAlone() throws {
        var h = Harness(regions: [region(1, button, effect: .highlight)], at: point(340, 315))
        h.run(1)
        let before = try XCTUnwrap(h.last.contentEffect?.scale)
        h.send(.pinch(scale: 2))
        h.run(0.1)
        XCTAssertEqual(h.last.contentEffect?.scale, before)
    }

    func testHoveringStylusShowsAMarkThatGrowsWithDistanceAndHidesOnContact() throws {
        var h = Harness(at: point(100, 100))
        h.run(0.5)
        XCTAssertNil(h.last.hoverMark)
        h.send(.stylus(.hovering(at: point(500, 400), distance: 0.1)))
        h.run(0.05)
        let near = try XCTUnwrap(h.last.hoverMark)
        XCTAssertEqual(near.center, point(500, 400))
        XCTAssertTrue(h.last.damage.contains(near.bounds))
        h.send(.stylus(.hovering(at: point(510, 400), distance: 0.9)))
        h.run(0.05)
        let far = try XCTUnwrap(h.last.hoverMark)
        XCTAssertGreaterThan(far.radius, near.radius, "the mark's size follows the distance")
        XCTAssertGreaterThan(h.last.pointer.alpha, 0.5, "hovering leaves the pointer shown")

        h.send(.stylus(.touching(at: point(510, 400))))
        let frames = h.run(0.05)
        XCTAssertNil(h.last.hoverMark, "the pen draws: no preview")
        XCTAssertEqual(h.last.pointer.alpha, 0, "the pointer hides while the pen touches")
        XCTAssertTrue(frames[0].damage.contains(far.bounds), "the preview's last place is repainted")

        h.send(.stylus(.away))
        h.run(0.05)
        XCTAssertNil(h.last.hoverMark)
        XCTAssertGreaterThan(h.last.pointer.alpha, 0.5)
    }
}
