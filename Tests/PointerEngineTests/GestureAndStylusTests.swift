import XCTest
@testable import AdaptivePointerEngine

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

    // MARK: Drawing tools (adaptive_pointer_v1 version 3)

    private let paper = rect(100, 100, 400, 300)
    private func drawingRegion(_ tool: DrawingTool?) -> Region {
        var r = region(1, paper, effect: .hover())
        r.drawingTool = tool
        return r
    }

    func testHoverMarkOverADrawingRegionIsTheToolScaledByDistance() throws {
        let pen = DrawingTool(diameter: 12, argb: 0x80ff_0000)
        var h = Harness(regions: [drawingRegion(pen)], at: point(20, 20))
        h.send(.stylus(.hovering(at: point(300, 250), distance: 0)))
        h.run(0.05)
        var mark = try XCTUnwrap(h.last.hoverMark)
        XCTAssertEqual(mark.radius, 6, accuracy: 1e-9, "at contact, the stroke's width")
        XCTAssertEqual(mark.color?.red ?? 0, 1, accuracy: 1e-9)
        XCTAssertEqual(mark.alpha, 0.85 * (128.0 / 255), accuracy: 1e-6, "the ink's alpha times the hover opacity")
        h.send(.stylus(.hovering(at: point(300, 250), distance: 1)))
        h.run(0.05)
        mark = try XCTUnwrap(h.last.hoverMark)
        XCTAssertEqual(mark.radius, 8 * 12 / 5, accuracy: 1e-9, "the plain preview's growth, scaled to the tool")
        h.send(.stylus(.hovering(at: point(50, 50), distance: 0)))
        h.run(0.05)
        mark = try XCTUnwrap(h.last.hoverMark)
        XCTAssertEqual(mark.radius, 2.5, accuracy: 1e-9, "outside the region: the plain preview")
        XCTAssertNil(mark.color)
    }

    func testPointerOverADrawingRegionIsTheToolWithoutMagnetismOrEffect() throws {
        let pen = DrawingTool(diameter: 30, argb: 0xff00_ff00)
        var h = Harness(regions: [drawingRegion(pen)], at: point(300, 250))
        h.run(1)
        XCTAssertEqual(h.last.pointer.shape.rect.width, 30, accuracy: 0.01)
        XCTAssertEqual(h.last.pointer.shape.center, point(300, 250), "no magnetism")
        XCTAssertEqual(h.last.pointer.color, pen.color)
        XCTAssertNotNil(h.last.pointer.border, "ringed, so it shows on any page")
        XCTAssertEqual(h.last.logicalPosition, point(300, 250))
        XCTAssertTrue(h.last.contentEffect == nil || h.last.contentEffect?.kind == ResolvedEffect.none, "no hover tint on the canvas")
        h.send(.motion(to: point(95, 250)))   // the hit padding: outside the frame
        h.run(1)
        XCTAssertEqual(h.last.pointer.shape.rect.width, PointerSettings().tuning.pointerDiameter, accuracy: 0.01)
        XCTAssertEqual(h.last.pointer.color, PointerSettings().color)
    }

    func testDrawingToolDiametersAreValidated() {
        for bad in [0, -1, .nan, .infinity, 513] {
            XCTAssertThrowsError(try drawingRegion(DrawingTool(diameter: bad, argb: 0)).validate(), "\(bad)")
        }
        XCTAssertNoThrow(try drawingRegion(DrawingTool(diameter: 512, argb: 0)).validate())
        XCTAssertEqual(DrawingTool(diameter: 1, argb: 0x8040_20ff).argb, 0x8040_20ff, "ARGB round-trips")
    }
}
