import AdaptivePointerClient
import CWaylandClient
import CWaylandProtocols
import LodestoneTesting
import WaylandClient
import XCTest

/// How the adaptive pointer looks, measured from captured pixels in a headless Lodestone
/// (issue 12, "Look"): contrast ratios, tint and fill opacities, corner and shadow pixels.
/// Each test names the figure it measures in its failure message.
final class AdaptivePointerLookTests: XCTestCase {
    static let light: UInt32 = 0xfff4_f4f6
    static let dark: UInt32 = 0xff1c_1c1e
    static let ink: UInt32 = 0xff1d_1d1f
    static let paper: UInt32 = 0xfff2_f2f7

    // MARK: 1. Highlight: the platter beneath the element's content

    /// A bar button without a preview surface: a glyph (a box of ink) on the window's own
    /// background. Under the highlight its contrast with the pixels around it stays within 80%
    /// of the original, on light and on dark content, and the platter still shows.
    func testHighlightWithoutPreviewKeepsTheGlyphsContrast() throws {
        for (background, glyph) in [(Self.light, Self.ink), (Self.dark, Self.paper)] {
            let f = try AdaptiveFixture()
            let client = try RegionClient(session: f.session, title: "toolbar", background: background,
                                          boxes: [(134, 114, 12, 12, glyph)])
            defer { withExtendedLifetime(client) {} }
            try f.control.moveWindow("toolbar", x: 100, y: 100)
            try client.declare(RegionDescription(frame: (120, 100, 40, 40), effect: .highlight, identifier: 1))
            let before = try f.screenshot()
            let s = try f.move(to: 240, 220)
            XCTAssertEqual(s.effect, .highlight)
            XCTAssertEqual(s.effectProgress, 1, accuracy: 0.05)
            let shot = try f.screenshot()
            // The glyph's centre, and the button's background beside the glyph.
            let (gx, gy, bx, by) = (240, 220, 226, 220)
            let original = contrast(before[gx, gy], before[bx, by])
            let highlighted = contrast(shot[gx, gy], shot[bx, by])
            let kind = background == Self.light ? "light" : "dark"
            print("highlight glyph contrast (\(kind)): \(fmt(original)):1 → \(fmt(highlighted)):1 (\(fmt(100 * highlighted / original))%)")
            XCTAssertGreaterThanOrEqual(highlighted, 0.8 * original,
                                        "\(kind): glyph contrast \(fmt(highlighted)):1 under the platter, \(fmt(original)):1 before")
            XCTAssertGreaterThan(distance(shot[bx, by], background), 12, "\(kind): the platter shows around the glyph")
            XCTAssertGreaterThan(distance(shot[221, 204], background), 12, "\(kind): and at the button's corner")
        }
    }

    // MARK: 2. Lift: the region's corner radius, a soft shadow, a visible specular

    /// A round button (64×64, radius 32) lifts round: outside the grown circle, in the corners
    /// of its bounding square, no element pixels and no background wedges, and the shadow
    /// is as dark diagonally as it is sideways at the same distance from its centre.
    func testRoundElementLiftsRound() throws {
        let f = try AdaptiveFixture()
        let blue: UInt32 = 0xff20_60d0
        let client = try RegionClient(session: f.session, title: "round", background: Self.light, boxes: [])
        defer { withExtendedLifetime(client) {} }
        try client.draw(background: Self.light, boxes: disc(cx: 150, cy: 120, r: 32, color: blue))
        try f.control.moveWindow("round", x: 100, y: 100)
        var d = RegionDescription(frame: (118, 88, 64, 64), effect: .lift, identifier: 2)
        d.opaque = true
        d.cornerRadius = 32
        try client.declare(d)
        let s = try f.move(to: 250, 220)
        XCTAssertEqual(s.effect, .lift)
        let shot = try f.screenshot()
        let (cx, cy) = (250.0, 220.0)
        let r = 32 * s.effectScale
        // The corners of the lifted element's bounding square, 3 points in: outside the circle.
        var cornerReport: [String] = []
        for (sx, sy) in [(-1.0, -1.0), (1, -1), (-1, 1), (1, 1)] {
            let p = shot[Int(cx + sx * (r - 3)), Int(cy + sy * (r - 3))]
            cornerReport.append(String(p, radix: 16))
            XCTAssertGreaterThan(distance(p, blue), 150, "corner (\(sx), \(sy)) shows no element pixel: \(String(p, radix: 16))")
            // The top corners are far from the shadow, which falls downward: background.
            if sy < 0 { XCTAssertLessThan(distance(p, Self.light), 24, "top corner (\(sx)) is background: \(String(p, radix: 16))") }
        }
        // Round shadow: beside the element and on its diagonal, at the same distance from the
        // shadow's centre (below the element's), the same darkness.
        let offset = 8.0
        let reach = r + 10
        func darkening(_ x: Double, _ y: Double) -> Int { (brightness(Self.light) - brightness(shot[Int(x.rounded()), Int(y.rounded())])) / 3 }
        let side = darkening(cx + reach, cy + offset)
        let diagonal = darkening(cx + reach * 0.7071, cy + offset - reach * 0.7071)
        print("round lift: corners \(cornerReport), shadow beside \(side), diagonal \(diagonal) (of 3×255)")
        XCTAssertGreaterThan(side, 2, "a shadow beside the lifted element")
        XCTAssertEqual(Double(diagonal), Double(side), accuracy: max(3, Double(side) * 0.35), "the shadow is round")
    }

    /// A radius-15 icon: its lifted corners are the shadow over the background, never the
    /// snapshot's background pasted over the shadow (the white wedges).
    func testLiftUsesTheRegionsCornerRadius() throws {
        let f = try AdaptiveFixture()
        let green: UInt32 = 0xff34_c759
        let client = try RegionClient(session: f.session, title: "icon", background: 0xffff_ffff, boxes: [])
        defer { withExtendedLifetime(client) {} }
        try client.draw(background: 0xffff_ffff, boxes: roundedBox(x: 118, y: 88, w: 64, h: 64, r: 15, color: green))
        try f.control.moveWindow("icon", x: 100, y: 100)
        var d = RegionDescription(frame: (118, 88, 64, 64), effect: .lift, identifier: 3)
        d.opaque = true
        d.cornerRadius = 15
        try client.declare(d)
        let s = try f.move(to: 250, 220)
        let shot = try f.screenshot()
        let half = 32 * s.effectScale
        // The lifted element's bottom corners, 4×4 pixels each: outside the radius-15 outline
        // (the corner of its bounding square), deep in the shadow that falls below it. A
        // radius-8 clip would paste the snapshot's white there, over the shadow.
        var brightest = 0, greenest = 0
        for x0 in [Int(250 + half) - 4, Int((250 - half).rounded(.up))] {
            for y in Int(220 + half) - 4..<Int(220 + half) {
                for x in x0..<x0 + 4 {
                    let p = shot[x, y], c = channels(p)
                    brightest = max(brightest, brightness(p))
                    greenest = max(greenest, c.g - c.r)
                }
            }
        }
        print("radius-15 lift: brightest bottom-corner pixel \(brightest) of 765, green excess \(greenest)")
        XCTAssertLessThan(brightest, 765 - 36, "the shadow shows in the corners, not the page's white")
        XCTAssertLessThan(greenest, 12, "no element pixel in the rounded corners")
    }

    /// The lift shadow is soft and falls downward: darker below than above, still there 14
    /// points below the lifted edge, with no hard steps.
    func testLiftShadowIsSoftAndFallsDownward() throws {
        let f = try AdaptiveFixture()
        let blue: UInt32 = 0xff20_60d0
        let client = try RegionClient(session: f.session, title: "shadow", background: Self.light,
                                      boxes: [(110, 80, 80, 80, blue)])
        defer { withExtendedLifetime(client) {} }
        try f.control.moveWindow("shadow", x: 100, y: 100)
        var d = RegionDescription(frame: (110, 80, 80, 80), effect: .lift, identifier: 4)
        d.opaque = true
        try client.declare(d)
        let s = try f.move(to: 250, 220)
        let shot = try f.screenshot()
        let half = 40 * s.effectScale
        // Per channel, in levels of 255.
        func darkening(_ y: Double) -> Int { (brightness(Self.light) - brightness(shot[250, Int(y.rounded())])) / 3 }
        let below = darkening(220 + half + 3), above = darkening(220 - half - 3)
        let far = darkening(220 + half + 14)
        var steepest = 0
        var profile: [Int] = []
        for k in 1...30 {
            let a = darkening(220 + half + Double(k)), b = darkening(220 + half + Double(k + 1))
            profile.append(a)
            steepest = max(steepest, abs(a - b))
        }
        print("lift shadow: above \(above), below \(below), 14 pt below \(far), steepest step \(steepest); profile \(profile)")
        XCTAssertGreaterThan(below, 2 * max(above, 1), "darker below the element than above it")
        XCTAssertGreaterThanOrEqual(far, 3, "still there 14 points below the lifted edge")
        XCTAssertLessThanOrEqual(steepest, 5, "no hard edge in the falloff")
    }

    /// The specular highlight brightens the element where the pointer is, visibly.
    func testLiftSpecularIsVisible() throws {
        let f = try AdaptiveFixture()
        let green: UInt32 = 0xff6c_c070
        let client = try RegionClient(session: f.session, title: "specular", background: Self.light,
                                      boxes: [(110, 80, 80, 80, green)])
        defer { withExtendedLifetime(client) {} }
        try f.control.moveWindow("specular", x: 100, y: 100)
        var d = RegionDescription(frame: (110, 80, 80, 80), effect: .lift, identifier: 5)
        d.opaque = true
        try client.declare(d)
        try f.move(to: 250, 220)
        let shot = try f.screenshot()
        let gain = luma(shot[250, 220]) - luma(green)
        print("lift specular: luma +\(fmt(gain))/255 at the pointer")
        XCTAssertGreaterThanOrEqual(gain, 14, "specular highlight: +\(fmt(gain))/255")
    }

    // MARK: 3. Hover tint

    /// The overlay and the underlay tint are the configured 10%, within 2%.
    func testHoverTintIsTheConfiguredOpacity() throws {
        let f = try AdaptiveFixture()
        let blue: UInt32 = 0xff20_60d0
        let client = try RegionClient(session: f.session, title: "hover", background: Self.light,
                                      boxes: [(40, 40, 100, 60, blue), (200, 40, 100, 60, blue)])
        defer { withExtendedLifetime(client) {} }
        try f.control.moveWindow("hover", x: 100, y: 100)
        var overlay = RegionDescription(frame: (40, 40, 100, 60), effect: .hover, identifier: 6)
        overlay.hover = (.overlay, false, false)
        var underlay = RegionDescription(frame: (200, 40, 100, 60), effect: .hover, identifier: 7)
        underlay.hover = (.underlay, false, false)
        try client.declare(overlay)
        try client.declare(underlay)
        // The tint's colour: the hover grey (0.33, 0.33, 0.35).
        let tint = (r: 0.33 * 255, g: 0.33 * 255, b: 0.35 * 255)
        func opacity(_ out: UInt32, over base: UInt32) -> Double {
            let o = channels(out), c = channels(base)
            var sum = 0.0, n = 0.0
            for (oc, bc, t) in [(o.r, c.r, tint.r), (o.g, c.g, tint.g), (o.b, c.b, tint.b)] where abs(Double(bc) - t) > 40 {
                sum += (Double(bc) - Double(oc)) / (Double(bc) - t); n += 1
            }
            return sum / n
        }
        try f.move(to: 190, 170)
        let a = try f.screenshot()
        let overlayOpacity = opacity(a[150, 150], over: blue)
        try f.move(to: 350, 170)
        let b = try f.screenshot()
        // The underlay shows in the rim around the element (element + 4).
        let underlayOpacity = opacity(b[298, 170], over: Self.light)
        print("hover tint: overlay \(fmt(100 * overlayOpacity))%, underlay \(fmt(100 * underlayOpacity))% (configured 10%)")
        XCTAssertEqual(overlayOpacity, 0.10, accuracy: 0.02, "overlay tint")
        XCTAssertEqual(underlayOpacity, 0.10, accuracy: 0.02, "underlay tint")
    }

    // MARK: 4. Band selection

    /// The band is a light translucent fill (≤ 20% opaque) with a thin border on exactly the
    /// rectangle the client is told, the press scale not applied.
    func testBandIsALightFillWithABorderAtTheReportedRectangle() throws {
        let f = try AdaptiveFixture()
        // A white and a black box under the band: the fill's opacity is what it takes from each.
        let client = try RegionClient(session: f.session, title: "band", background: Self.light,
                                      boxes: [(60, 60, 60, 100, 0xffff_ffff), (120, 60, 60, 100, 0xff00_0000)])
        defer { withExtendedLifetime(client) {} }
        try f.control.moveWindow("band", x: 100, y: 100)
        var d = RegionDescription(frame: (20, 20, 360, 260), effect: .none, identifier: 8)
        d.bandSelection = true
        try client.declare(d)
        try f.move(to: 140, 130, settle: 100)
        try f.control.button(pressed: true)
        try f.control.movePointer(x: 240, y: 210)
        try f.control.movePointer(x: 300, y: 290)
        try f.control.advanceClock(milliseconds: 500)
        XCTAssertEqual(try f.probe.shape().kind, .band)
        try client.sync()
        let band = try XCTUnwrap(client.bands.last)
        let (x0, y0) = (Int(band.1.rounded()) + 100, Int(band.2.rounded()) + 100)
        let (x1, y1) = (x0 + Int(band.3.rounded()), y0 + Int(band.4.rounded()))
        XCTAssertEqual([x0, y0, x1, y1], [140, 130, 300, 290], "the reported rectangle")
        let shot = try f.screenshot()
        defer { _ = try? f.control.button(pressed: false) }
        // Opacity from the two boxes: out(white) − out(black) = (1 − α) · 255.
        let onWhite = channels(shot[190, 200]), onBlack = channels(shot[250, 200])
        let alpha = 1 - Double(onWhite.g - onBlack.g) / 255
        print("band fill opacity \(fmt(100 * alpha))%")
        XCTAssertLessThanOrEqual(alpha, 0.2, "band fill opacity")
        XCTAssertGreaterThanOrEqual(alpha, 0.05, "a visible fill")
        // The fill reaches the border (the press scale does not shrink it): two pixels in from
        // the left edge, over the window's background, as deep inside over the same background.
        XCTAssertLessThan(distance(shot[x0 + 2, 275], shot[x0 + 60, 275]), 6, "the fill is not shrunk by the press scale")
        XCTAssertGreaterThan(distance(shot[x0 + 2, 275], Self.light), 6, "the fill is there")
        // The border: on the rectangle's outermost pixels, not one pixel outside.
        for (inside, outside, what) in [((x0, 275), (x0 - 1, 275), "left"), ((x1 - 1, 275), (x1, 275), "right"),
                                        ((150, y0), (150, y0 - 1), "top"), ((150, y1 - 1), (150, y1), "bottom")] {
            let i = shot[inside.0, inside.1], o = shot[outside.0, outside.1]
            XCTAssertGreaterThan(distance(i, Self.light), 40, "\(what) border on the rectangle: \(String(i, radix: 16))")
            XCTAssertLessThan(distance(o, Self.light), 4, "nothing outside the \(what) edge: \(String(o, radix: 16))")
        }
    }

    // MARK: 5. The circle on any background

    /// The circle keeps at least 3:1 against white, mid-grey and black.
    func testCircleKeepsContrastOnWhiteGreyAndBlack() throws {
        let f = try AdaptiveFixture()
        let backgrounds: [UInt32] = [0xffff_ffff, 0xff80_8080, 0xff00_0000]
        let client = try RegionClient(session: f.session, title: "contrast", background: Self.light,
                                      boxes: [(20, 20, 100, 100, backgrounds[0]), (140, 20, 100, 100, backgrounds[1]),
                                              (260, 20, 100, 100, backgrounds[2])])
        defer { withExtendedLifetime(client) {} }
        try f.control.moveWindow("contrast", x: 100, y: 100)
        var report: [String] = []
        for (i, bg) in backgrounds.enumerated() {
            let x = 100.0 + 70 + 120 * Double(i), y = 170.0
            try f.move(to: x, y)
            let shot = try f.screenshot()
            let c = contrast(shot[Int(x), Int(y)], bg)
            report.append("\(String(bg & 0xffffff, radix: 16)): \(fmt(c)):1")
            XCTAssertGreaterThanOrEqual(c, 3, "circle contrast on \(String(bg & 0xffffff, radix: 16))")
        }
        print("circle contrast: \(report.joined(separator: ", "))")
    }

    // MARK: 6. Upright accessories

    /// A plus at 45° with the upright flag (protocol version 2) stays a plus; without it,
    /// as for version 1, it turns with its angle into a ×.
    func testUprightPlusAtFortyFiveDegreesStaysAPlus() throws {
        for upright in [true, false] {
            let f = try AdaptiveFixture()
            let client = try RegionClient(session: f.session, title: "accessory", background: Self.light, boxes: [])
            defer { withExtendedLifetime(client) {} }
            try f.control.moveWindow("accessory", x: 100, y: 100)
            var d = RegionDescription(frame: (20, 20, 300, 200), effect: .none, identifier: 9)
            d.magnetism = .off
            let region = try client.declare(d, commit: false)
            // The raw request: flags 2 is `upright`, new in version 2.
            region.request { adaptive_pointer_region_v1_add_accessory($0, 1, wl_fixed_from_double(45), 0, upright ? 2 : 0) }
            try client.commit()
            let s = try f.move(to: 250, 220)
            let a = try XCTUnwrap(s.accessories.first, "the plus is shown")
            let shot = try f.screenshot()
            func inked(_ dx: Double, _ dy: Double) -> Bool {
                distance(shot[Int((a.x + dx).rounded(.down)), Int((a.y + dy).rounded(.down))], Self.light) > 60
            }
            let arms = [(3.5, 0.0), (-3.5, 0), (0, 3.5), (0, -3.5)].filter { inked($0.0, $0.1) }.count
            let diagonals = [(3.0, 3.0), (-3, 3), (3, -3), (-3, -3)].filter { inked($0.0, $0.1) }.count
            print("plus at 45° \(upright ? "upright" : "rotated"): \(arms)/4 arm pixels, \(diagonals)/4 diagonal pixels inked")
            if upright {
                XCTAssertEqual(arms, 4, "an upright plus has its horizontal and vertical arms")
                XCTAssertEqual(diagonals, 0, "and nothing on the diagonals")
            } else {
                XCTAssertEqual(diagonals, 4, "a version 1 plus at 45° is drawn as ×")
                XCTAssertEqual(arms, 0)
            }
        }
    }

    /// Version 1 keeps today's rules: a client bound at version 1 cannot ask for an upright
    /// accessory (invalid_enum), while the Swift library binds the newest (3).
    func testVersionOneClientsKeepTheirAccessoryFlags() throws {
        let f = try AdaptiveFixture()
        let client = try RegionClient(session: f.session, title: "v2", background: Self.light, boxes: [])
        defer { withExtendedLifetime(client) {} }
        XCTAssertEqual(client.adaptive.version, AdaptivePointer.supportedVersion, "the library binds the newest version")
        XCTAssertGreaterThanOrEqual(client.adaptive.version, 2)
        let connection = try f.session.connect()
        let registry = connection.registry()
        guard let compositor = registry.bind(cwp_wl_compositor_interface(), version: 4),
              let manager = registry.bind(cwp_adaptive_pointer_manager_v1_interface(), version: 1) else {
            throw TestFailure("no wl_compositor or adaptive_pointer_manager_v1")
        }
        let surface = wl_compositor_create_surface(compositor)!
        let holder = adaptive_pointer_manager_v1_get_surface(manager, surface)!
        let region = adaptive_pointer_surface_v1_create_region(holder)!
        // Freed on this side when the test ends (the connection ends with the error).
        let proxies = [compositor, manager, surface, holder, region].map { Proxy($0, on: connection) }
        defer { withExtendedLifetime(proxies) {} }
        adaptive_pointer_region_v1_add_accessory(region, 1, wl_fixed_from_double(45), 0, 2)
        XCTAssertThrowsError(try connection.roundtrip())
        let error = try XCTUnwrap(connection.protocolError)
        XCTAssertEqual(error.interface, "adaptive_pointer_region_v1")
        XCTAssertEqual(error.code, 1, "invalid_enum")
    }
}

// MARK: Measuring

/// WCAG relative luminance of a 0xRRGGBB pixel.
func relativeLuminance(_ p: UInt32) -> Double {
    func linear(_ v: Int) -> Double {
        let c = Double(v) / 255
        return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
    }
    let c = channels(p)
    return 0.2126 * linear(c.r) + 0.7152 * linear(c.g) + 0.0722 * linear(c.b)
}

/// WCAG contrast ratio of two pixels (1…21).
func contrast(_ a: UInt32, _ b: UInt32) -> Double {
    let la = relativeLuminance(a), lb = relativeLuminance(b)
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
}

/// Rec. 709 luma in 0…255.
func luma(_ p: UInt32) -> Double {
    let c = channels(p)
    return 0.2126 * Double(c.r) + 0.7152 * Double(c.g) + 0.0722 * Double(c.b)
}

func fmt(_ v: Double) -> String { String(format: "%.1f", v) }

/// A filled disc as one-pixel rows of boxes (the test client draws rectangles).
func disc(cx: Int32, cy: Int32, r: Int32, color: UInt32) -> [(x: Int32, y: Int32, width: Int32, height: Int32, color: UInt32)] {
    (cy - r..<cy + r).map { y in
        let dy = Double(y) + 0.5 - Double(cy)
        let half = Int32((Double(r * r) - dy * dy).squareRoot().rounded())
        return (cx - half, y, 2 * half, 1, color)
    }
}

/// A rounded rectangle as one-pixel rows.
func roundedBox(x: Int32, y: Int32, w: Int32, h: Int32, r: Int32, color: UInt32)
    -> [(x: Int32, y: Int32, width: Int32, height: Int32, color: UInt32)] {
    (y..<y + h).map { row in
        let fromTop = Double(row - y) + 0.5, fromBottom = Double(y + h - row) - 0.5
        let d = Double(r) - min(fromTop, fromBottom, Double(r))
        let inset = Int32((Double(r) - (Double(r * r) - d * d).squareRoot()).rounded())
        return (x + inset, row, w - 2 * inset, 1, color)
    }
}
