@testable import Backends
import AdaptivePointerEngine
import XCTest

/// The cursor plane's decisions with presentations from a real engine: when the pointer can
/// go on the plane, where, and when its image is drawn again (the DRM calls cannot run here).
final class PointerPlanePlannerTests: XCTestCase {
    private let output = Rect<Global>(x: 0, y: 0, width: 1280, height: 800)
    private var now = 0.0

    private func engine(_ regions: [Region] = [], at p: Point<Global>, settings: PointerSettings = PointerSettings()) -> PointerEngine {
        var e = PointerEngine(outputBounds: output, settings: settings, initialPosition: p)
        for r in regions { try! e.regions.upsert(r) }
        return e
    }

    /// Lets the engine settle (springs, fades) and returns the frame.
    private func settle(_ e: inout PointerEngine, _ seconds: Double = 1) -> PointerPresentation {
        var p = e.step(to: Instant(seconds: now))
        for _ in 0..<Int(seconds * 60) {
            now += 1.0 / 60
            p = e.step(to: Instant(seconds: now))
        }
        return p
    }

    func testPlainCircleGoesOnThePlaneCentredOnItsHotspotAndUploadsOnce() {
        var e = engine(at: Point(x: 100.4, y: 200.6))
        var planner = PointerPlanePlanner()
        let p = settle(&e)
        XCTAssertEqual(planner.plan(p, adaptive: true), .plane(x: 100 - 32, y: 201 - 32, hotspotX: 32, hotspotY: 32, upload: true))
        XCTAssertEqual(planner.plan(p, adaptive: true), .plane(x: 68, y: 169, hotspotX: 32, hotspotY: 32, upload: false),
                       "the same image: not drawn again")
        e.handle(.motion(to: Point(x: 640, y: 10)), at: Instant(seconds: now))
        let moved = settle(&e, 0.5)
        XCTAssertEqual(planner.plan(moved, adaptive: true), .plane(x: 640 - 32, y: 10 - 32, hotspotX: 32, hotspotY: 32, upload: false),
                       "moving only moves the plane (partly off the top of the screen is fine)")
    }

    func testTheArrowGoesOnThePlaneWithItsTipAsTheHotspot() {
        var settings = PointerSettings()
        settings.style = .arrow
        var e = engine(at: Point(x: 300.4, y: 100.6), settings: settings)
        var planner = PointerPlanePlanner()
        let p = settle(&e)
        XCTAssertEqual(planner.plan(p, adaptive: true), .plane(x: 300 - 32, y: 101 - 32, hotspotX: 32, hotspotY: 32, upload: true),
                       "the tip, not the circle's centre, is the hotspot")
        let image = planner.imagePresentation(of: p)
        XCTAssertEqual(image.pointer.arrowTip.x, 32, accuracy: 0.001)
        XCTAssertEqual(image.pointer.arrowTip.y, 32, accuracy: 0.001)
        var both = p
        both.pointer.alpha = 0.5
        XCTAssertEqual(planner.plan(both, adaptive: true), .composite(.crossFade), "circle and arrow cross-fading are composed")
    }

    func testOutputScaleDoublesPositionsAndTheDriversSizeIsUsed() {
        var e = engine(at: Point(x: 300, y: 100))
        var planner = PointerPlanePlanner(width: 128, height: 128, scale: 2)
        XCTAssertEqual(planner.plan(settle(&e), adaptive: true), .plane(x: 600 - 64, y: 200 - 64, hotspotX: 64, hotspotY: 64, upload: true))
        XCTAssertEqual(PointerPlanePlanner(width: 0, height: 0).width, 64, "a driver that says nothing: 64")
    }

    func testPressingChangesTheImage() {
        var e = engine(at: Point(x: 300, y: 300))
        var planner = PointerPlanePlanner()
        _ = planner.plan(settle(&e), adaptive: true)
        e.handle(.button(.pressed), at: Instant(seconds: now))
        guard case .plane(_, _, _, _, let upload) = planner.plan(settle(&e), adaptive: true) else { return XCTFail("not on the plane") }
        XCTAssertTrue(upload, "the pressed pointer is smaller: a new image")
    }

    func testEffectsAccessoriesAndThePenPreviewAreComposed() throws {
        let button = Region(id: RegionID(1), owner: SurfaceID(1), frame: Rect(x: 400, y: 400, width: 80, height: 30),
                            style: PointerStyle(effect: .highlight))
        var e = engine([button], at: Point(x: 440, y: 415))
        var planner = PointerPlanePlanner()
        XCTAssertEqual(planner.plan(settle(&e), adaptive: true), .composite(.contentEffect))

        let plus = try AccessorySet([PointerAccessory(.plus, position: AccessoryPosition(degrees: 90))])
        let adder = Region(id: RegionID(2), owner: SurfaceID(1), frame: Rect(x: 600, y: 400, width: 80, height: 30),
                           style: PointerStyle(effect: .none, accessories: plus))
        var f = engine([adder], at: Point(x: 640, y: 415))
        XCTAssertEqual(planner.plan(settle(&f), adaptive: true), .composite(.accessories))

        var g = engine(at: Point(x: 100, y: 100))
        g.handle(.stylus(.hovering(at: Point(x: 500, y: 500), distance: 0.3)), at: Instant(seconds: now))
        XCTAssertEqual(planner.plan(settle(&g), adaptive: true), .composite(.hoverPreview))
        XCTAssertEqual(planner.plan(settle(&g), adaptive: false), .composite(.clientCursor))
    }

    func testTooLargeForThePlaneIsComposed() {
        var big = engine(at: Point(x: 300, y: 300), settings: PointerSettings(sizeMultiplier: 4))
        var planner = PointerPlanePlanner()
        XCTAssertEqual(planner.plan(settle(&big), adaptive: true), .composite(.tooLarge), "76 points do not fit in 64")
        var roomy = PointerPlanePlanner(width: 256, height: 256)
        guard case .plane = roomy.plan(settle(&big), adaptive: true) else { return XCTFail("a 256-pixel plane takes it") }

        // A drawing tool's ringed circle is plain enough, as long as it fits.
        let paper = Region(id: RegionID(1), owner: SurfaceID(1), frame: Rect(x: 100, y: 100, width: 600, height: 400),
                           drawingTool: DrawingTool(diameter: 40, argb: 0xff00_0000))
        var pen = engine([paper], at: Point(x: 300, y: 300))
        guard case .plane = planner.plan(settle(&pen), adaptive: true) else { return XCTFail("a 40-point pen fits") }
        try! pen.regions.upsert(Region(id: RegionID(1), owner: SurfaceID(1), frame: paper.frame,
                                       drawingTool: DrawingTool(diameter: 120, argb: 0xff00_0000)))
        XCTAssertEqual(planner.plan(settle(&pen), adaptive: true), .composite(.tooLarge))
    }

    func testHiddenPointerTurnsThePlaneOffAndReturningUploadsAgain() {
        var e = engine(at: Point(x: 300, y: 300))
        var planner = PointerPlanePlanner()
        _ = planner.plan(settle(&e), adaptive: true)
        e.handle(.keyTyped, at: Instant(seconds: now))   // typing hides the pointer
        XCTAssertEqual(planner.plan(settle(&e), adaptive: true), .off)
        e.handle(.motion(to: Point(x: 310, y: 300)), at: Instant(seconds: now))
        guard case .plane(_, _, _, _, let upload) = planner.plan(settle(&e), adaptive: true) else { return XCTFail("back on the plane") }
        XCTAssertTrue(upload, "the plane was off: its image is set again")
    }

    func testAfterTheDriverRefusesEverythingIsComposed() {
        var e = engine(at: Point(x: 300, y: 300))
        var planner = PointerPlanePlanner()
        _ = planner.plan(settle(&e), adaptive: true)
        planner.driverRefused()
        XCTAssertEqual(planner.plan(settle(&e), adaptive: true), .composite(.refused))
    }

    func testTheImageIsThePointerAloneCentredInThePlane() {
        var e = engine(at: Point(x: 700.25, y: 20))
        let planner = PointerPlanePlanner(width: 64, height: 64, scale: 2)
        let image = planner.imagePresentation(of: settle(&e))
        XCTAssertEqual(image.pointer.shape.center, Point(x: 16, y: 16), "32 pixels at scale 2")
        XCTAssertEqual(image.pointer.shape.rect.width, 19, accuracy: 0.01)
        XCTAssertNil(image.hoverMark)
        XCTAssertEqual(image.damage, Rect(x: 0, y: 0, width: 32, height: 32))
    }
}
