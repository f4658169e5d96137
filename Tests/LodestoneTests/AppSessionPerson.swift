import Foundation
import LodestoneTesting
import XCTest

/// A person's hands on one app in one session (AppSessionTests): the pointer moves in small
/// steps at the pace of a hand on the real clock, never teleports; each gesture is followed by
/// the check a person makes (did it open, did it move, is the app still there).
struct Person {
    let app: AppSessionTests.App
    let session: Session
    let process: Process
    let pointer: String
    let file: StaticString, line: UInt

    private var label: String { "\(app.name) (--pointer \(pointer))" }

    // MARK: Checks

    /// The first line of the log that says a client was disconnected for an error.
    var protocolError: String? {
        session.log.split(separator: "\n").first { $0.contains("protocol error") || $0.contains("error in client communication") }
            .map(String.init)
    }

    /// Whether the app and the compositor still run, a moment after `step` (a client killed for
    /// a protocol error takes a round trip to notice); a failure names the protocol error.
    func alive(_ step: String) -> Bool {
        shot(step)
        _ = try? session.wait(timeout: 0.3) { !process.isRunning }
        if let error = protocolError {
            XCTFail("\(label): a protocol error by \(step): \(error)", file: file, line: line)
            return false
        }
        guard process.isRunning, session.compositorIsRunning else {
            XCTFail("\(label) died by \(step) (status \(process.isRunning ? 0 : process.terminationStatus)):\n\(session.log.suffix(3000))",
                    file: file, line: line)
            return false
        }
        return true
    }

    /// With LODESTONE_APP_SHOTS=DIR, the output after each step, for finding the points
    /// of a new app or seeing what a failing step left on screen.
    func shot(_ step: String) {
        guard let directory = ProcessInfo.processInfo.environment["LODESTONE_APP_SHOTS"] else { return }
        let name = "\(app.name)-\(pointer)-\(step)".map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "_" }
        _ = try? session.control.capturePNG(to: directory + "/" + String(name) + ".png")
    }

    func assertNoProtocolError() {
        XCTAssertNil(protocolError, "\(label): a protocol error", file: file, line: line)
    }

    func assertDrawn(_ window: TestControl.WindowState, _ when: String) throws {
        XCTAssertTrue(try session.control.windows().contains { matches($0) }, "\(label): the window is gone \(when)", file: file, line: line)
        let drawn = try session.wait(timeout: 20) {
            try session.screenshot().distinctColors(x: Int(window.x), y: Int(window.y), width: Int(window.width),
                                                    height: Int(window.height)) >= app.minColors
        }
        XCTAssertTrue(drawn, "\(label): the window is not drawn \(when)", file: file, line: line)
    }

    private func matches(_ w: TestControl.WindowState) -> Bool { w.title == app.window || w.appID == app.window }

    // MARK: The pointer

    /// Glides from where the pointer is to (x, y) in steps of at most 12 px, one every 8 ms.
    @discardableResult
    func glide(to x: Double, _ y: Double) throws -> TestControl.PointerState {
        let from = try session.control.pointer()
        let steps = max(1, Int((hypot(x - from.x, y - from.y) / 12).rounded(.up)))
        var state = from
        for k in 1...steps {
            let t = Double(k) / Double(steps)
            state = try session.control.movePointer(x: from.x + (x - from.x) * t, y: from.y + (y - from.y) * t)
            usleep(8_000)
        }
        return state
    }

    /// Over the header bar, then a 4×3 grid across the window (its buttons, fields and
    /// lists, whatever sits there), then the text field and the menu's opener: each
    /// new widget under the pointer is another cursor image (arrow, hand, text beam).
    func wander(over w: TestControl.WindowState) throws {
        var points: [(Double, Double)] = [0.2, 0.5, 0.8].map { (Double(w.x) + Double(w.width) * $0, Double(w.y) + 12) }
        for fy in [0.15, 0.5, 0.85] {
            for fx in [0.1, 0.37, 0.63, 0.9] { points.append((Double(w.x) + Double(w.width) * fx, Double(w.y) + Double(w.height) * fy)) }
        }
        if let field = app.textField { points.append(field(w)) }
        if let menu = app.menu { points.append(menu.0(w)) }
        for (x, y) in points {
            try glide(to: x, y)
            usleep(60_000)  // a hand rests a moment on what it looks at
        }
    }

    /// Five times out of the window and back in, to its centre.
    func leaveAndReenter(_ w: TestControl.WindowState) throws {
        let (ox, oy) = try outside(w)
        for k in 1...5 {
            try glide(to: ox, oy)
            let left = try session.control.pointer()
            XCTAssertTrue(left.title.isEmpty && left.appID.isEmpty, "\(label): leave \(k): the pointer is still on a window: \(left)",
                          file: file, line: line)
            let entered = try glide(to: Double(w.x + w.width / 2), Double(w.y + w.height / 2))
            XCTAssertTrue(entered.title == app.window || entered.appID == app.window,
                          "\(label): re-entry \(k): the pointer is not on the window: \(entered)", file: file, line: line)
            usleep(100_000)
        }
    }

    /// Opens a popup menu, moves onto it and about on it, then closes it with Escape.
    func openMenu(at point: (Double, Double), button: UInt32) throws {
        try glide(to: point.0, point.1)
        try session.control.click(button)
        var popups: [TestControl.Popup] = []
        let opened = try session.wait(timeout: 10) { popups = try session.control.popups(); return !popups.isEmpty }
        XCTAssertTrue(opened, "\(label): no popup menu opened", file: file, line: line)
        guard let menu = popups.first else { return }
        for step in 1...3 {
            let on = try glide(to: Double(menu.x + menu.width / 2), Double(menu.y) + Double(menu.height * Int32(step)) / 4)
            XCTAssertTrue(on.title == app.window || on.appID == app.window || on.title == menu.title,
                          "\(label): the pointer is not on the menu: \(on)", file: file, line: line)
            usleep(100_000)
        }
        XCTAssertFalse(try session.control.popups().isEmpty, "\(label): the menu closed when the pointer moved onto it", file: file, line: line)
        try session.control.tap(AppSessionTests.escape)
        let closed = try session.wait(timeout: 5) { try session.control.popups().isEmpty }
        XCTAssertTrue(closed, "\(label): Escape did not close the menu", file: file, line: line)
    }

    /// Clicks into the text field and types; a shell must run what was typed.
    func type(at point: (Double, Double)) throws {
        try glide(to: point.0, point.1)
        try session.control.click()
        let focused = try session.wait(timeout: 5) {
            let k = try session.control.keyboard()
            return k.title == app.window || k.appID == app.window
        }
        XCTAssertTrue(focused, "\(label): the click did not give the window the keyboard: \((try? session.control.keyboard()).map { "\($0)" } ?? "?")", file: file, line: line)
        for key in AppSessionTests.touchLodestone {
            try session.control.tap(key)
            usleep(30_000)
        }
        guard case .shell(let directory) = app.typing else { return }
        try session.control.tap(AppSessionTests.enter)
        let ran = try session.wait(timeout: 15) { FileManager.default.fileExists(atPath: directory + "/lodestone") }
        XCTAssertTrue(ran, "\(label): typing 'touch lodestone' did not create the file", file: file, line: line)
    }

    /// Presses on the title bar, moves until the app starts an interactive move (its pointer
    /// focus goes), carries the window 120 px right and 80 down, and releases.
    func drag(byTitleBar w: TestControl.WindowState) throws -> TestControl.WindowState {
        let (tx, ty) = app.titleBar(w)
        try glide(to: tx, ty)
        try session.control.button(pressed: true)
        var (px, py) = (tx, ty)
        let grabbed = try session.wait(timeout: 10) {
            // GTK starts the move once the pointer passes its drag threshold; Qt at the press.
            px += 1; py += 1
            return try session.control.movePointer(x: px, y: py).title.isEmpty
        }
        XCTAssertTrue(grabbed, "\(label) never started a move from its title bar", file: file, line: line)
        try glide(to: px + 120, py + 80)
        try session.control.button(pressed: false)
        let moved = try XCTUnwrap(try session.control.windows().first { matches($0) }, file: file, line: line)
        if grabbed {
            XCTAssertEqual(moved.x - w.x, 120, accuracy: 3, "\(label): moved from \(w) to \(moved)", file: file, line: line)
            XCTAssertEqual(moved.y - w.y, 80, accuracy: 3, "\(label): moved from \(w) to \(moved)", file: file, line: line)
        }
        try glide(to: Double(moved.x + moved.width / 2), Double(moved.y + moved.height / 2))
        return moved
    }

    /// Opens a secondary window with the keyboard and closes it as its close button does.
    func openAndClose(_ keys: [UInt32], _ isSecondary: (TestControl.WindowState) -> Bool, over w: TestControl.WindowState) throws {
        for key in keys { try session.control.key(key, pressed: true) }
        for key in keys.reversed() { try session.control.key(key, pressed: false) }
        var secondary: TestControl.WindowState?
        let opened = try session.wait(timeout: 15) {
            secondary = try session.control.windows().first(where: isSecondary)
            return secondary != nil
        }
        XCTAssertTrue(opened, "\(label): no secondary window opened; windows: \((try? session.control.windows()) ?? [])", file: file, line: line)
        guard let secondary else { return }
        // The pointer visits it, as a person's would on the way to its close button.
        try glide(to: Double(secondary.x + secondary.width / 2), Double(secondary.y + secondary.height / 2))
        usleep(200_000)
        try session.control.closeWindow(secondary.title.isEmpty ? secondary.appID : secondary.title)
        let closed = try session.wait(timeout: 10) { try !session.control.windows().contains(where: isSecondary) }
        XCTAssertTrue(closed, "\(label): the secondary window \(secondary) did not close", file: file, line: line)
        XCTAssertTrue(try session.control.windows().contains { matches($0) }, "\(label): closing the secondary window closed the app's", file: file, line: line)
    }

    /// A point on the output away from the window and its shadows.
    private func outside(_ window: TestControl.WindowState) throws -> (Double, Double) {
        let shot = try session.screenshot("size")
        let corners = [(4.0, 4.0), (Double(shot.width) - 4, 4), (4, Double(shot.height) - 4), (Double(shot.width) - 4, Double(shot.height) - 4)]
        func distance(_ p: (Double, Double)) -> Double {
            let dx = max(Double(window.x) - p.0, 0, p.0 - Double(window.x + window.width))
            let dy = max(Double(window.y) - p.1, 0, p.1 - Double(window.y + window.height))
            return max(dx, dy)
        }
        return corners.max { distance($0) < distance($1) }!
    }
}
