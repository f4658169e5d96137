import XCTest
@testable import AdaptivePointerEngine

final class PointerShapeTests: XCTestCase {
    let button = rect(400, 300, 40, 30)

    func testPointerIsA19PointCircleOverNothing() {
        var h = Harness()
        h.move(to: point(300, 300))
        h.run(0.5)
        let shape = h.last.pointer.shape
        XCTAssertEqual(shape, RoundedRect.circle(center: point(300, 300), diameter: 19))
        XCTAssertNil(h.last.targetRegion)
        XCTAssertNil(h.last.contentEffect)
        XCTAssertEqual(h.last.logicalPosition, point(300, 300))
        XCTAssertFalse(h.last.isAnimating)
    }

    func testBeamLengthFollowsLineHeightWithin24To100() {
        for (lineHeight, expected) in [(10.0, 24.0), (40, 40), (150, 100)] {
            var h = Harness(regions: [region(1, rect(100, 100, 600, 400), effect: .automatic,
                                             shape: .verticalBeam(length: lineHeight))])
            h.move(to: point(300, 250))
            h.run(1)
            XCTAssertEqual(h.last.pointer.shape.rect.height, expected, accuracy: 1e-9, "line height \(lineHeight)")
            XCTAssertEqual(h.last.pointer.shape.rect.width, 3, accuracy: 1e-9)
            XCTAssertNil(h.last.contentEffect, "text gets no content effect")
        }
    }

    func testHorizontalBeamIsTheVerticalTextVariant() {
        var h = Harness(regions: [region(1, rect(100, 100, 400, 400), effect: .none, shape: .horizontalBeam(length: 30))])
        h.move(to: point(300, 250))
        h.run(1)
        XCTAssertEqual(h.last.pointer.shape.rect.width, 30, accuracy: 1e-9)
        XCTAssertEqual(h.last.pointer.shape.rect.height, 3, accuracy: 1e-9)
    }

    func testEnteringAHighlightRegionMorphsTowardThePlatterAndSettlesOnIt() {
        var h = Harness(regions: [region(1, button, effect: .highlight)], at: point(300, 315))
        h.move(to: point(392, 315))   // inside the 12-point padding, not yet on the button
        let frames = h.run(1.5)
        let widths = frames.map { $0.pointer.shape.rect.width }
        XCTAssertGreaterThan(widths[0], 19)
        XCTAssertLessThan(widths[0], 44, "morphs over several frames, no jump")
        let settled = h.last!
        XCTAssertEqual(settled.pointer.shape.rect.width, 44, accuracy: 1e-6, "platter = element + 4")
        XCTAssertEqual(settled.pointer.shape.rect.height, 34, accuracy: 1e-6)
        XCTAssertEqual(settled.pointer.shape.cornerRadius, 8, accuracy: 1e-6)
        // Parallax: the platter leans 0.3 of the way toward the device.
        XCTAssertEqual(settled.pointer.shape.center.x, 420 + (392 - 420) * 0.3, accuracy: 1e-6)
        XCTAssertEqual(settled.pointer.shape.center.y, 315, accuracy: 1e-6)
        XCTAssertTrue(settled.pointer.drawsBeneathContent)
        XCTAssertEqual(settled.contentEffect?.kind, .highlight)
        XCTAssertEqual(settled.contentEffect?.platter, settled.pointer.shape)
        XCTAssertEqual(settled.contentEffect?.translation.dx ?? 0, (392 - 420) * 0.1, accuracy: 1e-6, "slip")
        XCTAssertFalse(settled.isAnimating)
    }

    func testSlipIsCappedAt15Points() {
        var h = Harness(regions: [region(1, rect(300, 300, 400, 40), effect: .highlight)], at: point(310, 320))
        h.run(1)
        XCTAssertEqual(h.last.contentEffect!.translation.length, 15, accuracy: 1e-6)
    }

    func testLiftFadesThePointerBeneathTheGrownElement() {
        var h = Harness(regions: [region(1, button, effect: .lift)], at: point(300, 315))
        h.move(to: point(415, 312))
        let frames = h.run(1.5)
        XCTAssertGreaterThan(frames[0].pointer.alpha, 0.3, "fades, does not vanish")
        let e = h.last.contentEffect!
        XCTAssertEqual(h.last.pointer.alpha, 0, accuracy: 1e-6)
        XCTAssertEqual(e.kind, .lift)
        XCTAssertEqual(e.scale, 1 + 7.6 / 40, accuracy: 1e-6)
        XCTAssertNotNil(e.shadow)
        XCTAssertTrue((0.05...0.08).contains(e.specular!.opacity))
        XCTAssertEqual(h.last.pointer.shape.rect.width, e.transformedFrame.width, accuracy: 1e-6,
                       "the pointer becomes the element's outline")
    }

    func testPressingALiftedElementScalesItDownSlightly() {
        var h = Harness(regions: [region(1, button, effect: .lift)], at: point(415, 312))
        h.run(1)
        let lifted = h.last.contentEffect!.scale
        XCTAssertEqual(h.last.contentEffect!.pressProgress, 0)
        h.send(.button(.pressed))
        h.run(0.5)
        let pressed = h.last.contentEffect!
        XCTAssertEqual(pressed.pressProgress, 1, accuracy: 1e-6)
        XCTAssertEqual(pressed.scale, lifted * 0.95, accuracy: 1e-6, "the pointer is hidden: the element shows the press")
        XCTAssertGreaterThan(pressed.scale, 1, "still lifted, only less")
        XCTAssertEqual(h.last.pointer.alpha, 0, accuracy: 1e-6)
        h.send(.button(.released))
        h.run(0.5)
        XCTAssertEqual(h.last.contentEffect!.scale, lifted, accuracy: 1e-6)
        XCTAssertEqual(h.last.contentEffect!.pressProgress, 0, accuracy: 1e-6)
    }

    func testHoverKeepsThePointerShapeAndAppliesItsOwnEffect() {
        let card = rect(400, 300, 200, 150)
        var h = Harness(regions: [region(1, card, effect: .hover(tint: .overlay, shadow: true, scale: true))])
        h.move(to: point(450, 340))
        h.run(1)
        XCTAssertEqual(h.last.pointer.shape, RoundedRect.circle(center: point(450, 340), diameter: 19))
        XCTAssertEqual(h.last.pointer.alpha, 1, accuracy: 1e-9)
        XCTAssertEqual(h.last.logicalPosition, point(450, 340), "no magnetism for hover")
        let e = h.last.contentEffect!
        XCTAssertEqual(e.scale, 1 + 6.0 / 200, accuracy: 1e-9)
        XCTAssertEqual(e.tint?.mode, .overlay)
        XCTAssertNotNil(e.shadow)
    }

    func testAutomaticEffectFollowsTheGuidelines() {
        let style = PointerStyle()
        XCTAssertEqual(style.resolvedEffect(frame: button, background: .transparent, largeElementSide: 120), .highlight)
        XCTAssertEqual(style.resolvedEffect(frame: button, background: .opaque, largeElementSide: 120), .lift)
        guard case .hover = style.resolvedEffect(frame: rect(0, 0, 300, 200), background: .opaque, largeElementSide: 120) else {
            return XCTFail("large elements hover")
        }
    }

    func testCustomPathCrossFadesWithTheRoundedRect() {
        let square = Path<PointerLocal>.rect(Rect(x: -15, y: -15, width: 30, height: 30))
        var h = Harness(regions: [region(1, rect(400, 300, 200, 200), effect: .none, shape: .path(square))])
        h.move(to: point(500, 400))
        let frames = h.run(1.5)
        let mid = frames[3]
        XCTAssertNotNil(mid.pointer.customPath)
        XCTAssertGreaterThan(mid.pointer.pathAlpha, 0)
        XCTAssertLessThan(mid.pointer.pathAlpha, 1)
        XCTAssertGreaterThan(mid.pointer.alpha, 0, "both visible mid-fade")
        XCTAssertEqual(h.last.pointer.pathAlpha, 1, accuracy: 1e-9)
        XCTAssertEqual(h.last.pointer.alpha, 0, accuracy: 1e-9)
        XCTAssertEqual(h.last.pointer.shape.rect.width, 30, accuracy: 1e-6, "outline morphs to the path's bounds")
        XCTAssertTrue(h.last.bounds.contains(Rect(x: 485, y: 385, width: 30, height: 30)))
    }

    func testPressingScalesThePointerTo90Percent() {
        var h = Harness()
        h.move(to: point(300, 300))
        h.send(.button(.pressed))
        h.run(1)
        XCTAssertEqual(h.last.pointer.scale, 0.9, accuracy: 1e-9)
        h.send(.button(.released))
        h.run(1)
        XCTAssertEqual(h.last.pointer.scale, 1, accuracy: 1e-9)
    }

    func testHiddenShapeHidesThePointerOverTheRegion() {
        var h = Harness(regions: [region(1, rect(400, 300, 200, 200), effect: .none, shape: .hidden)])
        h.move(to: point(500, 400))
        h.run(1)
        XCTAssertEqual(h.last.pointer.alpha, 0)
        XCTAssertTrue(h.last.isVisible, "hidden by the shape, not by auto-hide")
    }
}
