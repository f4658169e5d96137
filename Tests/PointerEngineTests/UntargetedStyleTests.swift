import XCTest
@testable import AdaptivePointerEngine

/// `PointerInput.untargetedStyle`: what an app's cursor name asks for where no region is.
final class UntargetedStyleTests: XCTestCase {
    let button = rect(400, 300, 40, 30)

    func testBeamFollowsTheDeviceWhereNoRegionIs() {
        var h = Harness(regions: [region(1, button)])
        h.send(.untargetedStyle(PointerStyle(shape: .verticalBeam(length: 30))))
        h.move(to: point(100, 100))
        h.run(1)
        XCTAssertEqual(h.last.pointer.shape.rect.width, 3, accuracy: 1e-6)
        XCTAssertEqual(h.last.pointer.shape.rect.height, 30, accuracy: 1e-6)
        XCTAssertEqual(h.last.pointer.shape.center, point(100, 100), "no magnetism without an element")
        XCTAssertEqual(h.last.logicalPosition, point(100, 100))
    }

    func testRegionsWinOverTheUntargetedStyle() throws {
        var h = Harness(regions: [region(1, button)])
        h.send(.untargetedStyle(PointerStyle(shape: .verticalBeam(length: 30),
                                             accessories: try AccessorySet([PointerAccessory(.plus, position: .top)]))))
        h.move(to: point(420, 315))
        h.run(1)
        XCTAssertEqual(h.last.targetRegion, RegionID(1))
        XCTAssertEqual(h.last.pointer.shape.rect.width, 44, accuracy: 1e-6, "the button's platter, not the beam")
        XCTAssertTrue(h.last.accessories.allSatisfy { $0.alpha < 0.01 }, "nor its accessories")
        h.move(to: point(100, 100))
        h.run(1)
        XCTAssertEqual(h.last.accessories.map(\.shape), [.plus], "away from the button, the style again")
    }

    func testAccessoriesAndHiddenShape() throws {
        var h = Harness()
        h.send(.untargetedStyle(PointerStyle(accessories: try AccessorySet([PointerAccessory(.arrow, position: .left),
                                                                             PointerAccessory(.arrow, position: .right)]))))
        h.move(to: point(200, 200))
        h.run(1)
        XCTAssertEqual(h.last.accessories.count, 2)
        XCTAssertEqual(h.last.accessories[1].center.x, 200 + 17, accuracy: 1e-6)
        h.send(.untargetedStyle(PointerStyle(shape: .hidden)))
        h.run(1)
        XCTAssertEqual(h.last.pointer.alpha, 0, accuracy: 1e-6)
    }

    func testMalformedStyleIsIgnored() {
        var h = Harness()
        h.send(.untargetedStyle(PointerStyle(shape: .verticalBeam(length: .nan))))
        h.send(.untargetedStyle(PointerStyle(shape: .path(Path()))))
        h.run(1)
        XCTAssertEqual(h.engine.untargetedStyle, PointerStyle())
        XCTAssertEqual(h.last.pointer.shape.rect.width, 19, accuracy: 1e-6)
    }
}
