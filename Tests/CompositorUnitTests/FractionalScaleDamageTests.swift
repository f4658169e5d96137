@testable import LodestoneCompositor
import CWaylandClient
import Rendering
import WaylandClient
import XCTest

/// Damage at a fractional output scale (1.5): whatever windows, the pointer and partial
/// buffer updates do, the frame composed from damage alone equals a full redraw of the
/// same scene, pixel for pixel. Logical damage is rounded outward (and widened by the
/// bilinear filter's reach), so no stale pixel stays behind at a half-pixel edge.
final class FractionalScaleDamageTests: XCTestCase {
    /// A pattern whose neighbouring pixels differ, so a stale or resampled pixel shows.
    static func pattern(_ x: Int32, _ y: Int32, seed: UInt32 = 0) -> UInt32 {
        0xff00_0000 | (UInt32(truncatingIfNeeded: x &* 7) & 0xff) << 16 | (UInt32(truncatingIfNeeded: y &* 5 &+ Int32(seed)) & 0xff) << 8
            | (UInt32(truncatingIfNeeded: x &+ y) & 0xff)
    }

    static func drawPattern(_ b: ClientShmBuffer) {
        for y in 0..<b.height { for x in 0..<b.width { b[Int(y * b.width + x)] = pattern(x, y) } }
    }

    /// The output's pixels now, and after everything is repainted from scratch: the
    /// number of pixels that differ.
    private func staleAfterFullRedraw(_ lodestone: InProcessCompositor) -> Int {
        let output = lodestone.compositor.output
        let w = Int(output.image.width), h = Int(output.image.height)
        var incremental = [UInt32](repeating: 0, count: w * h)
        for y in 0..<h { for x in 0..<w { incremental[y * w + x] = output.image.pixel(x: Int32(x), y: Int32(y)) } }
        output.damageAll()
        lodestone.compositor.composeIfNeeded()
        var differing = 0
        for y in 0..<h { for x in 0..<w where incremental[y * w + x] != output.image.pixel(x: Int32(x), y: Int32(y)) { differing += 1 } }
        return differing
    }

    func testDamageAtScale1Point5LeavesNoStalePixels() throws {
        let lodestone = try InProcessCompositor(width: 400, height: 300, scale: OutputScale(v120: 180))
        XCTAssertEqual([lodestone.compositor.output.image.width, lodestone.compositor.output.image.height], [600, 450])
        let a = try lodestone.connect(), b = try lodestone.connect()
        // One window upscaled (buffer scale 1), one downscaled (buffer scale 2), both sampled bilinearly.
        let up = try lodestone.mapWindow(on: a, title: "Up", x: 11, y: 13, width: 101, height: 67)
        up.draw = Self.drawPattern
        up.redraw()
        let down = try Window(b.globals, title: "Down", width: 80, height: 50, draw: Self.drawPattern)
        down.scale = 2
        down.redraw()
        try lodestone.roundtrip()
        XCTAssertTrue(lodestone.compositor.positionWindow(of: b.server, surfaceID: down.surface.id, x: 150, y: 120))
        try lodestone.roundtrip()
        lodestone.compositor.composeIfNeeded()
        XCTAssertEqual(staleAfterFullRedraw(lodestone), 0, "the first frame")

        // Moves by odd amounts put edges on half pixels, over each other and back.
        let moves: [(Window, TestClient, Int32, Int32)] = [(up, a, 12, 14), (up, a, 37, 101), (down, b, 151, 121), (up, a, 140, 115),
                                                            (down, b, 3, 7), (up, a, 299, 233), (down, b, 333, 251)]
        for (k, (window, client, x, y)) in moves.enumerated() {
            XCTAssertTrue(lodestone.compositor.positionWindow(of: client.server, surfaceID: window.surface.id, x: x, y: y))
            try lodestone.roundtrip()
            // The pointer crosses the window's edge too.
            try lodestone.movePointer(to: Double(x) + 0.5, Double(y) + 0.25)
            lodestone.compositor.composeIfNeeded()
            XCTAssertEqual(staleAfterFullRedraw(lodestone), 0, "after move \(k) to (\(x), \(y))")
        }

        // Partial updates: the client changes one small rect of its attached buffer in
        // place and damages only that rect (no new attach, which would damage it all), with
        // the window's edges on whole and on half pixels. The bilinear filter carries a
        // changed buffer pixel into output pixels beyond the rect's own: those must be
        // repainted too.
        let buffer = try ClientShmBuffer(on: a.globals.shm, width: 101, height: 67)
        Self.drawPattern(buffer)
        up.surface.request(buffer.buffer) { wl_surface_attach($0, $1, 0, 0) }
        up.surface.request { wl_surface_damage_buffer($0, 0, 0, 101, 67) }
        up.surface.request { wl_surface_commit($0) }
        try lodestone.roundtrip()
        for (k, (x, y, rx, ry)) in [(Int32(10), Int32(10), Int32(33), Int32(21)), (11, 11, 34, 22), (12, 13, 33, 22), (11, 10, 34, 21)].enumerated() {
            XCTAssertTrue(lodestone.compositor.positionWindow(of: a.server, surfaceID: up.surface.id, x: x, y: y))
            try lodestone.roundtrip()
            lodestone.compositor.composeIfNeeded()
            for py in ry..<ry + 7 { for px in rx..<rx + 7 { buffer[Int(py * 101 + px)] = k % 2 == 0 ? 0xffff_ffff : 0xff00_0000 } }
            up.surface.request { wl_surface_damage_buffer($0, rx, ry, 7, 7) }
            up.surface.request { wl_surface_commit($0) }
            try lodestone.roundtrip()
            lodestone.compositor.composeIfNeeded()
            XCTAssertEqual(staleAfterFullRedraw(lodestone), 0, "after a partial update at (\(x), \(y))")
        }
    }

    /// A buffer_scale 2 window at 1.25 is shrunk by 1.6: a one-pixel checkerboard averages
    /// to an even grey (a box filter over each output pixel), not bilinear's moiré of
    /// light and dark bands.
    func testShrinkingByMoreThanFourThirdsAveragesInsteadOfAliasing() throws {
        let lodestone = try InProcessCompositor(width: 400, height: 300, scale: OutputScale(v120: 150))
        let client = try lodestone.connect()
        let checker = try Window(client.globals, title: "Checker", width: 160, height: 100) { b in
            for y in 0..<b.height { for x in 0..<b.width { b[Int(y * b.width + x)] = (x + y) % 2 == 0 ? 0xff00_0000 : 0xffff_ffff } }
        }
        checker.scale = 2
        checker.redraw()
        try lodestone.roundtrip()
        XCTAssertTrue(lodestone.compositor.positionWindow(of: client.server, surfaceID: checker.surface.id, x: 40, y: 40))
        try lodestone.roundtrip()
        try lodestone.movePointer(to: 390, 290)
        lodestone.compositor.composeIfNeeded()
        // The window's pixels: 50..<250 × 50..<175; well inside, every grey near the middle.
        let image = lodestone.compositor.output.image
        var lo: UInt32 = 255, hi: UInt32 = 0
        for y in Int32(60)..<165 { for x in Int32(60)..<240 {
            let g = (image.pixel(x: x, y: y) >> 8) & 0xff
            lo = min(lo, g); hi = max(hi, g)
        } }
        XCTAssertGreaterThanOrEqual(lo, 0x60, "dark bands: greys from \(lo) to \(hi)")
        XCTAssertLessThanOrEqual(hi, 0xa0, "light bands: greys from \(lo) to \(hi)")
    }

    /// The scale's arithmetic: edges rounded for placing, outward for damage.
    func testLogicalRectsBecomePixelsWithoutSeams() {
        let s = OutputScale(v120: 180)
        XCTAssertEqual(s.factor, 1.5)
        XCTAssertEqual(s.ceiling, 2)
        XCTAssertEqual(s.pixels(1280), 1920)
        XCTAssertEqual(s.logical(2560), 1706)
        // Two rects that touch in logical space touch in pixels.
        let left = s.placing(PixelRect(x: 1, y: 1, width: 3, height: 3)), right = s.placing(PixelRect(x: 4, y: 1, width: 5, height: 3))
        XCTAssertEqual(left.maxX, right.x)
        XCTAssertEqual(left, PixelRect(x: 2, y: 2, width: 4, height: 4))
        // A window keeps its pixel size across the output's edge (halves round up).
        XCTAssertEqual(s.placing(PixelRect(x: -1, y: -3, width: 200, height: 120)).width, 300)
        XCTAssertEqual(s.placing(PixelRect(x: -1, y: -3, width: 200, height: 120)).height, 180)
        XCTAssertEqual(s.pixels(-1), -1)
        // Damage covers every pixel the rect touches, and two more for the filter.
        XCTAssertEqual(s.covering(PixelRect(x: 1, y: 1, width: 3, height: 3)), PixelRect(x: -1, y: -1, width: 9, height: 9))
        // Whole scales are plain multiplication.
        XCTAssertEqual(OutputScale(2).placing(PixelRect(x: 3, y: 5, width: 7, height: 9)), PixelRect(x: 6, y: 10, width: 14, height: 18))
        XCTAssertEqual(OutputScale(2).covering(PixelRect(x: 3, y: 5, width: 7, height: 9)), PixelRect(x: 6, y: 10, width: 14, height: 18))
        for (text, v120) in [("1", 120), ("1.25", 150), ("1.5", 180), ("2", 240), ("4", 480), ("1.333", 160)] {
            XCTAssertEqual(try? OutputScale.parse(text).get().v120, Int32(v120), text)
        }
        for bad in ["0", "-1", "4.01", "x", "inf", "1.33", ""] { XCTAssertNil(try? OutputScale.parse(bad).get(), bad) }
    }
}
