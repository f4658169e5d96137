import XCTest
@testable import AdaptivePointerEngine

final class AccessibilityTests: XCTestCase {
    let button = rect(400, 300, 40, 30)

    func platterWidths(reduceMotion: Bool) -> [PointerPresentation] {
        var settings = PointerSettings()
        settings.reduceMotion = reduceMotion
        var h = Harness(settings: settings, regions: [region(1, button)], at: point(300, 315))
        h.move(to: point(415, 315))
        return h.run(1.5)
    }

    func testShapeMorphOvershootsSlightlyByDefault() {
        let widths = platterWidths(reduceMotion: false).map { $0.pointer.shape.rect.width }
        XCTAssertGreaterThan(widths.max()!, 44 + 1e-3, "damping 0.9 overshoots")
    }

    func testReduceMotionRemovesOvershootAndFadesInsteadOfMorphing() {
        let frames = platterWidths(reduceMotion: true)
        XCTAssertLessThanOrEqual(frames.map { $0.pointer.shape.rect.width }.max()!, 44)
        XCTAssertEqual(frames[0].pointer.shape.rect.width, 44, "no morph: the new shape is there at once")
        XCTAssertLessThan(frames[0].pointer.alpha, 0.9, "…and fades in quickly")
        XCTAssertEqual(frames[12].pointer.alpha, 1, accuracy: 0.01)
        XCTAssertEqual(frames.last!.pointer.shape.center, button.center, "no parallax")
        XCTAssertEqual(frames.last!.contentEffect!.translation, .zero, "no slip")
    }

    func testSizeMultiplierScalesCircleBeamAndAccessories() {
        var settings = PointerSettings()
        settings.sizeMultiplier = 2
        var h = Harness(settings: settings, at: point(300, 300))
        h.run(0.5)
        XCTAssertEqual(h.last.pointer.shape.rect.width, 38)
        try! h.engine.regions.upsert(region(1, rect(500, 100, 300, 300), effect: .none, shape: .verticalBeam(length: 20),
                                            accessories: try! AccessorySet([PointerAccessory(.plus, position: .top)])))
        h.move(to: point(600, 200))
        h.run(1.5)
        XCTAssertEqual(h.last.pointer.shape.rect.width, 6, accuracy: 1e-9)
        XCTAssertEqual(h.last.accessories[0].size, 22)
    }

    func testIncreasedContrastDrawsAnOpaquePointerWithABorder() {
        var settings = PointerSettings()
        settings.increaseContrast = true
        var h = Harness(settings: settings)
        h.run(0.1)
        XCTAssertNotNil(h.last.pointer.border)
        XCTAssertEqual(h.last.pointer.color.alpha, 1)
        var plain = Harness()
        plain.run(0.1)
        XCTAssertNil(plain.last.pointer.border)
    }

    func testCustomColourAndBorderAreUsed() {
        var settings = PointerSettings()
        settings.color = PointerColor(red: 1, green: 0, blue: 0, alpha: 0.8)
        settings.showsBorder = true
        var h = Harness(settings: settings)
        h.run(0.1)
        XCTAssertEqual(h.last.pointer.color, settings.color)
        XCTAssertEqual(h.last.pointer.border, settings.border)
        XCTAssertTrue(h.last.pointer.bounds.contains(h.last.pointer.shape.rect.outset(by: 1.5)))
    }

    func testSettingsCanChangeWhileEngaged() {
        var h = Harness(regions: [region(1, button)], at: point(392, 315))
        h.run(0.5)
        XCTAssertTrue(button.contains(h.engine.logicalPosition))
        var settings = PointerSettings()
        settings.magnetismEnabled = false
        h.engine.updateSettings(settings)
        h.run(0.5)
        XCTAssertEqual(h.last.logicalPosition, point(392, 315), "no magnetic pull any more")
    }
}
