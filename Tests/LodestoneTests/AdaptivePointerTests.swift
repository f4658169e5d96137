import AdaptivePointerClient
import LodestoneTesting
import XCTest

/// adaptive_pointer_v1 end to end: a client declares regions in a headless Lodestone with a
/// manual clock; the test moves the pointer, lets the springs settle, and checks the pointer
/// state the compositor reports and the pixels it composed.
final class AdaptivePointerTests: XCTestCase {
    static let background: UInt32 = 0xffe0_e0e0
    static let blue: UInt32 = 0xff20_60d0

    /// A window at a known place with one element box at (100, 100) 80×40 surface-local.
    private func window(_ f: AdaptiveFixture, title: String = "regions") throws -> (RegionClient, x: Double, y: Double) {
        let client = try RegionClient(session: f.session, title: title, background: Self.background,
                                      boxes: [(100, 100, 80, 40, Self.blue)])
        try f.control.moveWindow(title, x: 100, y: 100)
        return (client, 100, 100)
    }

    func testCircleOverPlainContent() throws {
        let f = try AdaptiveFixture()
        let (client, wx, wy) = try window(f)
        defer { withExtendedLifetime(client) {} }
        let s = try f.move(to: wx + 30, wy + 30)
        XCTAssertEqual(s.kind, .circle)
        XCTAssertEqual(s.width, 19, accuracy: 0.5)
        XCTAssertFalse(s.targeted)
        let shot = try f.screenshot()
        let centre = shot[Int(wx) + 30, Int(wy) + 30]
        XCTAssertGreaterThan(distance(centre, Self.background), 60, "the circle is drawn at the pointer")
        XCTAssertEqual(shot[Int(wx) + 30 + 15, Int(wy) + 30], Self.background & 0xffffff, "and nowhere beyond its radius")
    }

    func testBeamOverTextIsSizedFromTheLineHeight() throws {
        let f = try AdaptiveFixture()
        let (client, wx, wy) = try window(f)
        try client.declare(RegionDescription(frame: (20, 200, 300, 90), shape: .verticalBeam(lineHeight: 30), identifier: 7))
        let s = try f.move(to: wx + 100, wy + 230)
        XCTAssertEqual(s.kind, .verticalBeam)
        XCTAssertEqual(s.width, 3, accuracy: 0.5)
        XCTAssertEqual(s.height, 30, accuracy: 2)
        XCTAssertTrue(s.targeted)
        XCTAssertEqual(s.identifier, 7)
        let shot = try f.screenshot()
        XCTAssertGreaterThan(distance(shot[Int(s.midX), Int(s.midY)], Self.background), 60, "the beam is drawn")
        XCTAssertEqual(shot[Int(s.midX) + 6, Int(s.midY)], Self.background & 0xffffff, "a beam, not a circle")
    }

    func testHighlightSlidesAPlatterUnderTheElement() throws {
        let f = try AdaptiveFixture()
        let (client, wx, wy) = try window(f)
        try client.declare(RegionDescription(frame: (100, 100, 80, 40), effect: .highlight, identifier: 1))
        let before = try f.screenshot()
        let s = try f.move(to: wx + 140, wy + 120)
        XCTAssertEqual(s.effect, .highlight)
        XCTAssertEqual(s.effectProgress, 1, accuracy: 0.05)
        XCTAssertEqual(s.kind, .roundedRect)
        XCTAssertEqual(s.width, 84, accuracy: 2, "platter = element + 4")
        XCTAssertEqual(s.height, 44, accuracy: 2)
        XCTAssertEqual(s.identifier, 1)
        let after = try f.screenshot()
        // The platter is beneath the element's content: the element's own (opaque) pixels stay
        // nearly as they were, near its corner (away from any pointer dot)...
        let (px, py) = (Int(wx) + 104, Int(wy) + 104)
        XCTAssertEqual(before[px, py], Self.blue & 0xffffff)
        XCTAssertLessThan(distance(after[px, py], Self.blue), 24, "the element stays over the platter")
        // ...while just outside the element but inside the platter, the background is tinted.
        XCTAssertGreaterThan(distance(after[Int(wx) + 99, Int(wy) + 120], Self.background), 20)
    }

    func testLiftScalesTheElementOverItsShadowAndHidesThePointer() throws {
        let f = try AdaptiveFixture()
        let (client, wx, wy) = try window(f)
        var d = RegionDescription(frame: (100, 100, 80, 40), effect: .lift, identifier: 2)
        d.opaque = true
        try client.declare(d)
        let s = try f.move(to: wx + 140, wy + 120)
        XCTAssertEqual(s.effect, .lift)
        XCTAssertGreaterThan(s.effectScale, 1.05, "the element grows")
        XCTAssertLessThan(s.alpha, 0.1, "the pointer fades beneath the element")
        let shot = try f.screenshot()
        // The pointer is absent under the lifted element: its centre shows the element, lit by
        // the specular highlight (light added, up to 0.08 × 255 a channel), never darkened.
        let centre = channels(shot[Int(wx) + 140, Int(wy) + 120]), blue = channels(Self.blue)
        XCTAssertTrue([(centre.r, blue.r), (centre.g, blue.g), (centre.b, blue.b)].allSatisfy { $0.0 >= $0.1 - 2 && $0.0 <= $0.1 + 24 },
                      "the element, lit, at the pointer: \(centre)")
        // The lifted element's edge moved outward: 2 points left of the frame is now element.
        XCTAssertLessThan(distance(shot[Int(wx) + 98, Int(wy) + 120], Self.blue), 60)
        XCTAssertGreaterThan(distance(shot[Int(wx) + 98, Int(wy) + 120], Self.background), 100)
        // The shadow below it: darker than the background under the grown bottom edge.
        let below = shot[Int(wx) + 140, Int(wy) + 100 + 40 + 8]
        XCTAssertLessThan(brightness(below), brightness(Self.background) - 15, "a shadow beneath the element")
    }

    func testPressingALiftedElementShowsPressFeedback() throws {
        let f = try AdaptiveFixture()
        let (client, wx, wy) = try window(f)
        var d = RegionDescription(frame: (100, 100, 80, 40), effect: .lift, identifier: 2)
        d.opaque = true
        try client.declare(d)
        let lifted = try f.move(to: wx + 140, wy + 120).effectScale
        _ = try f.control.button(pressed: true)
        try f.control.advanceClock(milliseconds: 500)
        let pressed = try f.probe.shape()
        XCTAssertLessThan(pressed.effectScale, lifted - 0.03, "the pointer is hidden under it: the element shows the press")
        XCTAssertGreaterThan(pressed.effectScale, 1, "still lifted")
        _ = try f.control.button(pressed: false)
        try f.control.advanceClock(milliseconds: 500)
        XCTAssertEqual(try f.probe.shape().effectScale, lifted, accuracy: 0.001)
    }

    func testHoverTintsAndScalesTheElement() throws {
        let f = try AdaptiveFixture()
        let (client, wx, wy) = try window(f)
        var d = RegionDescription(frame: (100, 100, 80, 40), effect: .hover, identifier: 3)
        d.hover = (.overlay, true, true)
        try client.declare(d)
        let s = try f.move(to: wx + 140, wy + 120)
        XCTAssertEqual(s.effect, .hover)
        XCTAssertGreaterThan(s.effectScale, 1.02)
        XCTAssertEqual(s.kind, .circle, "hover keeps the pointer's shape")
        let shot = try f.screenshot()
        XCTAssertGreaterThan(distance(shot[Int(wx) + 104, Int(wy) + 104], Self.blue), 10, "the overlay tints the element")
    }

    func testAccessoriesAppearWhereDeclared() throws {
        let f = try AdaptiveFixture()
        let (client, wx, wy) = try window(f)
        var d = RegionDescription(frame: (20, 200, 200, 80), effect: .hover, identifier: 4)
        d.accessories = [.init(.arrow, angle: 90, offset: 4), .init(.arrow, angle: 270, offset: 4)]
        try client.declare(d)
        let s = try f.move(to: wx + 120, wy + 240)
        XCTAssertEqual(s.accessories.count, 2)
        let right = try XCTUnwrap(s.accessories.first { $0.x > s.midX })
        let left = try XCTUnwrap(s.accessories.first { $0.x < s.midX })
        XCTAssertEqual(right.y, s.midY, accuracy: 2)
        XCTAssertEqual(left.y, s.midY, accuracy: 2)
        XCTAssertGreaterThan(right.x - s.midX, 9.5, "beyond the pointer's edge")
        XCTAssertEqual(right.alpha, 1, accuracy: 0.1)
        let shot = try f.screenshot()
        XCTAssertGreaterThan(distance(shot[Int(right.x.rounded()), Int(right.y.rounded())], Self.background), 40)
        XCTAssertGreaterThan(distance(shot[Int(left.x.rounded()), Int(left.y.rounded())], Self.background), 40)
    }

    func testAnnotationTextIsDrawnBesideThePointer() throws {
        let f = try AdaptiveFixture()
        let (client, wx, wy) = try window(f)
        var d = RegionDescription(frame: (20, 200, 300, 80), effect: .none, identifier: 5)
        d.annotation = "120 × 45"
        try client.declare(d)
        let s = try f.move(to: wx + 100, wy + 240)
        XCTAssertEqual(s.annotation, "120 × 45")
        let shot = try f.screenshot()
        // Text: light glyph pixels on the dark box, many shades (antialiasing) near the pointer.
        var light = 0, dark = 0
        for y in Int(s.y) - 40..<Int(s.y) + 1 {
            for x in Int(s.midX)..<Int(s.midX) + 120 where x >= 0 && y >= 0 {
                let b = brightness(shot[x, y])
                if b > 600 && shot[x, y] != Self.background & 0xffffff { light += 1 }
                if b < 250 { dark += 1 }
            }
        }
        XCTAssertGreaterThan(dark, 100, "the annotation's box")
        XCTAssertGreaterThan(light, 10, "its text")
    }

    func testBandSelectionSendsTheRectangleToTheClient() throws {
        let f = try AdaptiveFixture()
        let (client, wx, wy) = try window(f)
        var d = RegionDescription(frame: (20, 150, 300, 130), effect: .none, identifier: 6)
        d.bandSelection = true
        try client.declare(d)
        try f.move(to: wx + 40, wy + 170, settle: 100)
        try f.control.button(pressed: true)
        try f.control.movePointer(x: wx + 100, y: wy + 210)
        try f.control.advanceClock(milliseconds: 200)
        let during = try f.probe.shape()
        XCTAssertEqual(during.kind, .band)
        try f.control.button(pressed: false)
        try client.sync()
        XCTAssertEqual(client.bands.first?.0, .began)
        let last = try XCTUnwrap(client.bands.last)
        XCTAssertEqual(last.0, .ended)
        XCTAssertEqual(last.1, 40, accuracy: 1)
        XCTAssertEqual(last.2, 170, accuracy: 1)
        XCTAssertEqual(last.3, 60, accuracy: 1)
        XCTAssertEqual(last.4, 40, accuracy: 1)
    }

    func testClickWhileCapturedLandsOnTheElement() throws {
        let f = try AdaptiveFixture()
        let (client, wx, wy) = try window(f)
        try client.declare(RegionDescription(frame: (100, 100, 80, 40), effect: .highlight, identifier: 8))
        // 6 points above the element: inside its hit padding, outside its frame.
        let s = try f.move(to: wx + 140, wy + 94)
        XCTAssertTrue(s.targeted)
        XCTAssertEqual(s.deviceY, wy + 94, accuracy: 0.01)
        try f.control.click()
        try client.sync()
        let press = try XCTUnwrap(client.buttons.first)
        XCTAssertTrue((100..<180).contains(press.x) && (100..<140).contains(press.y),
                      "the client got the click at \(press), on the element")
        XCTAssertEqual(client.entered, [8])
    }

    func testRegionsFollowTheirSurfaceWhenMovedInteractively() throws {
        let f = try AdaptiveFixture()
        let (client, wx, wy) = try window(f)
        try client.declare(RegionDescription(frame: (100, 100, 80, 40), effect: .highlight, identifier: 9))
        // Drag the window by 200, 50 with xdg_toplevel.move from a press on plain content.
        try f.move(to: wx + 20, wy + 250, settle: 50)
        try f.control.button(pressed: true)
        try client.sync()
        try client.startMove()
        try f.control.movePointer(x: wx + 220, y: wy + 300)
        try f.control.button(pressed: false)
        let w = try XCTUnwrap(f.control.windows().first)
        XCTAssertEqual(w.x, Int32(wx) + 200)
        XCTAssertEqual(w.y, Int32(wy) + 50)
        let moved = try f.move(to: wx + 200 + 140, wy + 50 + 120)
        XCTAssertTrue(moved.targeted)
        XCTAssertEqual(moved.identifier, 9)
        XCTAssertEqual(moved.midX, wx + 200 + 140, accuracy: 3, "the platter sits on the moved element")
        let old = try f.move(to: wx + 140, wy + 120)
        let again = try f.probe.shape(), later = try f.move(to: wx + 141, wy + 121)
        XCTAssertFalse(old.targeted, "nothing left where the element was: \(old) then \(again) then \(later)")
    }

    func testRegionsFollowABufferScaleChange() throws {
        let f = try AdaptiveFixture()
        let (client, wx, wy) = try window(f)
        try client.declare(RegionDescription(frame: (100, 100, 80, 40), effect: .highlight, identifier: 10))
        try client.draw(background: Self.background, boxes: [(100, 100, 80, 40, Self.blue)], scale: 2)
        let s = try f.move(to: wx + 140, wy + 120)
        XCTAssertTrue(s.targeted)
        XCTAssertEqual(s.identifier, 10)
        XCTAssertEqual(s.width, 84, accuracy: 2, "logical size unchanged by the buffer scale")
        XCTAssertEqual(s.midX, wx + 140, accuracy: 3)
    }

    func testRegionStateIsDoubleBuffered() throws {
        let f = try AdaptiveFixture()
        let (client, wx, wy) = try window(f)
        try client.declare(RegionDescription(frame: (100, 100, 80, 40), effect: .highlight, identifier: 11), commit: false)
        XCTAssertFalse(try f.move(to: wx + 140, wy + 120).targeted, "not before the commit")
        try client.commit()
        XCTAssertTrue(try f.move(to: wx + 141, wy + 120).targeted, "after it")
    }

    func testLegacyClientCursorShowsWithoutRegions() throws {
        let f = try AdaptiveFixture()
        let (client, wx, wy) = try window(f)
        try f.move(to: wx + 30, wy + 30)
        try client.sync()
        try client.setLegacyCursor()
        XCTAssertEqual(try f.probe.shape().kind, .clientCursor)
        let shot = try f.screenshot()
        XCTAssertEqual(shot[Int(wx) + 34, Int(wy) + 34], 0xff00ff, "the client's own cursor image")
        // Declaring a region hands the pointer to the compositor.
        try client.declare(RegionDescription(frame: (300, 250, 20, 20), identifier: 12))
        try f.control.advanceClock(milliseconds: 50)
        XCTAssertEqual(try f.probe.shape().kind, .circle)
    }

    /// `--legacy-apps off`: the circle even over an app's own cursor image (an image that is
    /// no theme cursor is otherwise shown as drawn).
    func testAdaptivePointerEverywhereOption() throws {
        let f = try AdaptiveFixture(extraArguments: ["--pointer", "adaptive", "--legacy-apps", "off"])
        let (client, wx, wy) = try window(f)
        try f.move(to: wx + 30, wy + 30)
        try client.sync()
        try client.setLegacyCursor()
        XCTAssertEqual(try f.probe.shape().kind, .circle)
    }
}
