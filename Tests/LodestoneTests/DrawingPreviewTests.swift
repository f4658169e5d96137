import AdaptivePointerClient
import CWaylandClient
import LodestoneTesting
import XCTest

/// adaptive_pointer_v1 version 3: a drawing region's tool is what the pen's hover preview and
/// the pointer show over it; version 1 clients are unchanged; bad diameters are protocol errors.
final class DrawingPreviewTests: XCTestCase {
    private var fixture: AdaptiveFixture!

    override func setUpWithError() throws { fixture = try AdaptiveFixture() }
    override func tearDown() { fixture = nil }

    /// A light page at (100, 100) with a drawing region over (20, 20, 360, 260) of the window.
    private let page: UInt32 = 0xffe0_e0e0
    private let ink: UInt32 = 0xff20_40d0   // opaque blue
    private func canvas(version: UInt32 = AdaptivePointer.supportedVersion, diameter: Double = 24) throws -> (RegionClient, PointerRegion) {
        let client = try RegionClient(session: fixture.session, title: "paper", background: page, protocolVersion: version)
        try fixture.control.moveWindow("paper", x: 100, y: 100)
        var d = RegionDescription(frame: (20, 20, 360, 260), effect: .hover, identifier: 7)
        d.drawingPreview = .init(diameter: diameter, color: ink)
        return (client, try client.declare(d))
    }

    /// The pen hovering at contact distance shows a disc exactly the tool's width in its ink;
    /// further away it grows (3.2 times at the edge of proximity) and fades.
    func testPenHoverPreviewTakesTheToolsSizeAndInk() throws {
        let (client, _) = try canvas()
        XCTAssertGreaterThanOrEqual(client.adaptive.version, 3, "drawing previews are version 3")
        try fixture.control.tabletTool(.proximityIn, x: 300, y: 250, distance: 0)
        try fixture.control.advanceClock(milliseconds: 100)
        var preview = try fixture.probe.preview()
        XCTAssertTrue(preview.hover)
        XCTAssertEqual(preview.hoverX, 300, accuracy: 0.01)
        XCTAssertEqual(preview.hoverDiameter, 24, accuracy: 0.01, "at contact, the stroke's width")
        XCTAssertEqual(preview.hoverColor, ink)

        let shot = try fixture.screenshot()
        XCTAssertLessThan(distance(shot[300, 250], ink & 0xffffff), 60, "the ink at the centre: \(String(shot[300, 250], radix: 16))")
        XCTAssertLessThan(distance(shot[300 + 9, 250], ink & 0xffffff), 80, "still ink 9 points out (radius 12)")
        XCTAssertEqual(shot[300 + 16, 250], page & 0xffffff, "the page beyond the tool's radius")

        try fixture.control.tabletTool(.axes, x: 300, y: 250, distance: 1)
        preview = try fixture.probe.preview()
        XCTAssertEqual(preview.hoverDiameter, 24 * 3.2, accuracy: 0.01, "the edge of proximity")
        XCTAssertLessThan(preview.hoverAlpha, 0.5)
        let far = try fixture.screenshot()
        XCTAssertNotEqual(far[300 + 30, 250], page & 0xffffff, "the grown preview reaches 30 points out")

        // Outside the drawing region the plain preview (5 points at contact) shows.
        try fixture.control.tabletTool(.axes, x: 50, y: 50, distance: 0)
        preview = try fixture.probe.preview()
        XCTAssertEqual(preview.hoverDiameter, 5, accuracy: 0.01)
        XCTAssertNotEqual(preview.hoverColor, ink)
    }

    /// The mouse over the drawing region: the pointer becomes the tool (its width, its ink),
    /// exactly at the device, no magnetism; in the hit padding and beyond, the plain circle.
    func testPointerOverTheRegionIsTheToolPreview() throws {
        let (client, _) = try canvas(diameter: 40)
        defer { withExtendedLifetime(client) {} }
        var shape = try fixture.move(to: 250, 200)
        XCTAssertEqual(shape.kind, .circle)
        XCTAssertEqual(shape.width, 40, accuracy: 0.01)
        XCTAssertEqual(shape.midX, 250, accuracy: 0.01, "no magnetism")
        XCTAssertEqual(shape.effect, .none, "no content effect, though the region asked for hover")
        XCTAssertEqual(try fixture.probe.preview().pointerColor, ink)
        let shot = try fixture.screenshot()
        XCTAssertLessThan(distance(shot[250, 200], ink & 0xffffff), 40, "the pointer is the ink: \(String(shot[250, 200], radix: 16))")
        XCTAssertEqual(shot[250 + 26, 200], page & 0xffffff, "no wider than the tool")

        shape = try fixture.move(to: 112, 112)   // in the 12-point hit padding, outside the frame
        XCTAssertEqual(shape.width, 19, accuracy: 0.01, "the plain circle")
        XCTAssertNotEqual(try fixture.probe.preview().pointerColor, ink)
    }

    /// Clearing the preview (and replacing it) takes effect with the next commit.
    func testClearingTheToolRestoresThePlainPointer() throws {
        let (client, region) = try canvas(diameter: 40)
        XCTAssertEqual(try fixture.move(to: 250, 200).width, 40, accuracy: 0.01)
        XCTAssertTrue(region.setDrawingPreview(diameter: 8, color: 0xff00_0000))
        try client.commit()
        XCTAssertEqual(try fixture.move(to: 251, 200).width, 8, accuracy: 0.01, "a new brush size")
        XCTAssertTrue(region.clearDrawingPreview())
        try client.commit()
        let shape = try fixture.move(to: 252, 200)
        XCTAssertEqual(shape.effect, .hover, "the region's own effect is back")
    }

    /// A version 1 client: the library sends no version 3 request and the region behaves as
    /// before (its hover effect, the plain circle).
    func testVersionOneClientIsUnchanged() throws {
        let (client, region) = try canvas(version: 1)
        XCTAssertEqual(client.adaptive.version, 1)
        XCTAssertFalse(region.setDrawingPreview(diameter: 10, color: ink), "not sent on a version 1 object")
        let shape = try fixture.move(to: 250, 200)
        XCTAssertEqual(shape.width, 19, accuracy: 0.01)
        XCTAssertEqual(shape.effect, .hover)
        try fixture.control.tabletTool(.proximityIn, x: 300, y: 250, distance: 0)
        XCTAssertEqual(try fixture.probe.preview().hoverDiameter, 5, accuracy: 0.01)
        try client.sync()
        XCTAssertNil(client.connection.protocolError)
    }

    /// Non-positive and huge diameters are invalid_drawing_preview (7), named in the message;
    /// only that client goes.
    func testBadDiametersAreProtocolErrors() throws {
        let good = try RegionClient(session: fixture.session, title: "good")
        try fixture.control.moveWindow("good", x: 600, y: 100)
        try good.declare(RegionDescription(frame: (50, 50, 60, 30), effect: .highlight, identifier: 42))
        for (diameter, words) in [(0.0, "diameter 0.0 is not positive"), (-3, "diameter -3.0 is not positive"),
                                  (600, "diameter 600.0 exceeds 512")] {
            let bad = try RegionClient(session: fixture.session, title: "bad")
            let region = try bad.declare(RegionDescription(frame: (10, 10, 20, 20)))
            XCTAssertThrowsError(try { region.setDrawingPreview(diameter: diameter, color: ink); try bad.sync() }())
            let error = try XCTUnwrap(bad.connection.protocolError)
            XCTAssertEqual(error.interface, "adaptive_pointer_region_v1")
            XCTAssertEqual(error.code, 7)
            XCTAssertTrue(fixture.session.log.contains("invalid drawing preview: \(words)"), fixture.session.log)
        }
        XCTAssertTrue(fixture.session.compositorIsRunning)
        let s = try fixture.move(to: 600 + 80, 100 + 65)
        XCTAssertEqual(s.identifier, 42, "the good client's region survives")
    }
}
