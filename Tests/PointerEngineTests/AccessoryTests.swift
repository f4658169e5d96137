import XCTest
@testable import AdaptivePointerEngine

final class AccessoryTests: XCTestCase {
    let area = rect(400, 300, 300, 200)

    func resizeHandle(_ accessories: [PointerAccessory]) -> Region {
        region(1, area, effect: .none, accessories: try! AccessorySet(accessories))
    }

    func testAccessoriesAppearBesideThePointer() {
        var h = Harness(regions: [resizeHandle([PointerAccessory(.arrow, position: .left),
                                                PointerAccessory(.arrow, position: .right)])])
        h.move(to: point(500, 400))
        let first = h.run(1.0 / 60)[0]
        XCTAssertEqual(first.accessories.count, 2)
        XCTAssertLessThan(first.accessories[0].alpha, 0.5, "fades in")
        h.run(1.5)
        let a = h.last.accessories
        XCTAssertEqual(a.count, 2)
        XCTAssertEqual(a[0].alpha, 1, accuracy: 1e-9)
        XCTAssertEqual(a[0].size, 11)
        // Left of the 19-point circle: radius 9.5 + gap 2 + half the glyph.
        XCTAssertEqual(a[0].center.x, 500 - 9.5 - 2 - 5.5, accuracy: 1e-6)
        XCTAssertEqual(a[0].center.y, 400, accuracy: 1e-6)
        XCTAssertEqual(a[1].center.x, 500 + 17, accuracy: 1e-6)
        XCTAssertEqual(a[1].rotation, .pi / 2, accuracy: 1e-9, "arrows point outward")
        XCTAssertTrue(h.last.bounds.contains(a[0].bounds))
    }

    func testUprightAccessoryIsPlacedAtItsAngleButNotTurned() {
        var h = Harness(regions: [resizeHandle([PointerAccessory(.plus, position: AccessoryPosition(degrees: 45), upright: true),
                                                PointerAccessory(.plus, position: AccessoryPosition(degrees: 45))])])
        h.move(to: point(500, 400))
        h.run(1.5)
        let a = h.last.accessories
        XCTAssertEqual(a[0].center.x, 500 + 17 * 0.5.squareRoot(), accuracy: 1e-6, "at its angle")
        XCTAssertEqual(a[0].center.y, 400 - 17 * 0.5.squareRoot(), accuracy: 1e-6)
        XCTAssertEqual(a[0].rotation, 0, "upright: a plus stays a plus")
        XCTAssertEqual(a[1].rotation, .pi / 4, accuracy: 1e-9, "otherwise turned by its angle")
    }

    func testChangingTheSetMorphsPositionAndCrossFadesGlyphs() throws {
        var h = Harness(regions: [resizeHandle([PointerAccessory(.arrow, position: .left)])])
        h.move(to: point(500, 400))
        h.run(1.5)
        try h.engine.regions.upsert(resizeHandle([PointerAccessory(.plus, position: .top),
                                                  PointerAccessory(.checkmark, position: .bottom)]))
        let mid = h.run(0.1).last!.accessories
        XCTAssertEqual(mid.count, 2)
        XCTAssertEqual(mid[0].shape, .plus)
        XCTAssertEqual(mid[0].previousShape, .arrow)
        XCTAssertTrue(mid[0].morphProgress > 0 && mid[0].morphProgress < 1)
        XCTAssertTrue(mid[0].rotation < 0 && mid[0].rotation > -.pi / 2, "swinging from left to top")
        h.run(2)
        let end = h.last.accessories
        XCTAssertNil(end[0].previousShape)
        XCTAssertEqual(end[0].rotation, 0, accuracy: 1e-6)
        XCTAssertEqual(end[0].center.y, 400 - 17, accuracy: 1e-6)
        XCTAssertEqual(end[1].alpha, 1, accuracy: 1e-9)
    }

    func testMoreThanFourAccessoriesIsATypedError() {
        let five = Array(repeating: PointerAccessory(.plus, position: .top), count: 5)
        XCTAssertThrowsError(try AccessorySet(five)) { error in
            XCTAssertEqual(error as? AccessoryError, .tooMany(count: 5, maximum: 4))
        }
        XCTAssertEqual(try AccessorySet(Array(five.prefix(4))).count, 4)
        let broken = PointerAccessory(.path(Path([.line(to: .zero)])), position: .top)
        XCTAssertThrowsError(try AccessorySet([broken])) { error in
            XCTAssertEqual(error as? AccessoryError, .invalidPath(index: 0, .missingInitialMove))
        }
    }

    func testAccessoriesDisappearWhenLeavingTheRegion() {
        var h = Harness(regions: [resizeHandle([PointerAccessory(.minus, position: .top)])])
        h.move(to: point(500, 400))
        h.run(1.5)
        h.move(to: point(100, 100))
        let fading = h.run(0.35).last!
        XCTAssertEqual(fading.accessories.count, 1)
        XCTAssertLessThan(fading.accessories[0].alpha, 0.9)
        h.run(2)
        XCTAssertEqual(h.last.accessories.count, 0)
    }

    func testAccessoryCanRotateWithThePointersMotion() {
        var h = Harness(regions: [resizeHandle([PointerAccessory(.arrow, position: .top, rotatesWithMotion: true)])],
                        at: point(420, 400))
        h.run(1)
        h.glide(to: point(600, 400), steps: 20, interval: 1.0 / 60)   // heading right
        h.run(1)
        XCTAssertEqual(h.last.accessories[0].rotation, .pi / 2, accuracy: 1e-3)
    }

    func testBuiltInGlyphsHaveValidOutlines() throws {
        for shape in [AccessoryShape.arrow, .plus, .minus, .circleSlash, .checkmark] {
            let p = shape.outline(size: 11)
            XCTAssertNoThrow(try p.validate())
            XCTAssertLessThanOrEqual(p.bounds.width, 11 + 1e-9)
        }
    }
}
