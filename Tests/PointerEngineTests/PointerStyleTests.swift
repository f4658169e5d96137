import XCTest
@testable import AdaptivePointerEngine

/// The two pointer styles: the circle (magnetic by default) and the iPadOS 26 arrow, which
/// tracks the hand 1:1 while every content effect stays.
final class PointerStyleTests: XCTestCase {
    let button = rect(400, 300, 40, 30)
    let arrow = PointerSettings(style: .arrow)

    func testTheArrowIsShownWithItsTipAtTheHand() {
        var h = Harness(settings: arrow, at: point(200, 200))
        h.move(to: point(250, 260))
        h.run(0.5)
        let g = h.last.pointer
        XCTAssertEqual(g.arrowAlpha, 1, accuracy: 0.001)
        XCTAssertEqual(g.alpha, 0, accuracy: 0.001, "no circle under the arrow")
        XCTAssertEqual(g.arrowTip, point(250, 260))
        let b = g.arrowBounds
        XCTAssertEqual(b.minY, 260, accuracy: 0.001, "the tip is the arrow's topmost point")
        XCTAssertEqual(b.maxY - b.minY, 18.965, accuracy: 0.01)
        XCTAssertLessThan(abs(b.minX - 250), 1.5, "and its leftmost, give or take the left wing's slant")
        XCTAssertEqual(PointerShapeReport(h.last, clientCursor: false, tuning: h.engine.settings.tuning).kind, .arrow)
    }

    /// An engine that starts in the arrow style shows the arrow from its first frame.
    func testTheArrowNeedsNoMorphAtStartUp() {
        let h = Harness(settings: arrow, at: point(200, 200))
        XCTAssertEqual(h.last.pointer.arrowAlpha, 1, accuracy: 0.001)
        XCTAssertFalse(h.last.isAnimating)
    }

    func testMagnetismIsOffByDefaultInTheArrowStyleAndTheSettingWins() {
        XCTAssertTrue(PointerSettings().magnetismEnabled)
        XCTAssertFalse(PointerSettings(style: .arrow).magnetismEnabled)
        XCTAssertTrue(PointerSettings(style: .arrow, magnetismEnabled: true).magnetismEnabled)
        var s = PointerSettings(style: .arrow)
        s.magnetismEnabled = true
        s.style = .circle
        s.style = .arrow
        XCTAssertTrue(s.magnetismEnabled, "an explicit choice survives style changes")
    }

    /// Over a magnetic highlight button the arrow's logical position is the hand, with the
    /// platter still targeting the button; the circle style pulls the pointer onto the button.
    func testOverAMagneticRegionTheArrowStaysAtTheHandAndTheHighlightStillTargets() {
        // On the element, off its centre (without magnetism regions engage at their frames).
        let hand = point(405, 304)
        var h = Harness(settings: arrow, regions: [region(1, button)], at: point(300, 302))
        h.move(to: hand)
        h.run(1)
        XCTAssertEqual(h.last.targetRegion, RegionID(1), "the highlight still targets the button")
        XCTAssertEqual(h.last.contentEffect?.kind, .highlight)
        XCTAssertEqual(h.last.logicalPosition, hand, "clients see the hand, 1:1")
        XCTAssertEqual(h.last.pointer.arrowAlpha, 0, accuracy: 0.01, "the arrow has become the platter")
        XCTAssertEqual(h.last.pointer.alpha, 1, accuracy: 0.01)
        XCTAssertEqual(h.last.pointer.shape.rect.width, 44, accuracy: 0.01, "the platter: element + 4")
        XCTAssertEqual(h.events, [.entered(RegionID(1), identifier: 1)])

        var circle = Harness(regions: [region(1, button)], at: point(300, 302))
        circle.move(to: hand)
        circle.run(1)
        XCTAssertNotEqual(circle.last.logicalPosition, hand, "the circle is pulled toward the button's centre")

        var pulled = Harness(settings: PointerSettings(style: .arrow, magnetismEnabled: true), regions: [region(1, button)],
                             at: point(300, 302))
        pulled.move(to: hand)
        pulled.run(1)
        XCTAssertEqual(pulled.last.logicalPosition, circle.last.logicalPosition, "explicit magnetism still pulls in the arrow style")
    }

    /// Into the platter and back: the arrow fades out where the hand is while the platter
    /// fades in, within the custom-morph spring's time, and comes back after leaving.
    func testTheArrowCrossFadesIntoThePlatterAndBack() {
        var h = Harness(settings: arrow, regions: [region(1, button)], at: point(300, 315))
        h.move(to: point(420, 315))
        let frames = h.run(0.6)
        let middle = frames[6]     // 0.1 s in
        XCTAssertGreaterThan(middle.pointer.arrowAlpha, 0.05)
        XCTAssertLessThan(middle.pointer.arrowAlpha, 0.95, "a cross-fade, not a cut")
        XCTAssertEqual(middle.pointer.arrowTip, point(420, 315), "the fading arrow stays at the hand")
        XCTAssertEqual(frames.last!.pointer.arrowAlpha, 0, accuracy: 0.01)
        h.move(to: point(300, 200))
        h.run(1)
        XCTAssertNil(h.last.targetRegion)
        XCTAssertEqual(h.last.pointer.arrowAlpha, 1, accuracy: 0.01)
        XCTAssertEqual(h.last.pointer.alpha, 0, accuracy: 0.01)
    }

    /// Text still gets the beam, hover keeps the arrow (with its effect), accessories stay.
    func testBeamHoverAndAccessoriesStayInTheArrowStyle() throws {
        let text = region(2, rect(100, 100, 300, 100), effect: .automatic, shape: .verticalBeam(length: 20))
        let card = region(3, rect(600, 100, 200, 200), effect: .hover(tint: .overlay, shadow: false, scale: true))
        let plus = region(4, rect(100, 500, 200, 100), effect: .none,
                          accessories: try AccessorySet([PointerAccessory(.plus, position: AccessoryPosition(degrees: 0))]))
        var h = Harness(settings: arrow, regions: [text, card, plus], at: point(50, 50))
        h.move(to: point(200, 150))
        h.run(1)
        let tuning = h.engine.settings.tuning
        XCTAssertEqual(PointerShapeReport(h.last, clientCursor: false, tuning: tuning).kind, .verticalBeam)
        XCTAssertEqual(h.last.pointer.arrowAlpha, 0, accuracy: 0.01)
        h.move(to: point(700, 200))
        h.run(1)
        XCTAssertEqual(PointerShapeReport(h.last, clientCursor: false, tuning: tuning).kind, .arrow)
        XCTAssertEqual(h.last.contentEffect?.kind, .hover(tint: .overlay, shadow: false, scale: true))
        h.move(to: point(200, 550))
        h.run(1)
        XCTAssertEqual(PointerShapeReport(h.last, clientCursor: false, tuning: tuning).kind, .arrow)
        let a = try XCTUnwrap(h.last.accessories.first)
        XCTAssertLessThan(a.center.y, h.last.pointer.arrowBounds.minY, "the plus sits above the arrow")
    }

    /// The style changes at run time: the circle cross-fades into the arrow.
    func testTheStyleChangesAtRunTime() {
        var h = Harness(at: point(200, 200))
        h.run(0.5)
        XCTAssertEqual(h.last.pointer.arrowAlpha, 0)
        h.engine.updateSettings(arrow)
        h.run(1)
        XCTAssertEqual(h.last.pointer.arrowAlpha, 1, accuracy: 0.01)
        XCTAssertEqual(h.last.pointer.alpha, 0, accuracy: 0.01)
        h.engine.updateSettings(PointerSettings())
        h.run(1)
        XCTAssertEqual(h.last.pointer.arrowAlpha, 0, accuracy: 0.01)
        XCTAssertEqual(PointerShapeReport(h.last, clientCursor: false, tuning: h.engine.settings.tuning).kind, .circle)
    }

    func testTheArrowOutlineIsClosedAndRoundedAtEveryCorner() {
        let path = PointerArrow.outline(size: 2)
        XCTAssertEqual(path.elements.filter { if case .quad = $0 { true } else { false } }.count, 4)
        XCTAssertEqual(path.elements.last, .close)
        XCTAssertEqual(PointerArrow.bounds(size: 2).height, 2 * 18.965, accuracy: 0.001)
    }
}
