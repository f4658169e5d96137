import Foundation
import LodestoneTesting
import XCTest

/// `zxdg_decoration_manager_v1` and the title bars Lodestone draws, with real `foot`
/// (it asks for server-side decorations by default): the bar is drawn above the window,
/// its buttons are highlight regions, dragging it moves the window, a double click
/// maximizes, minimize hides until activated, close closes foot.
final class DecorationTests: XCTestCase {
    static let bar: Int32 = 30

    private func foot(_ session: Session) throws -> (Process, TestControl.WindowState) {
        try requireProgram("foot")
        let process = try session.launch(["foot", "--override=shell=/bin/sh", "--title=decorated", "--override=locked-title=yes"])
        let window = try session.waitForWindow("decorated", timeout: 40)
        return (process, window)
    }

    /// The centre of a title bar button: close, maximize, minimize from the right.
    private func button(_ index: Int32, of w: TestControl.WindowState) -> (Double, Double) {
        (Double(w.x + w.width - (index + 1) * 27 + 12), Double(w.y - Self.bar / 2))
    }

    func testFootGetsATitleBarWithItsTitleAndButtons() throws {
        let session = try Session()
        let (_, w) = try foot(session)
        XCTAssertGreaterThanOrEqual(w.y, Self.bar, "placed with its bar on screen")
        let shot = try session.screenshot()
        let (x, y) = (Int(w.x), Int(w.y) - Int(Self.bar))
        // The bar's own colour, not the desktop's, across its whole width.
        let background = shot[x + 4, y + 4]
        XCTAssertNotEqual(background, 0x303446)
        XCTAssertEqual(shot[x + Int(w.width) / 4, y + 26], background)
        // The title in the middle, glyphs on the three buttons.
        XCTAssertGreaterThan(shot.distinctColors(x: x + Int(w.width) / 2 - 40, y: y + 8, width: 80, height: 16), 3, "the title is drawn")
        for i: Int32 in 0..<3 {
            let (bx, by) = button(i, of: w)
            XCTAssertGreaterThanOrEqual(shot.distinctColors(x: Int(bx) - 8, y: Int(by) - 8, width: 16, height: 16), 2, "button \(i) has a glyph on its square")
        }
        // The pointer over the bar belongs to no client; over a button it is a highlight.
        let onBar = try session.control.movePointer(x: Double(w.x + 40), y: Double(w.y - 15))
        XCTAssertEqual(onBar.title, "")
        let probe = try PointerShapeProbe(session: session)
        let (cx, cy) = button(0, of: w)
        try session.control.movePointer(x: cx, y: cy)
        XCTAssertTrue(try session.wait { let s = try probe.shape(); return s.effect == .highlight && s.targeted },
                      "the close button highlights")
    }

    /// Activating another window draws the bar of the one that lost activation as inactive
    /// at once (it stayed as it was until something else composed its row), and the other's
    /// as active.
    func testTheBarOfTheWindowThatLostActivationIsRedrawnInactive() throws {
        let session = try Session()
        defer { session.stop() }
        _ = try foot(session)
        try session.launch(["foot", "--override=shell=/bin/sh", "--title=other", "--override=locked-title=yes"])
        _ = try session.waitForWindow("other", timeout: 40)
        let a = try session.control.moveWindow("decorated", x: 0, y: 60)
        let b = try session.control.moveWindow("other", x: 720, y: 60)
        func shade(_ w: TestControl.WindowState, in shot: Screenshot) -> Int {
            let p = shot[Int(w.x) + 4, Int(w.y - Self.bar) + 4]
            return Int(p >> 16 & 0xff) + Int(p >> 8 & 0xff) + Int(p & 0xff)
        }
        // A frame with "decorated" active, then "other" activated.
        _ = try session.control.activateWindow("decorated")
        let before = try session.screenshot("before")
        XCTAssertGreaterThan(shade(b, in: before), shade(a, in: before) + 30, "decorated's bar is not drawn active (darker)")
        _ = try session.control.activateWindow("other")
        let after = try session.screenshot("after")
        XCTAssertGreaterThan(shade(a, in: after), shade(b, in: after) + 30, "the bar of the window that lost activation is not drawn inactive (lighter)")
    }

    func testDraggingTheBarMovesTheWindow() throws {
        let session = try Session()
        let (_, w) = try foot(session)
        try session.control.movePointer(x: Double(w.x + 100), y: Double(w.y - 15))
        try session.control.button(pressed: true)
        try session.control.movePointer(x: Double(w.x + 150), y: Double(w.y + 20))
        try session.control.movePointer(x: Double(w.x + 250), y: Double(w.y + 85))
        try session.control.button(pressed: false)
        let moved = try XCTUnwrap(try session.control.windows().first { $0.title == "decorated" })
        XCTAssertEqual(moved.x - w.x, 150)
        XCTAssertEqual(moved.y - w.y, 100)
        // The bar went with it.
        let shot = try session.screenshot()
        XCTAssertNotEqual(shot[Int(moved.x) + 4, Int(moved.y) - 26], 0x303446)
        XCTAssertEqual(shot[Int(w.x) + 4, Int(w.y) - 26], 0x303446, "the old place is the desktop again")
    }

    func testDoubleClickMaximizesAndTheButtonRestores() throws {
        let session = try Session()
        let (_, w) = try foot(session)
        try session.control.movePointer(x: Double(w.x + 100), y: Double(w.y - 15))
        try session.control.click()
        try session.control.click()
        XCTAssertTrue(try session.wait(timeout: 20) {
            let m = try session.control.windows().first { $0.title == "decorated" }
            return m?.x == 0 && m?.y == Self.bar && m?.width == 1280 && m?.height == 800 - Self.bar
        }, "maximized below its bar: \((try? session.control.windows()) ?? [])")
        let maximized = try XCTUnwrap(try session.control.windows().first { $0.title == "decorated" })
        // The bar is as wide as the head, drawn across it: none of the desktop shows on its
        // row (it kept its old width where foot was moved before its new size came).
        let shot = try session.screenshot()
        let desktop = stride(from: 0, to: 1280, by: 4).filter { shot[$0, Int(Self.bar) / 2] == 0x303446 }
        XCTAssertTrue(desktop.isEmpty, "the desktop shows through the maximized window's title bar at x \(desktop.first ?? 0)–\(desktop.last ?? 0)")
        let (mx, my) = button(1, of: maximized)
        try session.control.movePointer(x: mx, y: my)
        try session.control.click()
        XCTAssertTrue(try session.wait(timeout: 20) {
            let r = try session.control.windows().first { $0.title == "decorated" }
            return r?.width == w.width && r?.height == w.height && r?.x == w.x && r?.y == w.y
        }, "restored: \((try? session.control.windows()) ?? [])")
    }

    func testMinimizeHidesUntilActivated() throws {
        let session = try Session()
        let (_, w) = try foot(session)
        let (nx, ny) = button(2, of: w)
        try session.control.movePointer(x: nx, y: ny)
        try session.control.click()
        XCTAssertTrue(try session.control.windows().isEmpty, "minimized: off the screen")
        XCTAssertEqual(try session.screenshot()[Int(w.x) + 4, Int(w.y) + 4], 0x303446)
        XCTAssertEqual(try session.control.keyboard().title, "")
        try session.control.activateWindow("decorated")
        XCTAssertEqual(try session.control.windows().first?.title, "decorated")
        XCTAssertEqual(try session.control.keyboard().title, "decorated")
    }

    func testCloseButtonClosesFoot() throws {
        let session = try Session()
        let (process, w) = try foot(session)
        let (cx, cy) = button(0, of: w)
        try session.control.movePointer(x: cx, y: cy)
        try session.control.click()
        XCTAssertTrue(try session.wait(timeout: 20) { !process.isRunning }, "foot still runs")
        XCTAssertTrue(try session.control.windows().isEmpty)
        XCTAssertFalse(session.log.contains("protocol error"), session.log)
    }
}
