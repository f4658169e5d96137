import Foundation
import LodestoneTesting
import XCTest

/// X11 apps through Xwayland, each in its own headless Lodestone: Xwayland starts on the
/// first X11 connection, the window manager maps and places the windows, their pixels
/// are drawn where the desktop says, and pointer and keyboard input reach them.
final class XwaylandTests: XCTestCase {
    static let rightButton: UInt32 = 0x111
    static let escapeKey: UInt32 = 1
    /// evdev codes for typing `touch hi` and Enter.
    static let touchHi: [UInt32] = [20, 24, 22, 46, 35, 57, 35, 23, 28]

    /// The pid Lodestone logged for Xwayland, once it started.
    private func xwaylandPID(_ session: Session) -> Int32? {
        guard let line = session.log.split(separator: "\n").last(where: { $0.contains("Xwayland started") }),
              let r = line.range(of: "(pid ") else { return nil }
        return Int32(line[r.upperBound...].prefix { $0.isNumber })
    }

    func testXtermMapsRendersAndRunsWhatIsTyped() throws {
        try requireProgram("xterm")
        let (session, display) = try startXwaylandSession()
        defer { session.stop() }
        XCTAssertFalse(session.log.contains("Xwayland started"), "Xwayland started before any X11 client")
        let dir = NSTemporaryDirectory() + "xterm-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let xterm = try session.launch(["sh", "-c", "cd '\(dir)' && exec xterm -T xterm-test -geometry 80x24 -e /bin/sh"],
                                       environment: ["DISPLAY": display])
        let window = try session.waitForWindow("xterm-test", timeout: 40)
        XCTAssertTrue(session.log.contains("Xwayland started"), session.log)
        XCTAssertEqual(window.appID, "XTerm")
        XCTAssertTrue(window.activated, "the new X window does not have the keyboard: \(window)")
        XCTAssertGreaterThan(window.width, 200)
        XCTAssertGreaterThan(window.height, 100)
        // xterm's first frame may take a moment after mapping.
        _ = try session.wait(timeout: 10) { try session.screenshot().distinctColors(x: Int(window.x), y: Int(window.y), width: Int(window.width), height: Int(window.height)) >= 2 }
        assertWindowDrawn(try session.screenshot(), window)

        // The pointer enters the X window's surface.
        let inside = try session.control.movePointer(x: Double(window.x + window.width / 2), y: Double(window.y + window.height / 2))
        XCTAssertEqual(inside.title, "xterm-test", "the pointer is not on the xterm: \(inside)")
        XCTAssertEqual(try session.control.keyboard().title, "xterm-test")

        // Typing reaches the shell inside xterm.
        for key in Self.touchHi { try session.control.tap(key) }
        let created = try session.wait(timeout: 15) { FileManager.default.fileExists(atPath: dir + "/hi") }
        XCTAssertTrue(created, "typing 'touch hi' in xterm did not create the file:\n\(session.log.suffix(3000))")
        XCTAssertTrue(xterm.isRunning)
        XCTAssertFalse(session.log.contains("protocol error"), session.log)

        // Closing sends WM_DELETE_WINDOW, which xterm answers by exiting.
        _ = try session.control.closeWindow("xterm-test")
        XCTAssertTrue(try session.wait(timeout: 10) { !xterm.isRunning }, "xterm did not exit when its window was closed")
        XCTAssertTrue(try session.wait(timeout: 10) { try session.control.windows().isEmpty }, "xterm's window outlived it")
    }

    func testClickingAnXWindowGivesItTheKeyboard() throws {
        try requireProgram("xterm")
        try requireProgram("xeyes")
        let (session, display) = try startXwaylandSession()
        defer { session.stop() }
        let dir = NSTemporaryDirectory() + "xterm-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try session.launch(["sh", "-c", "cd '\(dir)' && exec xterm -T xterm-test -e /bin/sh"], environment: ["DISPLAY": display])
        let term = try session.waitForWindow("xterm-test", timeout: 40)
        try session.launch(["xeyes", "-geometry", "200x150"], environment: ["DISPLAY": display])
        let eyes = try session.waitForWindow("xeyes", timeout: 40)
        // The second window took the keyboard (same client: Xwayland).
        XCTAssertEqual(try session.control.keyboard().title, "xeyes")
        // Somewhere on the xterm the xeyes window does not cover.
        let x = Double(eyes.x > term.x + 100 ? term.x + 40 : term.x + term.width - 40), y = Double(term.y + term.height - 40)
        try session.control.movePointer(x: x, y: y)
        try session.control.click()
        XCTAssertEqual(try session.control.keyboard().title, "xterm-test", "a click on the xterm did not give it the keyboard")
        XCTAssertEqual(try session.control.windows().first?.title, "xterm-test", "the clicked window was not raised")
        // Typed a moment after the click, as a hand does: the window manager's SetInputFocus
        // goes to Xwayland on the X socket and the keys on the Wayland one, and keys read
        // first went to xeyes (once in a full make test, never alone: not proven, not fixed).
        usleep(300_000)
        for key in Self.touchHi { try session.control.tap(key) }
        XCTAssertTrue(try session.wait(timeout: 15) { FileManager.default.fileExists(atPath: dir + "/hi") },
                      "typing after the click did not reach xterm")
    }

    func testXeyesRendersAndFollowsThePointer() throws {
        try requireProgram("xeyes")
        let (session, display) = try startXwaylandSession()
        defer { session.stop() }
        try session.launch(["xeyes", "-geometry", "300x200"], environment: ["DISPLAY": display])
        let window = try session.waitForWindow("xeyes", timeout: 40)
        XCTAssertEqual(window.appID, "XEyes")
        _ = try session.wait(timeout: 10) { try session.screenshot().distinctColors(x: Int(window.x), y: Int(window.y), width: Int(window.width), height: Int(window.height)) >= 2 }
        assertWindowDrawn(try session.screenshot(), window)

        // The eyes look at the pointer: the middle of the window changes when it moves
        // from one corner to the other (the pointer itself is drawn in the corners only).
        let (cx, cy, cw, ch) = (Int(window.x + window.width / 4), Int(window.y + window.height / 4), Int(window.width / 2), Int(window.height / 2))
        try session.control.movePointer(x: Double(window.x + 4), y: Double(window.y + 4))
        _ = try session.wait(timeout: 2) { false }  // xeyes polls the pointer
        let topLeft = try session.screenshot("top-left")
        try session.control.movePointer(x: Double(window.x + window.width - 4), y: Double(window.y + window.height - 4))
        var changed = 0
        _ = try session.wait(timeout: 10) {
            changed = try session.screenshot("bottom-right").countDiffering(from: topLeft, x: cx, y: cy, width: cw, height: ch)
            return changed > 20
        }
        XCTAssertGreaterThan(changed, 20, "xeyes' pupils did not follow the pointer")
    }

    func testAdaptivePointerIsACircleOverXeyesAndABeamOverXterm() throws {
        try requireProgram("xeyes")
        try requireProgram("xterm")
        let (session, display) = try startXwaylandSession()
        defer { session.stop() }
        try session.launch(["xeyes", "-geometry", "300x200+0+0"], environment: ["DISPLAY": display])
        let eyes = try session.waitForWindow("xeyes", timeout: 40)
        XCTAssertEqual(try session.control.movePointer(x: Double(eyes.x + 30), y: Double(eyes.y + 30)).title, "xeyes")
        // xeyes sets no cursor: Xwayland attaches the root window's, the theme's arrow
        // Lodestone gave it, which the adaptive pointer reads as the circle.
        XCTAssertTrue(try session.wait(timeout: 10) { try session.control.cursor().kind == .surface },
                      "Xwayland set no cursor image over xeyes")
        let probe = try PointerShapeProbe(session: session)
        let circle = try probe.shape()
        XCTAssertEqual(circle.kind, .circle, "over xeyes the pointer is \(circle)")
        XCTAssertEqual(circle.alpha, 1, accuracy: 0.01, "the circle is not drawn over xeyes: \(circle)")

        // xterm asks for X's I-beam glyph; with the theme named in the resources Xlib
        // loads the theme's text cursor, and the pointer becomes the adaptive beam.
        try session.launch(["xterm", "-T", "xterm-test", "-geometry", "80x24+400+300"], environment: ["DISPLAY": display])
        let term = try session.waitForWindow("xterm-test", timeout: 40)
        let before = try session.control.cursor().sets
        XCTAssertEqual(try session.control.movePointer(x: Double(term.x + term.width / 2), y: Double(term.y + term.height / 2)).title, "xterm-test")
        _ = try session.wait(timeout: 10) { try session.control.cursor().sets > before }
        var beam = try probe.shape()
        _ = try session.wait(timeout: 5) { beam = try probe.shape(); return beam.kind == .verticalBeam }
        XCTAssertEqual(beam.kind, .verticalBeam, "over xterm the pointer is \(beam)")
    }

    func testGtk3OverX11MapsAndItsContextMenuOpensWhereClicked() throws {
        try requireProgram("gtk3-demo")
        let (session, display) = try startXwaylandSession()
        defer { session.stop() }
        let app = try session.launch(["gtk3-demo"], environment: ["DISPLAY": display, "GDK_BACKEND": "x11", "NO_AT_BRIDGE": "1"])
        let window = try session.waitForWindow("Gtk3-demo", timeout: 60)
        _ = try session.wait(timeout: 10) { try session.screenshot().distinctColors(x: Int(window.x), y: Int(window.y), width: Int(window.width), height: Int(window.height)) >= 20 }
        assertWindowDrawn(try session.screenshot(), window, minDistinctColors: 20)

        // The right-click menu of the Info page's text view: an override-redirect X window
        // that must appear at the pointer.
        let (px, py) = (Double(window.x + 520), Double(window.y + 420))
        try session.control.movePointer(x: px, y: py)
        let before = try session.screenshot("before-menu")
        try session.control.click(Self.rightButton)
        var changed = 0
        // Below and right of the pointer (not under it: the pointer is drawn there).
        let (mx, my) = (Int(px) + 12, Int(py) + 12)
        _ = try session.wait(timeout: 10) {
            changed = try session.screenshot("menu").countDiffering(from: before, x: mx, y: my, width: 120, height: 140)
            return changed > 500
        }
        XCTAssertGreaterThan(changed, 500, "no menu appeared below and right of the right-click")
        // Nothing changed far from it: the menu is where X put it, not elsewhere.
        let elsewhere = try session.screenshot("menu").countDiffering(from: before, x: Int(window.x) + 300, y: Int(window.y) + 150, width: 200, height: 100)
        XCTAssertLessThan(elsewhere, 50, "the page changed away from the menu")
        try session.control.tap(Self.escapeKey)
        XCTAssertTrue(try session.wait(timeout: 10) { try session.screenshot("menu-closed").countDiffering(from: before, x: mx, y: my, width: 120, height: 140) < 50 },
                      "Escape did not close the menu")

        // A left click on "Button Boxes" in the sidebar shows that demo's page: its title
        // replaces "Application Class".
        let title = (x: Int(window.x) + 240, y: Int(window.y) + 105, width: 300, height: 40)
        let page = try session.screenshot("page")
        try session.control.movePointer(x: Double(window.x + 70), y: Double(window.y + 155))
        try session.control.click()
        var titleChanged = 0
        _ = try session.wait(timeout: 10) {
            titleChanged = try session.screenshot("clicked").countDiffering(from: page, x: title.x, y: title.y, width: title.width, height: title.height)
            return titleChanged > 100
        }
        XCTAssertGreaterThan(titleChanged, 100, "clicking a sidebar row did not change the page")
        XCTAssertTrue(app.isRunning)
        XCTAssertFalse(session.log.contains("protocol error"), session.log)
    }

    /// Dragging gtk3-demo's header bar: GTK asks with _NET_WM_MOVERESIZE, the window
    /// follows the hand, and X hears where it went (a menu opens at the new place).
    func testGtk3HeaderBarDragMovesTheXWindow() throws {
        try requireProgram("gtk3-demo")
        let (session, display) = try startXwaylandSession()
        defer { session.stop() }
        let app = try session.launch(["gtk3-demo"], environment: ["DISPLAY": display, "GDK_BACKEND": "x11", "NO_AT_BRIDGE": "1"])
        let window = try session.waitForWindow("Gtk3-demo", timeout: 60)
        _ = try session.wait(timeout: 10) { try session.screenshot().distinctColors(x: Int(window.x), y: Int(window.y), width: Int(window.width), height: Int(window.height)) >= 20 }
        let (tx, ty) = (Double(window.x + 220), Double(window.y + 22))
        try session.control.movePointer(x: tx, y: ty)
        try session.control.button(pressed: true)
        var (px, py) = (tx, ty)
        let grabbed = try session.wait(timeout: 10) {
            px += 1; py += 1
            return try session.control.movePointer(x: px, y: py).title.isEmpty
        }
        XCTAssertTrue(grabbed, "gtk3-demo never started a move from its header bar")
        try session.control.movePointer(x: px + 60, y: py + 40)
        try session.control.movePointer(x: px + 120, y: py + 80)
        try session.control.button(pressed: false)
        let moved = try XCTUnwrap(try session.control.windows().first { $0.appID == "Gtk3-demo" })
        XCTAssertEqual(moved.x - window.x, 120, accuracy: 2, "moved from \(window) to \(moved)")
        XCTAssertEqual(moved.y - window.y, 80, accuracy: 2, "moved from \(window) to \(moved)")
        _ = try session.wait(timeout: 10) { try session.screenshot().distinctColors(x: Int(moved.x), y: Int(moved.y), width: Int(moved.width), height: Int(moved.height)) >= 20 }
        assertWindowDrawn(try session.screenshot("moved"), moved, minDistinctColors: 20)

        // X knows the new place: the context menu opens at the pointer, not where the
        // window used to be.
        let (mx, my) = (Double(moved.x + 520), Double(moved.y + 420))
        try session.control.movePointer(x: mx, y: my)
        let before = try session.screenshot("before-menu")
        try session.control.click(Self.rightButton)
        var changed = 0
        _ = try session.wait(timeout: 10) {
            changed = try session.screenshot("menu").countDiffering(from: before, x: Int(mx) + 12, y: Int(my) + 12, width: 120, height: 140)
            return changed > 500
        }
        XCTAssertGreaterThan(changed, 500, "no menu at the pointer after the move")
        try session.control.tap(Self.escapeKey)
        XCTAssertTrue(app.isRunning)
    }

    /// gtk3-demo's dialog demo is transient for the main window, and its message dialog
    /// for the demo: each opens centred over its parent, and closing (WM_DELETE_WINDOW)
    /// takes it away while its parent stays.
    func testGtk3TransientDialogsOpenOverTheirParentAndClose() throws {
        try requireProgram("gtk3-demo")
        let (session, display) = try startXwaylandSession()
        defer { session.stop() }
        let app = try session.launch(["gtk3-demo", "--run", "dialog"], environment: ["DISPLAY": display, "GDK_BACKEND": "x11", "NO_AT_BRIDGE": "1"])
        let main = try session.waitForWindow("Application Class", timeout: 60)
        let demo = try session.waitForWindow("Dialogs and Message Boxes", timeout: 30)
        assertCentred(demo, over: main)
        XCTAssertTrue(demo.activated)

        // "Message Dialog" opens a modal message box, transient for the demo.
        _ = try session.wait(timeout: 10) { try session.screenshot().distinctColors(x: Int(demo.x), y: Int(demo.y), width: Int(demo.width), height: Int(demo.height)) >= 10 }
        try session.control.movePointer(x: Double(demo.x + 86), y: Double(demo.y + 50))
        try session.control.click()
        let known = [main.title, demo.title]
        let message = try session.waitForWindow(nil, timeout: 20) { !known.contains($0.title) }
        assertCentred(message, over: demo)
        XCTAssertEqual(try session.control.windows().first?.title, message.title, "the dialog is not on top")
        XCTAssertEqual(try session.control.keyboard().title, message.title, "the dialog does not have the keyboard")

        // Closing asks politely (WM_DELETE_WINDOW); GTK answers by destroying the dialog.
        _ = try session.control.closeWindow(message.title)
        XCTAssertTrue(try session.wait(timeout: 10) { try !session.control.windows().contains { $0.title == message.title } },
                      "the message dialog did not close")
        _ = try session.control.closeWindow(demo.title)
        XCTAssertTrue(try session.wait(timeout: 10) { try session.control.windows().map(\.title) == [main.title] },
                      "closing the demo did not leave the main window alone")
        XCTAssertTrue(app.isRunning)
    }

    private func assertCentred(_ child: TestControl.WindowState, over parent: TestControl.WindowState, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(Double(child.x) + Double(child.width) / 2, Double(parent.x) + Double(parent.width) / 2, accuracy: 2,
                       "\(child.title) is not centred over \(parent.title)", file: file, line: line)
        XCTAssertEqual(Double(child.y) + Double(child.height) / 2, Double(parent.y) + Double(parent.height) / 2, accuracy: 2,
                       "\(child.title) is not centred over \(parent.title)", file: file, line: line)
    }

    func testXwaylandDoesNotStartWithoutAnX11Client() throws {
        let (session, _) = try startXwaylandSession()
        defer { session.stop() }
        // A Wayland client comes and goes; no X11 client ever connects.
        try requireProgram("weston-simple-shm")
        try session.launch(["weston-simple-shm"])
        _ = try session.waitForWindow(nil, timeout: 20)
        XCTAssertFalse(session.log.contains("Xwayland started"), session.log)
        XCTAssertNil(childNamed("Xwayland", of: session.compositorPID), "an Xwayland runs without any X11 client")
    }

    /// The command gets DISPLAY, its socket and lock file exist while Lodestone runs, and
    /// both are gone when it exits, unless another X server on this machine (another test's
    /// Lodestone, an Xvfb: the tests run in shards side by side) has taken the freed number
    /// since: then the lock file names that server, alive, not this Lodestone.
    func testTheCommandGetsDisplayAndTheSocketsGoAtExit() throws {
        try requireProgram("Xwayland")
        let runtime = NSTemporaryDirectory() + "lodestone-x11-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        var env = ProcessInfo.processInfo.environment
        env["XDG_RUNTIME_DIR"] = runtime
        env["XDG_CONFIG_HOME"] = runtime + "/no-config"
        env.removeValue(forKey: "WAYLAND_DISPLAY")
        env.removeValue(forKey: "DISPLAY")
        let script = #"n=${DISPLAY#:}; test -n "$DISPLAY" && test -S /tmp/.X11-unix/X$n && test -f /tmp/.X$n-lock && echo "display=$DISPLAY lodestone=$PPID""#
        let (status, output) = try run([Session.executable, "--backend", "headless", "--socket", "x11-cli", "--", "sh", "-c", script], environment: env)
        XCTAssertEqual(status, 0, output)
        let line = try XCTUnwrap(output.split(separator: "\n").first { $0.hasPrefix("display=:") }, output)
        let words = line.split(separator: " ")
        let n = words[0].dropFirst("display=:".count), lodestone = Int32(words.last?.dropFirst("lodestone=".count) ?? "")
        XCTAssertTrue(output.contains("X11 apps connect to DISPLAY=:\(n)"), output)
        // The socket first: a server that takes the number writes its lock file before it.
        let socketLeft = FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(n)")
        let owner = Int32(textOfFile("/tmp/.X\(n)-lock").trimmingCharacters(in: .whitespacesAndNewlines))
        if let owner, owner != lodestone, kill(owner, 0) == 0 {
            print("display :\(n) is another X server's now (pid \(owner)), taken after Lodestone (pid \(lodestone.map(String.init) ?? "?")) left it")
        } else {
            XCTAssertFalse(socketLeft, "the X11 socket outlived Lodestone")
            XCTAssertFalse(FileManager.default.fileExists(atPath: "/tmp/.X\(n)-lock"), "the X11 lock file outlived Lodestone")
        }
    }

    func testNoXwaylandFlagOffersNoDisplay() throws {
        let session = try Session(extraArguments: ["--no-xwayland"])
        defer { session.stop() }
        _ = try session.control.windows()
        XCTAssertNil(session.x11Display, session.log)
        XCTAssertFalse(session.log.contains("Xwayland"), session.log)
    }

    func testKillingXwaylandLeavesLodestoneRunningAndItStartsAgain() throws {
        try requireProgram("xeyes")
        let (session, display) = try startXwaylandSession()
        defer { session.stop() }
        try session.launch(["xeyes"], environment: ["DISPLAY": display])
        _ = try session.waitForWindow("xeyes", timeout: 40)
        let pid = try XCTUnwrap(xwaylandPID(session), session.log)
        kill(pid, SIGKILL)
        XCTAssertTrue(try session.wait(timeout: 10) { session.log.contains("Xwayland exited") }, session.log)
        XCTAssertTrue(session.compositorIsRunning)
        XCTAssertTrue(try session.wait(timeout: 10) { try session.control.windows().isEmpty }, "the X window outlived Xwayland")
        // The next X11 client starts a new Xwayland on the same display.
        try session.launch(["xeyes"], environment: ["DISPLAY": display])
        _ = try session.waitForWindow("xeyes", timeout: 40)
        XCTAssertNotEqual(xwaylandPID(session), pid)
    }

    /// A direct child of `parent` whose command is `name`, if any.
    private func childNamed(_ name: String, of parent: Int32) -> Int32? {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for entry in entries {
            guard let pid = Int32(entry), case let stat = textOfFile("/proc/\(pid)/stat"),
                  let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")") else { continue }
            let comm = stat[stat.index(after: open)..<close]
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if comm == name, fields.count > 1, Int32(fields[1]) == parent { return pid }
        }
        return nil
    }
}

private extension Screenshot {
    /// Pixels of a rect that differ between this capture and `other`.
    func countDiffering(from other: Screenshot, x: Int, y: Int, width w: Int, height h: Int) -> Int {
        var n = 0
        for py in max(0, y)..<min(height, y + h) {
            for px in max(0, x)..<min(width, x + w) where self[px, py] != other[px, py] { n += 1 }
        }
        return n
    }
}
