import Foundation
import XCTest
@testable import AdaptivePointerEngine

final class GeometryTests: XCTestCase {
    func testSurfacePlacementMapsLocalRectsIntoGlobalSpaceAndBack() {
        let placement = SurfacePlacement(origin: point(100, 50), scale: 2)
        let local = Rect<SurfaceLocal>(x: 10, y: 5, width: 20, height: 8)
        let global = placement.toGlobal(local)
        XCTAssertEqual(global, rect(120, 60, 40, 16))
        XCTAssertEqual(placement.toLocal(global), local)
        XCTAssertEqual(placement.toGlobal(Point<SurfaceLocal>(x: 1, y: 1)), point(102, 52))
    }

    func testLocalRegionConversionScalesFrameRadiusAndPadding() {
        let placement = SurfacePlacement(origin: point(10, 10), scale: 2)
        let base = region(1, .zero)
        var local = LocalRegion(region: base, frame: Rect(x: 0, y: 0, width: 10, height: 10), hitArea: .padding(3))
        local.region.cornerRadius = 4
        let g = placement.toGlobal(local)
        XCTAssertEqual(g.frame, rect(10, 10, 20, 20))
        XCTAssertEqual(g.hitArea, .padding(6))
        XCTAssertEqual(g.cornerRadius, 8)
    }

    func testRectContainmentIsHalfOpenSoSharedEdgesBelongToOneRect() {
        let a = rect(0, 0, 10, 10), b = rect(10, 0, 10, 10)
        let edge = point(10, 5)
        XCTAssertFalse(a.contains(edge))
        XCTAssertTrue(b.contains(edge))
        XCTAssertEqual(a.union(b), rect(0, 0, 20, 10))
        XCTAssertEqual(a.distance(to: point(13, 14)), 5)
        XCTAssertEqual(a.outset(by: 2), rect(-2, -2, 14, 14))
    }

    func testRoundedRectLimitsItsRadiusToHalfTheShorterSide() {
        XCTAssertEqual(RoundedRect(rect: rect(0, 0, 3, 40), cornerRadius: 8).cornerRadius, 1.5)
        XCTAssertEqual(RoundedRect<Global>.circle(center: point(5, 5), diameter: 19).cornerRadius, 9.5)
    }

    func testPathBoundsCoverControlPoints() {
        var p = Path<PointerLocal>()
        p.move(to: Point(x: 0, y: 0))
        p.addLine(to: Point(x: 10, y: 0))
        p.addQuadCurve(to: Point(x: 10, y: 10), control: Point(x: 20, y: 5))
        p.addCurve(to: Point(x: 0, y: 10), control1: Point(x: 5, y: 15), control2: Point(x: -3, y: 12))
        p.close()
        XCTAssertEqual(p.bounds, Rect(x: -3, y: 0, width: 23, height: 15))
        XCTAssertNoThrow(try p.validate())
    }

    func testMalformedPathsAreRejectedWithAReason() {
        XCTAssertThrowsError(try Path<PointerLocal>().validate()) { XCTAssertEqual($0 as? PathError, .empty) }
        XCTAssertThrowsError(try Path<PointerLocal>([.line(to: .zero)]).validate()) {
            XCTAssertEqual($0 as? PathError, .missingInitialMove)
        }
        XCTAssertThrowsError(try Path<PointerLocal>([.move(to: .zero), .line(to: Point(x: .nan, y: 0))]).validate()) {
            XCTAssertEqual($0 as? PathError, .nonFinitePoint(elementIndex: 1))
        }
        let long = Path<PointerLocal>([.move(to: .zero)] + Array(repeating: .line(to: .zero), count: 2000))
        XCTAssertThrowsError(try long.validate())
    }

    func testRegionValidationNamesTheProblem() {
        XCTAssertThrowsError(try region(1, rect(0, 0, -4, 10)).validate()) {
            XCTAssertEqual($0 as? RegionError, .negativeSize)
        }
        XCTAssertThrowsError(try region(1, rect(0, 0, .infinity, 10)).validate())
        let chatty = region(1, rect(0, 0, 4, 4)) { $0.annotation = String(repeating: "x", count: 65) }
        XCTAssertThrowsError(try chatty.validate()) {
            XCTAssertEqual($0 as? RegionError, .annotationTooLong(length: 65, maximum: 64))
        }
        XCTAssertThrowsError(try region(1, rect(0, 0, 4, 4), shape: .verticalBeam(length: 0)).validate())
        var store = PointerEngine(outputBounds: output).regions
        XCTAssertThrowsError(try store.upsert(region(1, rect(0, 0, .nan, 4))))
        XCTAssertEqual(store.count, 0)
    }

    func testHitAreaPaddingDefaultsTo12WithBezelAnd24Without() {
        XCTAssertEqual(region(1, rect(100, 100, 40, 20)).hitRect, rect(88, 88, 64, 44))
        XCTAssertEqual(region(1, rect(100, 100, 40, 20), hitArea: .bezelless).hitRect, rect(76, 76, 88, 68))
        XCTAssertEqual(region(1, rect(100, 100, 40, 20), hitArea: .explicit(rect(0, 0, 5, 5))).hitRect, rect(0, 0, 5, 5))
        XCTAssertEqual(region(1, rect(100, 100, 40, 20)).cornerRadius, 8)
    }

    func testPureSwiftMathMatchesTheCLibrary() {
        var rng = SplitMix64(seed: 3)
        for _ in 0..<2000 {
            let x = rng.double(-40...40)
            XCTAssertEqual(Math.exp(x), Foundation.exp(x), accuracy: Foundation.exp(x) * 1e-14)
            XCTAssertEqual(Math.sin(x), Foundation.sin(x), accuracy: 1e-14)
            XCTAssertEqual(Math.cos(x), Foundation.cos(x), accuracy: 1e-14)
            let y = rng.double(-5...5)
            XCTAssertEqual(Math.atan2(y, x), Foundation.atan2(y, x), accuracy: 1e-14)
        }
        XCTAssertEqual(Math.atan2(1, 0), Double.pi / 2)
        XCTAssertEqual(Math.exp(-800), 0)
    }
}
