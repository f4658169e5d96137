import AdaptivePointerClient
import CWaylandClient
import CXcursor
import Foundation
import LodestoneTesting
import XCTest

/// Apps that declare no regions still say what their cursor means: by name with
/// wp_cursor_shape_v1, or by attaching a theme cursor image that Lodestone recognises.
/// Each name becomes its adaptive form (docs/accessibility.md, "Cursor names").
final class CursorShapeTests: XCTestCase {
    static let background: UInt32 = 0xe0e0e0

    /// `lodestone_test_v1` accessory shapes.
    enum Glyph: UInt32 { case arrow, plus, minus, circleSlash, checkmark, path }

    /// A window at (100, 100), the pointer resting in it and its enter serial received.
    private func window(_ f: AdaptiveFixture, title: String = "shapes") throws -> RegionClient {
        let client = try RegionClient(session: f.session, title: title, background: Self.background)
        try f.control.moveWindow(title, x: 100, y: 100)
        try f.move(to: 300, 250)
        try client.sync()
        return client
    }

    /// Lets every animation settle (and nudges the device first: an idle pointer auto-hides).
    private func settled(_ f: AdaptiveFixture) throws -> PointerShape {
        let p = try f.control.pointer()
        try f.control.movePointer(dx: p.x.rounded() == p.x ? 0.5 : -0.5, dy: 0)
        try f.control.advanceClock(milliseconds: 600)
        return try f.probe.shape()
    }

    /// Directions of the accessories from the pointer's centre, degrees clockwise from up.
    private func directions(_ s: PointerShape) -> [Double] {
        s.accessories.map { a in
            let d = atan2(a.x - s.midX, -(a.y - s.midY)) * 180 / .pi
            return d < -1 ? d + 360 : d
        }.sorted()
    }

    // MARK: wp_cursor_shape_v1

    func testEveryShapeHasItsDocumentedPresentation() throws {
        let f = try AdaptiveFixture()
        let client = try window(f)
        typealias K = PointerShape.Kind
        // value, name, kind, accessory glyphs, their directions (nil: not checked).
        let table: [(UInt32, String, K, [Glyph], [Double]?)] = [
            (1, "default", .circle, [], nil), (4, "pointer", .circle, [], nil),
            (16, "grab", .circle, [], nil), (17, "grabbing", .circle, [], nil),
            (9, "text", .verticalBeam, [], nil), (10, "vertical_text", .horizontalBeam, [], nil),
            (8, "crosshair", .custom, [], nil),
            (5, "progress", .circle, [.path], nil), (6, "wait", .circle, [.path], nil),
            (12, "copy", .circle, [.plus], [0]), (33, "zoom_in", .circle, [.plus], [0]),
            (34, "zoom_out", .circle, [.minus], [0]), (11, "alias", .circle, [.arrow], [45]),
            (14, "no_drop", .circle, [.circleSlash], [0]), (15, "not_allowed", .circle, [.circleSlash], [0]),
            (13, "move", .circle, [.arrow, .arrow, .arrow, .arrow], [0, 90, 180, 270]),
            (32, "all_scroll", .circle, [.arrow, .arrow, .arrow, .arrow], [0, 90, 180, 270]),
            (18, "e_resize", .circle, [.arrow], [90]), (19, "n_resize", .circle, [.arrow], [0]),
            (20, "ne_resize", .circle, [.arrow], [45]), (21, "nw_resize", .circle, [.arrow], [315]),
            (22, "s_resize", .circle, [.arrow], [180]), (23, "se_resize", .circle, [.arrow], [135]),
            (24, "sw_resize", .circle, [.arrow], [225]), (25, "w_resize", .circle, [.arrow], [270]),
            (26, "ew_resize", .circle, [.arrow, .arrow], [90, 270]), (27, "ns_resize", .circle, [.arrow, .arrow], [0, 180]),
            (28, "nesw_resize", .circle, [.arrow, .arrow], [45, 225]), (29, "nwse_resize", .circle, [.arrow, .arrow], [135, 315]),
            (30, "col_resize", .circle, [.arrow, .arrow], [90, 270]), (31, "row_resize", .circle, [.arrow, .arrow], [0, 180]),
            // No adaptive form: the theme's own image.
            (2, "context_menu", .clientCursor, [], nil), (3, "help", .clientCursor, [], nil), (7, "cell", .clientCursor, [], nil),
        ]
        XCTAssertEqual(Set(table.map(\.0)), Set(1...34), "every version 1 shape is in the table")
        for (value, name, kind, glyphs, angles) in table {
            try client.setCursorShape(value)
            let s = try settled(f)
            XCTAssertEqual(s.kind, kind, name)
            let visible = s.accessories.filter { $0.alpha > 0.5 }
            XCTAssertEqual(visible.map(\.shape).sorted(), glyphs.map(\.rawValue).sorted(), "\(name) accessories")
            if let angles, visible.count == s.accessories.count {
                for (got, want) in zip(directions(s), angles) { XCTAssertEqual(got, want, accuracy: 8, "\(name) accessory direction") }
            }
            if kind == .verticalBeam { XCTAssertEqual(s.width, 3, accuracy: 0.5, name); XCTAssertGreaterThanOrEqual(s.height, 24, name) }
            if kind == .horizontalBeam { XCTAssertEqual(s.height, 3, accuracy: 0.5, name); XCTAssertGreaterThanOrEqual(s.width, 24, name) }
            if kind == .clientCursor {
                let shot = try f.screenshot()
                XCTAssertGreaterThan(shot.countDiffering(from: Self.background, x: 296, y: 246, width: 24, height: 24).differing, 20,
                                     "\(name): the theme's image is drawn at the pointer")
            }
        }
    }

    func testBusyAccessoryTurns() throws {
        let f = try AdaptiveFixture()
        let client = try window(f)
        try client.setCursorShape(6) // wait
        let a = try settled(f)
        try f.control.advanceClock(milliseconds: 300)
        let b = try f.probe.shape()
        XCTAssertEqual(a.accessories.count, 1)
        XCTAssertEqual(b.accessories.count, 1)
        guard let p = a.accessories.first, let q = b.accessories.first else { return }
        XCTAssertGreaterThan(hypot(p.x - q.x, p.y - q.y), 5, "the busy accessory orbits the pointer")
    }

    func testInvalidShapeIsAProtocolErrorAndOthersKeepRunning() throws {
        let f = try AdaptiveFixture()
        let good = try RegionClient(session: f.session, title: "good", background: Self.background)
        try f.control.moveWindow("good", x: 600, y: 100)
        let bad = try window(f, title: "bad")
        // 35 (dnd_ask) is a version 2 shape: a version 1 client may not ask for it.
        for invalid: UInt32 in [0, 35] {
            let offender = invalid == 0 ? bad : try window(f, title: "bad-\(invalid)")
            XCTAssertThrowsError(try offender.setCursorShape(invalid), "shape \(invalid)")
            let error = offender.connection.protocolError
            XCTAssertEqual(error?.interface, "wp_cursor_shape_device_v1", "shape \(invalid)")
            XCTAssertEqual(error?.code, 1, "invalid_shape")
        }
        // The good client is untouched and still served.
        try f.move(to: 700, 200)
        try good.sync()
        try good.setCursorShape(9)
        XCTAssertEqual(try settled(f).kind, .verticalBeam)
        XCTAssertNotNil(try f.control.windows().first { $0.title == "good" })
    }

    /// Version 2 (wayland-protocols 1.42), bound explicitly: dnd_ask is the copy's plus with a
    /// move arrow, all_resize the four arrows; a value past 36 is still invalid_shape.
    func testVersionTwoShapes() throws {
        let f = try AdaptiveFixture()
        let client = try window(f)
        try client.setCursorShape(35, version: 2)
        var s = try settled(f)
        XCTAssertEqual(s.accessories.filter { $0.alpha > 0.5 }.map(\.shape).sorted(), [Glyph.arrow.rawValue, Glyph.plus.rawValue], "dnd_ask")
        XCTAssertEqual(directions(s).count, 2)
        for (got, want) in zip(directions(s), [0.0, 90]) { XCTAssertEqual(got, want, accuracy: 8, "dnd_ask: the plus above, the arrow to the right") }
        try client.setCursorShape(36, version: 2)
        s = try settled(f)
        XCTAssertEqual(s.accessories.filter { $0.alpha > 0.5 }.map(\.shape), Array(repeating: Glyph.arrow.rawValue, count: 4), "all_resize")
        XCTAssertThrowsError(try client.setCursorShape(37, version: 2))
        XCTAssertEqual(client.connection.protocolError?.code, 1, "invalid_shape")
    }

    func testShapeWithAnOldSerialIsIgnored() throws {
        let f = try AdaptiveFixture()
        let client = try window(f)
        try client.setCursorShape(9, serial: client.lastSerial &- 1)
        XCTAssertEqual(try settled(f).kind, .circle)
        XCTAssertEqual(try f.control.cursor().sets, 0)
    }

    func testDeclaredRegionsWinOverTheCursorName() throws {
        let f = try AdaptiveFixture()
        let client = try window(f)
        try client.setCursorShape(9)
        XCTAssertEqual(try settled(f).kind, .verticalBeam)
        try client.declare(RegionDescription(frame: (20, 20, 80, 40), effect: .highlight, identifier: 3))
        XCTAssertEqual(try settled(f).kind, .circle, "a surface with regions: the name no longer applies")
        let over = try f.move(to: 160, 140)
        XCTAssertTrue(over.targeted)
        XCTAssertEqual(over.kind, .roundedRect)
    }

    func testLegacyAppsOffKeepsTheCircle() throws {
        let f = try AdaptiveFixture(extraArguments: ["--legacy-apps", "off"])
        let client = try window(f)
        try client.setCursorShape(9)
        XCTAssertEqual(try settled(f).kind, .circle)
        try client.setCursorImage(width: 16, height: 16, pixels: Self.pattern)
        XCTAssertEqual(try settled(f).kind, .circle, "off: the circle even over an app's own image")
    }

    func testPointerClientDrawsTheThemeCursorForAShape() throws {
        let f = try AdaptiveFixture(extraArguments: ["--pointer", "client"])
        let client = try window(f)
        try client.setCursorShape(9)
        XCTAssertEqual(try settled(f).kind, .clientCursor)
        let shot = try f.screenshot()
        XCTAssertGreaterThan(shot.countDiffering(from: Self.background, x: 288, y: 238, width: 24, height: 24).differing, 10,
                             "the theme's text cursor is drawn")
    }

    // MARK: Theme cursor images

    /// The frames of `name` in `theme` at `size`, loaded with libXcursor as toolkits do.
    static func themeImage(_ name: String, theme: String, size: Int32) throws -> (width: Int32, height: Int32, hotspot: (Int32, Int32), pixels: [UInt32]) {
        guard let images = XcursorLibraryLoadImages(name, theme, size) else { throw XCTSkip("no \(name) cursor in \(theme)") }
        defer { XcursorImagesDestroy(images) }
        let x = images.pointee.images[0]!.pointee
        let pixels = Array(UnsafeBufferPointer(start: x.pixels, count: Int(x.width * x.height)))
        return (Int32(x.width), Int32(x.height), (Int32(x.xhot), Int32(x.yhot)), pixels)
    }

    func testThemeTextImageBecomesABeam() throws {
        let f = try AdaptiveFixture()
        let client = try window(f)
        for (theme, name) in [("Adwaita", "text"), ("Adwaita", "xterm"), ("DMZ-White", "xterm"), ("DMZ-Black", "xterm")] {
            try client.setCursorShape(1) // back to the circle in between
            let image = try Self.themeImage(name, theme: theme, size: 24)
            try client.setCursorImage(width: image.width, height: image.height, pixels: image.pixels, hotspot: image.hotspot)
            let s = try settled(f)
            XCTAssertEqual(s.kind, .verticalBeam, "\(theme) \(name)")
        }
        // And another name from the theme: a resize edge.
        let ew = try Self.themeImage("ew-resize", theme: "Adwaita", size: 24)
        try client.setCursorImage(width: ew.width, height: ew.height, pixels: ew.pixels, hotspot: ew.hotspot)
        let s = try settled(f)
        XCTAssertEqual(s.kind, .circle)
        XCTAssertEqual(directions(s), [90, 270], "ew-resize: arrows left and right")
    }

    func testThemeImageAtBufferScaleTwoIsRecognised() throws {
        let f = try AdaptiveFixture()
        let client = try window(f)
        let image = try Self.themeImage("text", theme: "Adwaita", size: 48)
        try client.setCursorImage(width: image.width, height: image.height, pixels: image.pixels,
                                  hotspot: (image.hotspot.0 / 2, image.hotspot.1 / 2), scale: 2)
        XCTAssertEqual(try settled(f).kind, .verticalBeam)
    }

    /// 16×16 quadrants: red, green, blue, yellow. No theme draws this.
    static let pattern: [UInt32] = (0..<256).map { i in
        let x = i % 16, y = i / 16
        return [0xffff_0000, 0xff00_ff00, 0xff00_00ff, 0xffff_ff00][(y / 8) * 2 + x / 8]
    }

    func testUnknownImageIsShownAsTheClientDrewIt() throws {
        let f = try AdaptiveFixture()
        let client = try window(f)
        try client.setCursorImage(width: 16, height: 16, pixels: Self.pattern, hotspot: (1, 1))
        XCTAssertEqual(try settled(f).kind, .clientCursor)
        let shot = try f.screenshot()
        // The pointer is at (300, 250); the hotspot (1, 1) puts the image's origin at (299, 249).
        for (dx, dy, color) in [(2, 2, 0xff0000), (12, 2, 0x00ff00), (2, 12, 0x0000ff), (12, 12, 0xffff00)] as [(Int, Int, UInt32)] {
            XCTAssertEqual(shot[299 + dx, 249 + dy], color, "pixel \(dx),\(dy) of the client's image")
        }
    }

    func testHiddenCursorHidesThePointer() throws {
        let f = try AdaptiveFixture()
        let client = try window(f)
        try client.hideCursor()
        XCTAssertEqual(try settled(f).kind, .hidden)
    }

    // MARK: A real app

    /// foot attaches the theme's text cursor over its terminal: the pointer becomes the beam.
    func testFootTextBecomesABeam() throws {
        try requireProgram("foot")
        let f = try AdaptiveFixture()
        try f.session.launch(["foot", "--override=shell=/bin/sh"])
        let window = try f.session.waitForWindow("foot")
        try f.control.moveWindow(window.title, x: 100, y: 100)
        var last: PointerShape?
        // foot sets its cursor when the pointer enters; it is another process, so wait.
        _ = try f.session.wait(timeout: 15) {
            try f.control.movePointer(x: 100 + Double(window.width) / 2, y: 100 + Double(window.height) / 2 + Double.random(in: 0..<2))
            last = try settled(f)
            return last?.kind == .verticalBeam
        }
        XCTAssertEqual(last?.kind, .verticalBeam, "over foot's text: \(String(describing: last)); log:\n\(f.session.log)")
    }
}
