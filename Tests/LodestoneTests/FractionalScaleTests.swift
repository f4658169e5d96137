import Foundation
import LodestoneTesting
import XCTest

/// `wp_fractional_scale_manager_v1` and fractional output scales (`--scale 1.5`), with the
/// pywayland client (Tests/clients/surface_client.py), grim and GTK 4: a surface is told
/// the output's scale in 120ths; a client drawing at that scale through a viewport lands
/// pixel for pixel; one drawing at a whole buffer scale is scaled to the output's pixels.
final class FractionalScaleTests: XCTestCase {
    private let client = repositoryRoot + "/Tests/clients/surface_client.py"
    static let background: UInt32 = 0x303446

    func testPreferredScaleIsTheOutputsIn120ths() throws {
        for scale in [1.0, 2.0, 1.5, 1.25] {
            let session = try Session(scale: scale)
            let (status, output) = try run(["python3", client, "fractional-scale"], environment: session.clientEnvironment)
            XCTAssertEqual(status, 0, output)
            XCTAssertTrue(output.contains("preferred_scale \(Int(scale * 120))"), output)
            XCTAssertTrue(output.contains("RESULT: protocol-error"), output)
            XCTAssertTrue(output.contains("error 0: wl_surface@") && output.contains("already has a wp_fractional_scale_v1"), output)
        }
    }

    /// Nonsense is refused before anything starts, saying what is wrong.
    func testBadScalesAreRefused() throws {
        for (bad, why) in [("0", "not above 0"), ("-1", "not above 0"), ("4.5", "at most 4"), ("abc", "not a number"),
                           ("1.33", "multiple of 1/120"), ("nan", "not a number")] {
            let (status, output) = try run([Session.executable, "--backend", "headless", "--scale=\(bad)", "--screenshot", "/dev/null"])
            XCTAssertNotEqual(status, 0, "--scale \(bad) was accepted")
            XCTAssertTrue(output.contains("--scale") && output.contains(why), "--scale \(bad): \(output)")
        }
    }

    /// The output's pixels are its logical size times the scale.
    func testOutputPixelsAreTheLogicalSizeTimesTheScale() throws {
        let session = try Session(size: "1280x800", scale: 1.5)
        let shot = try session.screenshot()
        XCTAssertEqual([shot.width, shot.height], [1920, 1200])
    }

    /// Where the window of logical rect (x, y, w, h) is drawn: each edge times 1.5, rounded.
    private func pixels(_ w: TestControl.WindowState, scale: Double = 1.5) -> (x: Int, y: Int, width: Int, height: Int) {
        let x0 = Int((Double(w.x) * scale).rounded()), y0 = Int((Double(w.y) * scale).rounded())
        let x1 = Int((Double(w.x + w.width) * scale).rounded()), y1 = Int((Double(w.y + w.height) * scale).rounded())
        return (x0, y0, x1 - x0, y1 - y0)
    }

    /// The pattern surface_client.py draws (its `pattern`), as 0xRRGGBB.
    private func pattern(_ x: Int, _ y: Int) -> UInt32 {
        UInt32((x * 7) & 0xff) << 16 | UInt32((y * 5) & 0xff) << 8 | UInt32((x + y) & 0xff)
    }

    /// Pixels of the drawn window that are not the client's buffer pixel for pixel.
    private func patternMismatches(_ shot: Screenshot, _ p: (x: Int, y: Int, width: Int, height: Int)) -> Int {
        var wrong = 0
        for y in 0..<p.height { for x in 0..<p.width where shot[p.x + x, p.y + y] != pattern(x, y) { wrong += 1 } }
        return wrong
    }

    /// GTK 4.12+ and Qt 6 draw like this: a buffer of the surface's size times the preferred
    /// scale, mapped onto the surface by a viewport. It is shown unresampled, wherever the
    /// window is (an odd logical x puts its left edge on a half pixel, rounded).
    func testAClientDrawingAtThePreferredScaleLandsPixelExact() throws {
        let session = try Session(scale: 1.5)
        let log = session.runtimeDirectory + "/fractional-window.txt"
        try session.launch(["python3", client, "fractional-window", "200", "120"], output: log)
        var w = try session.waitForWindow("fractional-window")
        XCTAssertTrue(textOfFile(log).contains("preferred_scale 180"), textOfFile(log))
        XCTAssertEqual([w.width, w.height], [200, 120], "the viewport's destination is the window's logical size")
        for (x, y) in [(100, 80), (101, 81), (333, 217)] {
            w = try session.control.moveWindow("fractional-window", x: Int32(x), y: Int32(y))
            try session.control.movePointer(x: 5, y: 5)
            let shot = try session.screenshot("fractional-\(x)")
            let p = pixels(w)
            XCTAssertEqual([p.width, p.height], [300, 180], "at (\(x), \(y))")
            XCTAssertEqual(patternMismatches(shot, p), 0, "the buffer is not shown pixel for pixel at (\(x), \(y))")
            // Exactly that big: the desktop on every side.
            XCTAssertEqual([shot[p.x - 1, p.y + 10], shot[p.x + p.width, p.y + 10], shot[p.x + 10, p.y - 1], shot[p.x + 10, p.y + p.height]],
                           [Self.background, Self.background, Self.background, Self.background], "at (\(x), \(y))")
        }
    }

    /// A client that knows only wl_output.scale (2, the 1.5 rounded up) draws at buffer
    /// scale 2; its 400×240 buffer is scaled down into the window's 300×180 pixels.
    func testAClientAtBufferScale2IsScaledDownToTheFractionalScale() throws {
        let session = try Session(scale: 1.5)
        try session.launch(["python3", client, "scaled-window", "200", "120", "2"], output: session.runtimeDirectory + "/scaled-window.txt")
        var w = try session.waitForWindow("scaled-window")
        XCTAssertEqual([w.width, w.height], [200, 120])
        w = try session.control.moveWindow("scaled-window", x: 101, y: 75)
        try session.control.movePointer(x: 5, y: 5)
        let shot = try session.screenshot("scaled")
        let p = pixels(w)
        XCTAssertEqual([p.width, p.height], [300, 180])
        // Quadrants of 150×90 pixels; away from where two meet (bilinear blends there), pure.
        let quadrants: [(dx: Int, dy: Int, color: UInt32)] = [(0, 0, 0xff0000), (150, 0, 0x00ff00), (0, 90, 0x0000ff), (150, 90, 0xffffff)]
        for q in quadrants {
            let inner = (x: p.x + q.dx + (q.dx == 0 ? 0 : 2), y: p.y + q.dy + (q.dy == 0 ? 0 : 2))
            XCTAssertEqual(shot.countDiffering(from: q.color, x: inner.x, y: inner.y, width: 148, height: 88).differing, 0, "quadrant \(q)")
        }
        // The blend where red meets green is one or two pixels wide.
        let row = p.y + 45
        let blended = (p.x + 140..<p.x + 160).filter { shot[$0, row] != 0xff0000 && shot[$0, row] != 0x00ff00 }
        XCTAssertLessThanOrEqual(blended.count, 2, "red to green: \(blended)")
        XCTAssertEqual([shot[p.x - 1, row], shot[p.x + p.width, row]], [Self.background, Self.background])
    }

    /// grim reads the output through zwlr_screencopy: at 1.5 its picture (asked for at the
    /// output's own scale) is the test protocol's, pixel for pixel.
    func testGrimAtTheFractionalScaleEqualsTheTestCapture() throws {
        try requireProgram("grim")
        let session = try Session(scale: 1.5)
        try session.launch(["python3", client, "fractional-window", "200", "120"], output: session.runtimeDirectory + "/fractional-window.txt")
        _ = try session.waitForWindow("fractional-window")
        try session.control.movePointer(x: 5, y: 5)
        let shot = try session.screenshot()
        let path = session.runtimeDirectory + "/grim.png"
        let (status, output) = try run(["grim", "-c", "-s", "1.5", path], environment: session.clientEnvironment)
        XCTAssertEqual(status, 0, output)
        let grimmed = try Screenshot(png: path)
        XCTAssertEqual([grimmed.width, grimmed.height], [shot.width, shot.height])
        var differing = 0
        for y in 0..<min(shot.height, grimmed.height) { for x in 0..<min(shot.width, grimmed.width) where shot[x, y] != grimmed[x, y] { differing += 1 } }
        XCTAssertEqual(differing, 0)
    }

    /// Nested in a parent at 1.5 that offers wp_fractional_scale_v1 (Lodestone itself), the
    /// nested output takes the preferred 1.5 and hands the parent a buffer of that many
    /// pixels through a viewport: the parent shows the nested output pixel for pixel.
    func testNestedInAFractionalParentTheOutputTakesItsScale() throws {
        let parent = try Session(size: "800x600", scale: 1.5)
        defer { parent.stop() }
        let nested = try Session(nestedIn: parent, size: "300x200")
        defer { nested.stop() }
        var window = try parent.waitForWindow("Lodestone")
        XCTAssertTrue(try nested.wait { try nested.captureSize() == Size(width: 450, height: 300) },
                      "the nested output did not take the parent's 1.5: capture is \((try? nested.captureSize())?.description ?? "?")")
        XCTAssertTrue(nested.log.contains("the parent output scale is 1.5"), nested.log)
        XCTAssertEqual([window.width, window.height], [300, 200], "the window keeps its logical size")
        window = try parent.control.moveWindow("Lodestone", x: 101, y: 51)
        // A click in the parent reaches the nested seat at logical coordinates.
        try parent.control.movePointer(x: Double(window.x) + 100, y: Double(window.y) + 80)
        XCTAssertTrue(try nested.wait { try nested.control.pointer().x == 100 }, "motion did not reach the nested seat")
        XCTAssertEqual(try nested.control.pointer().y, 80)
        let p = pixels(window)
        var last = ""
        let identical = try nested.wait {
            let inner = try nested.screenshot()
            let outer = try parent.screenshot()
            let differing = outer.countDiffering(from: inner, atX: p.x, y: p.y)
            last = "\(differing) pixels differ"
            return differing == 0
        }
        XCTAssertTrue(identical, "the parent's capture of the window is not the nested output (\(last))")
        XCTAssertFalse(parent.log.contains("protocol error") || nested.log.contains("protocol error"), nested.log)
    }

    /// Lodestone's own drawing is done at the exact scale, never resampled: foot's title
    /// bar is 45 pixels tall at 1.5 and exactly as wide as the window's pixels, and the
    /// adaptive pointer is 1.5 times its size at 1.
    func testTitleBarsAndThePointerAreDrawnAtTheScale() throws {
        try requireProgram("foot")
        var pointerWidths: [Double: Int] = [:]
        for scale in [1.0, 1.5] {
            let session = try Session(scale: scale)
            defer { session.stop() }
            try session.launch(["foot", "--override=shell=/bin/sh", "--title=decorated", "--override=locked-title=yes"])
            _ = try session.waitForWindow("decorated", timeout: 40)
            let w = try session.control.moveWindow("decorated", x: 101, y: 61)
            try session.control.movePointer(x: 1150, y: 720)
            let shot = try session.screenshot("bar-\(scale)")
            let p = pixels(w, scale: scale)
            let barTop = Int((Double(w.y - 30) * scale).rounded())
            XCTAssertEqual(p.y - barTop, Int((30 * scale).rounded()), "the bar's height in pixels")
            let bar = shot[p.x + 6, barTop + 3]
            XCTAssertNotEqual(bar, Self.background, "at \(scale)")
            // Its colour to its very edges, and the desktop just beyond them.
            XCTAssertEqual([shot[p.x, barTop], shot[p.x + p.width - 1, barTop], shot[p.x, p.y - 1], shot[p.x + p.width - 1, p.y - 1]],
                           [bar, bar, bar, bar], "the bar's corners at \(scale)")
            XCTAssertEqual([shot[p.x - 1, barTop + 3], shot[p.x + p.width, barTop + 3], shot[p.x + 6, barTop - 1]],
                           [Self.background, Self.background, Self.background], "around the bar at \(scale)")
            // The pointer: what differs from the desktop around it, once its size settled (on the
            // real clock it may still be fading in from its first appearance: 8 to 14 pixels
            // wide at 1 were seen in the first capture, and a fresh-clone CI run saw 8 in three
            // captures in a row, taken within the fade's first frames: settled means the same
            // width for half a second).
            let (cx, cy) = (Int(1150 * scale), Int(720 * scale))
            func pointerWidth(_ shot: Screenshot) -> Int {
                var minX = Int.max, maxX = Int.min
                for y in cy - 40...cy + 40 { for x in cx - 40...cx + 40 where shot[x, y] != Self.background { minX = min(minX, x); maxX = max(maxX, x) } }
                return minX < maxX ? maxX - minX + 1 : 0
            }
            var widths = [(Date(), pointerWidth(shot))]
            _ = try session.wait(timeout: 10) {
                widths.append((Date(), pointerWidth(try session.screenshot("pointer-\(scale)"))))
                let (now, last) = widths[widths.count - 1]
                guard last > 0, let since = widths.lastIndex(where: { $0.1 != last }).map({ widths[$0 + 1].0 }) ?? widths.first?.0 else { return false }
                return now.timeIntervalSince(since) >= 0.5
            }
            XCTAssertGreaterThan(widths.last?.1 ?? 0, 0, "no pointer drawn at \(scale)")
            pointerWidths[scale] = widths.last?.1
        }
        let one = try XCTUnwrap(pointerWidths[1]), fractional = try XCTUnwrap(pointerWidths[1.5])
        XCTAssertEqual(Double(fractional), Double(one) * 1.5, accuracy: 2, "the pointer is \(one) pixels wide at 1, \(fractional) at 1.5")
    }

    /// GTK 4 as Debian 12 ships it (4.8: no wp_fractional_scale) at 1.5: it draws at
    /// wl_output's scale 2 and is scaled down, its window as many pixels as its logical
    /// size times 1.5, and a click on its pixels reaches it.
    func testGtk4WidgetFactoryAtScale1Point5() throws {
        try requireProgram("gtk4-widget-factory")
        let session = try Session(size: "1600x1000", scale: 1.5)
        defer { session.stop() }
        let process = try session.launch(["gtk4-widget-factory"], environment: ["GDK_BACKEND": "wayland", "GSK_RENDERER": "cairo", "NO_AT_BRIDGE": "1"],
                                         output: session.runtimeDirectory + "/gtk4.txt")
        var w = try session.waitForWindow("gtk4-widget-factory", timeout: 40)
        w = try session.control.moveWindow("gtk4-widget-factory", x: 41, y: 31)
        try session.control.movePointer(x: 1590, y: 990)
        let p = pixels(w)
        XCTAssertTrue(try session.wait(timeout: 20) { try session.screenshot().distinctColors(x: p.x, y: p.y, width: p.width, height: p.height) > 50 },
                      "GTK drew no window")
        let shot = try session.screenshot("gtk4")
        XCTAssertEqual([shot.width, shot.height], [2400, 1500])
        // The window fills its pixels to within its shadow's margin: GTK's window geometry
        // (what the test protocol reports) excludes the shadow, so just inside each edge is
        // the window's own colour, not the desktop.
        XCTAssertEqual(shot.countDiffering(from: Self.background, x: p.x + 12, y: p.y + 12, width: p.width - 24, height: p.height - 24).differing,
                       (p.width - 24) * (p.height - 24), "the desktop shows through the window")
        XCTAssertEqual(shot.countDiffering(from: Self.background, x: p.x + 12, y: p.y + p.height + 80, width: p.width - 24, height: 4).differing, 0,
                       "the desktop beneath the window (past its shadow) is untouched")
        // A click on the window reaches GTK: the pointer is on it, and a press on its header
        // bar and a drag move it (GTK starts xdg_toplevel.move).
        let on = try session.control.movePointer(x: Double(w.x + 200), y: Double(w.y + 22))
        XCTAssertTrue(on.appID == "gtk4-widget-factory" || on.title == "gtk4-widget-factory", "\(on)")
        try session.control.button(pressed: true)
        var (px, py) = (Double(w.x + 200), Double(w.y + 22))
        let grabbed = try session.wait(timeout: 10) {
            px += 1; py += 1
            return try session.control.movePointer(x: px, y: py).title.isEmpty
        }
        XCTAssertTrue(grabbed, "GTK never started a move from its header bar")
        for _ in 0..<20 { px += 3; py += 2; _ = try session.control.movePointer(x: px, y: py) }
        try session.control.button(pressed: false)
        let moved = try XCTUnwrap(session.control.windows().first { $0.appID == "gtk4-widget-factory" || $0.title == "gtk4-widget-factory" })
        XCTAssertGreaterThan(moved.x, w.x + 40, "the window moved with the pointer")
        XCTAssertTrue(process.isRunning, session.log)
        XCTAssertFalse(session.log.contains("protocol error"), session.log)
    }
}
