import Foundation
import LodestoneTesting
import XCTest

/// Real apps used the way a person uses them, each in its own headless Lodestone:
/// the pointer leaves their window and comes back five times (toolkits set their
/// cursor surface again after every enter), they are moved by their client-side
/// title bar (a press, then xdg_toplevel.move), and a popup menu opens and the
/// pointer moves onto it. After each step the app must still run and its window
/// must still be drawn.
final class RealAppInteractionTests: XCTestCase {
    /// One app and where a person would put the pointer, relative to its window geometry.
    struct App {
        var arguments: [String]
        var environment: [String: String] = [:]
        /// Its window's title or app_id.
        var window: String
        /// Somewhere inside that is not a control.
        var inside: (TestControl.Window) -> (Double, Double) = { (Double($0.x + $0.width / 2), Double($0.y + $0.height / 2)) }
        /// An empty spot of its title bar or header bar.
        var titleBar: (TestControl.Window) -> (Double, Double)
        /// What opens a popup menu: where to click, and with which button; nil when the app has none.
        var menu: ((TestControl.Window) -> (Double, Double), button: UInt32)?
        /// Distinct colours the drawn window has at least.
        var minColors = 20
    }

    static let rightButton: UInt32 = 0x111
    static let escapeKey: UInt32 = 1

    func testFootSurvivesReentryAndATitleBarMove() throws {
        // foot has no popup menus; it asks for server-side decorations, so its title bar is
        // Lodestone's, above its geometry.
        try exercise(App(arguments: ["foot", "--override=shell=/bin/sh"], window: "foot",
                         titleBar: { (Double($0.x + $0.width / 2), Double($0.y - 15)) }, menu: nil, minColors: 4))
    }

    func testGtk3DemoSurvivesReentryATitleBarMoveAndItsContextMenu() throws {
        try requireProgram("gtk3-demo")
        try exercise(App(arguments: ["gtk3-demo"], environment: ["GDK_BACKEND": "wayland", "NO_AT_BRIDGE": "1"], window: "gtk3-demo",
                         titleBar: { (Double($0.x + 220), Double($0.y + 22)) },
                         // The right-click menu of the Info page's text view.
                         menu: ({ (Double($0.x + 520), Double($0.y + 420)) }, Self.rightButton)))
    }

    func testGtk4WidgetFactorySurvivesReentryATitleBarMoveAndItsMainMenu() throws {
        try requireProgram("gtk4-widget-factory")
        try exercise(App(arguments: ["gtk4-widget-factory"],
                         environment: ["GDK_BACKEND": "wayland", "GSK_RENDERER": "cairo", "NO_AT_BRIDGE": "1"],
                         window: "gtk4-widget-factory",
                         titleBar: { (Double($0.x + 200), Double($0.y + 22)) },
                         // The header bar's menu button, left of the close button.
                         menu: ({ (Double($0.x + $0.width - 71), Double($0.y + 22)) }, TestControl.leftButton), minColors: 50),
                     size: "1600x1000")
    }

    func testQt6LinguistSurvivesReentryATitleBarMoveAndItsFileMenu() throws {
        let linguist = "/usr/lib/qt6/bin/linguist"
        guard FileManager.default.isExecutableFile(atPath: linguist) else {
            if ProcessInfo.processInfo.environment["CI"] != nil { return XCTFail("\(linguist) is not installed; run make deps") }
            throw XCTSkip("\(linguist) is not installed; run make deps")
        }
        // Qt asks for server-side decorations: the title bar is Lodestone's, above the geometry.
        try exercise(App(arguments: [linguist], environment: ["QT_QPA_PLATFORM": "wayland"], window: "Qt Linguist",
                         titleBar: { (Double($0.x + 256), Double($0.y - 15)) },
                         // "File" in the menu bar, at the window's top.
                         menu: ({ (Double($0.x + 20), Double($0.y + 8)) }, TestControl.leftButton)))
    }

    // MARK: The gestures

    private func exercise(_ app: App, size: String = "1280x800", file: StaticString = #filePath, line: UInt = #line) throws {
        if !app.arguments[0].hasPrefix("/") { try requireProgram(app.arguments[0]) }
        let session = try Session(size: size)
        defer { session.stop() }
        let process = try session.launch(app.arguments, environment: app.environment)
        var window = try session.waitForWindow(app.window, timeout: 40)
        try assertDrawn(window, app, session, "after mapping", file: file, line: line)

        try leaveAndReenter(window, app, session, process, file: file, line: line)
        try assertDrawn(window, app, session, "after leaving and re-entering", file: file, line: line)

        // The menu before the move: a moved window may reach past the output's edge.
        if let menu = app.menu {
            try openMenuAndMoveOntoIt(window, at: menu.0(window), button: menu.button, app, session, process, file: file, line: line)
            try assertDrawn(window, app, session, "after the menu", file: file, line: line)
        }

        window = try moveByTitleBar(window, app, session, process, file: file, line: line)
        try assertDrawn(window, app, session, "after the move", file: file, line: line)
        XCTAssertFalse(session.log.contains("protocol error"), "a protocol error:\n\(session.log)", file: file, line: line)
    }

    /// Five times out of the window and back; each enter must be answered by the app's
    /// set_cursor, and the app must live through it.
    private func leaveAndReenter(_ window: TestControl.Window, _ app: App, _ session: Session, _ process: Process,
                                 file: StaticString, line: UInt) throws {
        let (ix, iy) = app.inside(window)
        let (ox, oy) = try outside(window, session)
        // Start outside: the window may have opened under the pointer.
        try session.control.movePointer(x: ox, y: oy)
        let first = try session.control.cursor().sets
        for k in 1...5 {
            let before = try session.control.cursor().sets
            let entered = try session.control.movePointer(x: ix, y: iy)
            XCTAssertTrue(entered.title == app.window || entered.appID == app.window,
                          "re-entry \(k): the pointer is not on the window: \(entered)", file: file, line: line)
            // The app answers the enter with set_cursor (the request that used to kill it).
            _ = try session.wait(timeout: 5) { try session.control.cursor().sets > before || !process.isRunning }
            XCTAssertTrue(process.isRunning, "re-entry \(k) killed \(app.arguments[0]):\n\(session.log)", file: file, line: line)
            guard process.isRunning else { return }
            let left = try session.control.movePointer(x: ox, y: oy)
            XCTAssertEqual(left.title, "", "leave \(k): the pointer is still on a window", file: file, line: line)
        }
        let sets = try session.control.cursor().sets - first
        XCTAssertGreaterThanOrEqual(sets, 5, "\(app.arguments[0]) set its cursor \(sets) times in 5 enters", file: file, line: line)
    }

    /// Press on the title bar and move in small steps until the app starts an
    /// interactive move (its pointer focus goes), then carry the window and release.
    private func moveByTitleBar(_ window: TestControl.Window, _ app: App, _ session: Session, _ process: Process,
                                file: StaticString, line: UInt) throws -> TestControl.Window {
        let (tx, ty) = app.titleBar(window)
        try session.control.movePointer(x: tx, y: ty)
        try session.control.button(pressed: true)
        var (px, py) = (tx, ty)
        let grabbed = try session.wait(timeout: 10) {
            // GTK starts the move once the pointer passes its drag threshold; Qt at the press.
            px += 1; py += 1
            return try session.control.movePointer(x: px, y: py).title.isEmpty
        }
        XCTAssertTrue(grabbed, "\(app.arguments[0]) never started a move from its title bar", file: file, line: line)
        try session.control.movePointer(x: px + 60, y: py + 40)
        try session.control.movePointer(x: px + 120, y: py + 80)
        try session.control.button(pressed: false)
        XCTAssertTrue(process.isRunning, "the move killed \(app.arguments[0]):\n\(session.log)", file: file, line: line)
        let moved = try XCTUnwrap(try session.control.windows().first { $0.title == app.window || $0.appID == app.window }, file: file, line: line)
        if grabbed {
            XCTAssertEqual(moved.x - window.x, 120, accuracy: 2, "moved from \(window) to \(moved)", file: file, line: line)
            XCTAssertEqual(moved.y - window.y, 80, accuracy: 2, "moved from \(window) to \(moved)", file: file, line: line)
        }
        // Back in the window after the release: the app hears enter again.
        let (ix, iy) = app.inside(moved)
        try session.control.movePointer(x: ix, y: iy)
        _ = try session.wait(timeout: 2) { !process.isRunning }
        XCTAssertTrue(process.isRunning, "entering after the move killed \(app.arguments[0]):\n\(session.log)", file: file, line: line)
        return moved
    }

    /// Opens a popup menu, moves onto it (a new surface of the same app: enter, set_cursor),
    /// moves about on it, then closes it with Escape.
    private func openMenuAndMoveOntoIt(_ window: TestControl.Window, at point: (Double, Double), button: UInt32, _ app: App,
                                       _ session: Session, _ process: Process, file: StaticString, line: UInt) throws {
        try session.control.movePointer(x: point.0, y: point.1)
        try session.control.click(button)
        var popups: [TestControl.Popup] = []
        let opened = try session.wait(timeout: 10) { popups = try session.control.popups(); return !popups.isEmpty }
        XCTAssertTrue(opened, "no popup menu opened", file: file, line: line)
        guard let menu = popups.first else { return }
        let before = try session.control.cursor().sets
        for step in 1...3 {
            let x = Double(menu.x + menu.width / 2), y = Double(menu.y) + Double(menu.height * Int32(step)) / 4
            let on = try session.control.movePointer(x: x, y: y)
            XCTAssertTrue(on.title == app.window || on.appID == app.window, "the pointer is not on the menu: \(on)", file: file, line: line)
        }
        _ = try session.wait(timeout: 5) { try session.control.cursor().sets > before || !process.isRunning }
        XCTAssertTrue(process.isRunning, "moving onto the menu killed \(app.arguments[0]):\n\(session.log)", file: file, line: line)
        XCTAssertFalse(try session.control.popups().isEmpty, "the menu closed when the pointer moved onto it", file: file, line: line)
        try session.control.tap(Self.escapeKey)
        let closed = try session.wait(timeout: 5) { try session.control.popups().isEmpty }
        XCTAssertTrue(closed, "Escape did not close the menu", file: file, line: line)
    }

    // MARK: Helpers

    /// A point on the output, away from the window and its shadows.
    private func outside(_ window: TestControl.Window, _ session: Session) throws -> (Double, Double) {
        let shot = try session.screenshot("size")
        let corners = [(4.0, 4.0), (Double(shot.width) - 4, 4), (4, Double(shot.height) - 4), (Double(shot.width) - 4, Double(shot.height) - 4)]
        func distance(_ p: (Double, Double)) -> Double {
            let dx = max(Double(window.x) - p.0, 0, p.0 - Double(window.x + window.width))
            let dy = max(Double(window.y) - p.1, 0, p.1 - Double(window.y + window.height))
            return max(dx, dy)
        }
        return corners.max { distance($0) < distance($1) }!
    }

    private func assertDrawn(_ window: TestControl.Window, _ app: App, _ session: Session, _ when: String,
                             file: StaticString, line: UInt) throws {
        XCTAssertTrue(try session.control.windows().contains { $0.title == app.window || $0.appID == app.window },
                      "\(app.window)'s window is gone \(when)", file: file, line: line)
        let drawn = try session.wait(timeout: 20) {
            try session.screenshot().distinctColors(x: Int(max(window.x, 0)), y: Int(max(window.y, 0)),
                                                    width: Int(window.width), height: Int(window.height)) >= app.minColors
        }
        XCTAssertTrue(drawn, "\(app.window)'s window is not drawn \(when)", file: file, line: line)
    }
}
