import Foundation
import LodestoneTesting
import XCTest

/// What the X11 window manager decides beyond mapping: Lodestone's title bar above X
/// windows that want one (xterm, and `Tests/clients/x11_client.py`, a python-xlib client
/// that asks for one thing at a time), `_NET_WM_STATE` maximize and fullscreen, and
/// `_NET_WM_MOVERESIZE` resizes. Each answer is checked from both sides: where Lodestone
/// draws the window, and what X tells the client (ConfigureNotify, properties).
final class XwaylandWindowManagementTests: XCTestCase {
    static let bar: Int32 = 30
    static let desktop: UInt32 = 0x303446

    /// Maps an x11_client.py window; its stdout (the ConfigureNotify it gets) goes to the
    /// returned file.
    private func xWindow(_ session: Session, _ display: String, title: String, _ options: [String] = []) throws -> (Process, String, TestControl.WindowState) {
        let output = NSTemporaryDirectory() + "x11-client-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).log"
        let process = try session.launch([try xlibPython(), x11ClientScript, "window", "--title", title] + options, environment: ["DISPLAY": display], output: output)
        let window = try session.waitForWindow(title, timeout: 40)
        return (process, output, window)
    }

    /// Runs an x11_client.py command (state, iconify, get) and returns what it printed.
    @discardableResult
    private func xClient(_ display: String, _ arguments: [String]) throws -> String {
        var env = ProcessInfo.processInfo.environment
        env["DISPLAY"] = display
        let (status, output) = try run([try xlibPython(), x11ClientScript] + arguments, environment: env)
        XCTAssertEqual(status, 0, output)
        return output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The client was told (ConfigureNotify) it has this geometry.
    private func clientHeard(_ session: Session, _ output: String, _ geometry: String) throws -> Bool {
        try session.wait(timeout: 10) { textOfFile(output).contains("configure \(geometry)\n") }
    }

    private func window(_ session: Session, _ title: String) throws -> TestControl.WindowState? {
        try session.control.windows().first { $0.title == title }
    }

    /// The centre of a title bar button: close, maximize, minimize from the right.
    private func button(_ index: Int32, of w: TestControl.WindowState) -> (Double, Double) {
        (Double(w.x + w.width - (index + 1) * 27 + 12), Double(w.y - Self.bar / 2))
    }

    // MARK: Title bars

    func testXtermGetsATitleBarWhoseCloseButtonClosesIt() throws {
        try requireProgram("xterm")
        let (session, display) = try startXwaylandSession()
        defer { session.stop() }
        // xterm answers WM_DELETE_WINDOW with SIGHUP to its child's process group (killpg):
        // a close before the child has made that group is lost, so, as a person sees the
        // prompt before closing, the child says when it runs.
        let started = NSTemporaryDirectory() + "xterm-bar-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: started) }
        let xterm = try session.launch(["xterm", "-T", "xterm-bar", "-geometry", "80x24+0+0", "-e", "sh", "-c", "touch '\(started)'; exec sleep 600"],
                                       environment: ["DISPLAY": display])
        let w = try session.waitForWindow("xterm-bar", timeout: 40)
        XCTAssertTrue(try session.wait(timeout: 20) { FileManager.default.fileExists(atPath: started) }, "xterm's child never ran")
        XCTAssertEqual(w.y, Self.bar, "asked for +0+0: moved down so its bar is on screen")
        _ = try session.wait(timeout: 10) { try session.screenshot().distinctColors(x: Int(w.x), y: Int(w.y), width: Int(w.width), height: Int(w.height)) >= 2 }
        let shot = try session.screenshot()
        let (x, y) = (Int(w.x), Int(w.y) - Int(Self.bar))
        let background = shot[x + 4, y + 4]
        XCTAssertNotEqual(background, Self.desktop, "no bar above the xterm")
        XCTAssertEqual(shot[x + Int(w.width) / 4, y + 26], background)
        XCTAssertGreaterThan(shot.distinctColors(x: x + Int(w.width) / 2 - 40, y: y + 8, width: 80, height: 16), 3, "the title is drawn")
        // X hears where the frame is (EWMH _NET_FRAME_EXTENTS: left, right, top, bottom).
        XCTAssertEqual(try xClient(display, ["get", "--title", "xterm-bar", "_NET_FRAME_EXTENTS"]), "0 0 30 0")
        // The bar is Lodestone's: the pointer over it is in no client.
        XCTAssertEqual(try session.control.movePointer(x: Double(w.x + 40), y: Double(w.y - 15)).title, "")
        let (cx, cy) = button(0, of: w)
        try session.control.movePointer(x: cx, y: cy)
        try session.control.click()
        XCTAssertTrue(try session.wait(timeout: 10) { !xterm.isRunning },
                      "the close button did not close xterm (WM_DELETE_WINDOW); windows \((try? session.control.windows()) ?? []), pressed at \((cx, cy)):\n\(session.log.suffix(4000))")
        XCTAssertTrue(try session.wait(timeout: 10) { try session.control.windows().isEmpty }, "xterm's window outlived it")
    }

    func testAnXWindowAskingForNoDecorationsHasNoBar() throws {
        let (session, display) = try startXwaylandSession()
        defer { session.stop() }
        let (_, _, w) = try xWindow(session, display, title: "bare", ["--undecorated", "--geometry", "300x200+200+200"])
        XCTAssertEqual([w.x, w.y], [200, 200])
        _ = try session.wait(timeout: 10) { try session.screenshot()[Int(w.x) + 10, Int(w.y) + 10] == 0x2E8B57 }
        let shot = try session.screenshot()
        XCTAssertEqual(shot[Int(w.x) + 10, Int(w.y) + 10], 0x2E8B57, "the window is drawn")
        XCTAssertEqual(shot[Int(w.x) + 10, Int(w.y) - 15], Self.desktop, "a bar is drawn over a window that asked for none")
        XCTAssertEqual(try xClient(display, ["get", "--title", "bare", "_NET_FRAME_EXTENTS"]), "0 0 0 0")
    }

    func testDraggingAnXWindowsBarMovesItAndTheClientHears() throws {
        let (session, display) = try startXwaylandSession()
        defer { session.stop() }
        let (_, output, w) = try xWindow(session, display, title: "dragged", ["--geometry", "300x200+100+100"])
        try session.control.movePointer(x: Double(w.x + 60), y: Double(w.y - 15))
        try session.control.button(pressed: true)
        try session.control.movePointer(x: Double(w.x + 110), y: Double(w.y + 20))
        try session.control.movePointer(x: Double(w.x + 210), y: Double(w.y + 85))
        try session.control.button(pressed: false)
        let moved = try XCTUnwrap(try window(session, "dragged"))
        XCTAssertEqual([moved.x - w.x, moved.y - w.y], [150, 100], "moved from \(w) to \(moved)")
        XCTAssertTrue(try clientHeard(session, output, "\(moved.x) \(moved.y) 300 200"), "X did not tell the client where it went")
        let shot = try session.screenshot()
        XCTAssertNotEqual(shot[Int(moved.x) + 4, Int(moved.y) - 26], Self.desktop, "the bar went with the window")
        XCTAssertEqual(shot[Int(w.x) + 4, Int(w.y) - 26], Self.desktop, "the old place is the desktop again")
    }

    func testDoubleClickOnTheBarMaximizesAndTheButtonRestores() throws {
        let (session, display) = try startXwaylandSession()
        defer { session.stop() }
        let (_, output, w) = try xWindow(session, display, title: "maxi", ["--geometry", "300x200+100+100"])
        try session.control.movePointer(x: Double(w.x + 60), y: Double(w.y - 15))
        try session.control.click()
        try session.control.click()
        let m = try XCTUnwrap(try window(session, "maxi"))
        XCTAssertEqual([m.x, m.y, m.width, m.height], [0, Self.bar, 1280, 800 - Self.bar], "maximized below its bar")
        XCTAssertTrue(try clientHeard(session, output, "0 30 1280 770"), "X did not resize the client")
        XCTAssertEqual(try xClient(display, ["get", "--title", "maxi", "_NET_WM_STATE"]), "_NET_WM_STATE_MAXIMIZED_VERT _NET_WM_STATE_MAXIMIZED_HORZ")
        let (mx, my) = button(1, of: m)
        try session.control.movePointer(x: mx, y: my)
        try session.control.click()
        let r = try XCTUnwrap(try window(session, "maxi"))
        XCTAssertEqual([r.x, r.y, r.width, r.height], [w.x, w.y, w.width, w.height], "restored")
        XCTAssertTrue(try clientHeard(session, output, "\(w.x) \(w.y) 300 200"))
        XCTAssertEqual(try xClient(display, ["get", "--title", "maxi", "_NET_WM_STATE"]), "")
    }

    func testMinimizeButtonHidesAnXWindowUntilActivated() throws {
        let (session, display) = try startXwaylandSession()
        defer { session.stop() }
        let (_, _, w) = try xWindow(session, display, title: "mini")
        let (nx, ny) = button(2, of: w)
        try session.control.movePointer(x: nx, y: ny)
        try session.control.click()
        XCTAssertTrue(try session.control.windows().isEmpty, "minimized: off the screen")
        XCTAssertEqual(try session.screenshot()[Int(w.x) + 4, Int(w.y) + 4], Self.desktop)
        // ICCCM IconicState, and EWMH hidden.
        XCTAssertEqual(try xClient(display, ["get", "--title", "mini", "WM_STATE"]), "3 0")
        XCTAssertEqual(try xClient(display, ["get", "--title", "mini", "_NET_WM_STATE"]), "_NET_WM_STATE_HIDDEN")
        try session.control.activateWindow("mini")
        XCTAssertEqual(try session.control.windows().first?.title, "mini")
        XCTAssertEqual(try session.control.keyboard().title, "mini")
        XCTAssertEqual(try xClient(display, ["get", "--title", "mini", "WM_STATE"]), "1 0")
        // The client can minimize itself (WM_CHANGE_STATE, as XIconifyWindow sends).
        try xClient(display, ["iconify", "--title", "mini"])
        XCTAssertTrue(try session.wait(timeout: 10) { try session.control.windows().isEmpty }, "WM_CHANGE_STATE Iconic did not minimize")
    }

    // MARK: _NET_WM_STATE

    /// gtk3-demo draws its own header bar (client-side decorations, _MOTIF_WM_HINTS says
    /// none): no bar of Lodestone's above it; a double click on its header bar asks for
    /// maximize with _NET_WM_STATE, and a second one restores.
    func testGtk3HasNoBarAndItsHeaderBarDoubleClickMaximizes() throws {
        try requireProgram("gtk3-demo")
        let (session, display) = try startXwaylandSession()
        defer { session.stop() }
        let app = try session.launch(["gtk3-demo"], environment: ["DISPLAY": display, "GDK_BACKEND": "x11", "NO_AT_BRIDGE": "1"])
        let w = try session.waitForWindow("Gtk3-demo", timeout: 60)
        _ = try session.wait(timeout: 10) { try session.screenshot().distinctColors(x: Int(w.x), y: Int(w.y), width: Int(w.width), height: Int(w.height)) >= 20 }
        XCTAssertGreaterThan(w.y, 20, "placed where a bar above would show: \(w)")
        XCTAssertEqual(try session.screenshot()[Int(w.x) + 100, Int(w.y) - 15], Self.desktop, "a bar is drawn above gtk3-demo")
        let (tx, ty) = (Double(w.x + 220), Double(w.y + 22))
        try session.control.movePointer(x: tx, y: ty)
        try session.control.click()
        try session.control.click()
        let maximizeClick = Date()
        XCTAssertTrue(try session.wait(timeout: 15) {
            guard let m = try session.control.windows().first(where: { $0.appID == "Gtk3-demo" }) else { return false }
            return [m.x, m.y, m.width, m.height] == [0, 0, 1280, 800]
        }, "gtk3-demo did not maximize: \((try? session.control.windows()) ?? [])")
        XCTAssertEqual(try xClient(display, ["get", "--title", w.title, "_NET_WM_STATE"]), "_NET_WM_STATE_MAXIMIZED_VERT _NET_WM_STATE_MAXIMIZED_HORZ")
        // The second double click comes after GTK's double-click time (400 ms), as a
        // person's would: within it, on the same spot of the window, GTK counts presses 3
        // and 4 of one multi-press, never a double click, and sends no _NET_WM_STATE (3 runs
        // in 13 failed so, with 0.3-0.5 s between the two; none in 10 with 1.2 s; 3 in 4
        // with 1.2 s and gtk-double-click-time=2000).
        let sinceMaximize = Date().timeIntervalSince(maximizeClick)
        if sinceMaximize < 1 { usleep(UInt32((1 - sinceMaximize) * 1_000_000)) }
        try session.control.movePointer(x: 220, y: 22)
        try session.control.click()
        try session.control.click()
        XCTAssertTrue(try session.wait(timeout: 15) {
            guard let r = try session.control.windows().first(where: { $0.appID == "Gtk3-demo" }) else { return false }
            return [r.x, r.y, r.width, r.height] == [w.x, w.y, w.width, w.height]
        }, "gtk3-demo was not restored: \((try? session.control.windows()) ?? [])")
        XCTAssertTrue(app.isRunning)
    }

    func testNetWmStateMaximizesAndFullscreensAndRestores() throws {
        let (session, display) = try startXwaylandSession()
        defer { session.stop() }
        let supported = try xClient(display, ["get", "--root", "_NET_SUPPORTED"]).split(separator: " ")
        for atom in ["_NET_WM_STATE", "_NET_WM_STATE_MAXIMIZED_VERT", "_NET_WM_STATE_MAXIMIZED_HORZ", "_NET_WM_STATE_FULLSCREEN",
                     "_NET_WM_STATE_HIDDEN", "_NET_WM_MOVERESIZE", "_NET_FRAME_EXTENTS"] {
            XCTAssertTrue(supported.contains(Substring(atom)), "_NET_SUPPORTED lacks \(atom): \(supported)")
        }
        let (_, output, w) = try xWindow(session, display, title: "states", ["--geometry", "320x240+150+120"])
        let geometry = { () throws -> [Int32] in
            let s = try XCTUnwrap(try self.window(session, "states"))
            return [s.x, s.y, s.width, s.height]
        }

        try xClient(display, ["state", "--title", "states", "add", "maximized_vert", "maximized_horz"])
        XCTAssertTrue(try session.wait { try geometry() == [0, Self.bar, 1280, 770] }, "not maximized: \((try? geometry()) ?? [])")
        XCTAssertTrue(try clientHeard(session, output, "0 30 1280 770"))
        XCTAssertEqual(try xClient(display, ["get", "--title", "states", "_NET_WM_STATE"]), "_NET_WM_STATE_MAXIMIZED_VERT _NET_WM_STATE_MAXIMIZED_HORZ")
        try xClient(display, ["state", "--title", "states", "remove", "maximized_vert", "maximized_horz"])
        XCTAssertTrue(try session.wait { try geometry() == [w.x, w.y, 320, 240] }, "not restored: \((try? geometry()) ?? [])")
        XCTAssertEqual(try xClient(display, ["get", "--title", "states", "_NET_WM_STATE"]), "")

        // Fullscreen covers the whole output, its bar too.
        try xClient(display, ["state", "--title", "states", "toggle", "fullscreen"])
        XCTAssertTrue(try session.wait { try geometry() == [0, 0, 1280, 800] }, "not fullscreen: \((try? geometry()) ?? [])")
        XCTAssertTrue(try clientHeard(session, output, "0 0 1280 800"))
        XCTAssertEqual(try xClient(display, ["get", "--title", "states", "_NET_WM_STATE"]), "_NET_WM_STATE_FULLSCREEN")
        _ = try session.wait(timeout: 10) { try session.screenshot()[640, 10] == 0x2E8B57 }
        XCTAssertEqual(try session.screenshot()[640, 10], 0x2E8B57, "the fullscreen window is not on top of the screen")
        try xClient(display, ["state", "--title", "states", "toggle", "fullscreen"])
        XCTAssertTrue(try session.wait { try geometry() == [w.x, w.y, 320, 240] }, "not restored: \((try? geometry()) ?? [])")
    }

    func testFullscreenAskedBeforeMappingOpensFullscreen() throws {
        let (session, display) = try startXwaylandSession()
        defer { session.stop() }
        let (_, output, w) = try xWindow(session, display, title: "born-fullscreen", ["--state", "fullscreen", "--geometry", "200x100+50+50"])
        XCTAssertEqual([w.x, w.y, w.width, w.height], [0, 0, 1280, 800])
        XCTAssertTrue(try clientHeard(session, output, "0 0 1280 800"))
        XCTAssertEqual(try xClient(display, ["get", "--title", "born-fullscreen", "_NET_WM_STATE"]), "_NET_WM_STATE_FULLSCREEN")
        try xClient(display, ["state", "--title", "born-fullscreen", "remove", "fullscreen"])
        XCTAssertTrue(try session.wait { try self.window(session, "born-fullscreen")?.width == 200 }, "not restored to the size it asked for")
    }

    // MARK: _NET_WM_MOVERESIZE

    /// Presses the window at (x, y) and drags by (dx, dy): the client answers the press
    /// with _NET_WM_MOVERESIZE; once Lodestone's grab holds the pointer (no client under
    /// it any more) the drag goes on and the button comes up.
    private func drag(_ session: Session, from x: Double, _ y: Double, by dx: Double, _ dy: Double) throws {
        try session.control.movePointer(x: x, y: y)
        try session.control.button(pressed: true)
        // The hand stays within a pixel of the press until the grab holds it, so the
        // resize starts there however long the client takes.
        var step = 0.0
        let grabbed = try session.wait(timeout: 10) {
            step = 1 - step
            return try session.control.movePointer(x: x + step, y: y + step).title.isEmpty
        }
        XCTAssertTrue(grabbed, "the client's _NET_WM_MOVERESIZE started no grab")
        try session.control.movePointer(x: x + dx / 2, y: y + dy / 2)
        try session.control.movePointer(x: x + dx, y: y + dy)
        try session.control.button(pressed: false)
    }

    func testNetWmMoveresizeResizesFromTheEdgeItNames() throws {
        let (session, display) = try startXwaylandSession()
        defer { session.stop() }
        // Bottom-right (4): the top-left corner stays.
        let (_, output, a) = try xWindow(session, display, title: "corner", ["--geometry", "300x200+100+100", "--moveresize", "4"])
        try drag(session, from: Double(a.x + 280), Double(a.y + 180), by: 100, 50)
        let grown = try XCTUnwrap(try window(session, "corner"))
        // The grab starts where the hand is when the request arrives: within a pixel of
        // the press.
        XCTAssertEqual([grown.x, grown.y], [a.x, a.y], "the top-left corner moved: \(a) to \(grown)")
        XCTAssertEqual(grown.width, 400, accuracy: 3, "resized from \(a) to \(grown)")
        XCTAssertEqual(grown.height, 250, accuracy: 3, "resized from \(a) to \(grown)")
        XCTAssertTrue(try clientHeard(session, output, "\(a.x) \(a.y) \(grown.width) \(grown.height)"), "X did not resize the client")
        // Released: the pointer is the client's again, over its new pixels too (once
        // Xwayland has drawn the larger window).
        XCTAssertTrue(try session.wait { try session.control.movePointer(x: Double(a.x + 390), y: Double(a.y + 240)).title == "corner" },
                      "the grab outlived the release, or the window did not grow on screen")

        // Top-left (0): the bottom-right corner stays.
        let (_, output2, b) = try xWindow(session, display, title: "top-left", ["--geometry", "300x200+700+400", "--moveresize", "0"])
        try drag(session, from: Double(b.x + 10), Double(b.y + 10), by: -60, -40)
        let r = try XCTUnwrap(try window(session, "top-left"))
        XCTAssertEqual(r.x + r.width, b.x + b.width, "the right edge moved: \(b) to \(r)")
        XCTAssertEqual(r.y + r.height, b.y + b.height, "the bottom edge moved: \(b) to \(r)")
        XCTAssertEqual(r.width, 360, accuracy: 3, "\(b) to \(r)")
        XCTAssertEqual(r.height, 240, accuracy: 3, "\(b) to \(r)")
        XCTAssertTrue(try clientHeard(session, output2, "\(r.x) \(r.y) \(r.width) \(r.height)"))
    }
}
