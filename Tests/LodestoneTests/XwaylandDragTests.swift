import Foundation
import LodestoneTesting
import XCTest

/// Drag and drop between Wayland and X11 apps through XDND (`XDnd`), with real Xwayland on
/// the real clock: the pywayland Tests/clients/drag_client.py on the Wayland side, and on
/// the X side the python-xlib Tests/clients/xdnd_client.py; the bytes are checked.
final class XwaylandDragTests: XCTestCase {
    private let dragClient = repositoryRoot + "/Tests/clients/drag_client.py"
    private let xdndClient = repositoryRoot + "/Tests/clients/xdnd_client.py"

    private func lines(_ path: String) -> [String] { textOfFile(path).split(separator: "\n").map(String.init) }

    private func waitFor(_ session: Session, _ line: String, in log: String, file: StaticString = #filePath, lineNumber: UInt = #line) throws {
        XCTAssertTrue(try session.wait(timeout: 20) { self.lines(log).contains(line) }, "no '\(line)' in:\n\(textOfFile(log))\n\(session.log.suffix(3000))",
                      file: file, line: lineNumber)
    }

    /// The X window took the drag: the source heard `action 1` after leaving its own window.
    /// (The source's window takes its own drag at the start, and says `action 1` then too:
    /// waiting for the first one raced the X target's XdndStatus, and lost under ASan.)
    private func waitForTheXWindowsAcceptance(_ session: Session, source: String, file: StaticString = #filePath, lineNumber: UInt = #line) throws {
        XCTAssertTrue(try session.wait(timeout: 20) {
            let l = self.lines(source)
            guard let left = l.lastIndex(of: "leave") else { return false }
            return l[left...].contains("action 1")
        }, "the X window never took the drag:\n\(textOfFile(source))\n\(session.log.suffix(3000))", file: file, line: lineNumber)
    }

    /// A Wayland drag_client source at (100, 100) and an X target window `title` at (600, 100).
    private func start(_ session: Session, display: String, target title: String, _ options: [String]) throws -> (source: String, target: String) {
        let python = try xlibPython()
        let target = session.runtimeDirectory + "/\(title).txt"
        try session.launch([python, xdndClient, title] + options, environment: ["DISPLAY": display], output: target)
        _ = try session.waitForWindow(title, timeout: 40)
        try waitFor(session, "mapped", in: target)
        try session.control.moveWindow(title, x: 600, y: 100)
        let source = session.runtimeDirectory + "/source.txt"
        try session.launch(["python3", dragClient, "source", "cc6633", "--source"], output: source)
        try waitFor(session, "mapped", in: source)
        try session.control.moveWindow("source", x: 100, y: 100)
        try session.control.movePointer(x: 200, y: 175)
        try session.control.button(pressed: true)
        try waitFor(session, "started", in: source)
        return (source, target)
    }

    /// The payload's length and hash, as drag_client printed them.
    private func payload(_ source: String) -> String {
        String((lines(source).first { $0.hasPrefix("payload ") } ?? "payload ?").dropFirst("payload ".count))
    }

    /// A Wayland drag dropped on an X window: the X app hears XdndEnter with the source's
    /// MIME types as atoms, XdndPosition in root coordinates, and XdndDrop; it converts
    /// XdndSelection and gets the source's bytes; the source hears dnd_finished.
    func testAWaylandDragDropsIntoAnXWindowWithTheBytes() throws {
        let (session, display) = try startXwaylandSession()
        defer { session.stop() }
        let (source, target) = try start(session, display: display, target: "xtarget", ["--accept", "application/x-lodestone-test"])
        let window = try XCTUnwrap(try session.control.windows().first { $0.title == "xtarget" })
        let (x, y) = (Double(window.x + 100), Double(window.y + 60))
        try session.control.movePointer(x: x, y: y)
        try waitFor(session, "enter TEXT,STRING,application/x-lodestone-test", in: target)
        try waitFor(session, "position \(Int(x)) \(Int(y))", in: target)
        try waitFor(session, "target text/plain", in: source)
        try waitForTheXWindowsAcceptance(session, source: source)
        try session.control.movePointer(x: x + 10, y: y + 10)
        try session.control.button(pressed: false)
        try waitFor(session, "drop", in: target)
        try waitFor(session, "received application/x-lodestone-test " + payload(source), in: target)
        try waitFor(session, "dnd_drop_performed", in: source)
        try waitFor(session, "dnd_finished", in: source)
        XCTAssertFalse(lines(source).contains("cancelled"), lines(source).joined(separator: "\n"))
        XCTAssertFalse(session.log.contains("protocol error"), session.log)
    }

    /// An X window that refuses the types: the source hears no MIME type accepted, and a release over
    /// it cancels (the X app hears XdndLeave, not XdndDrop).
    func testAnXWindowThatRefusesCancelsTheDrop() throws {
        let (session, display) = try startXwaylandSession()
        defer { session.stop() }
        let (source, target) = try start(session, display: display, target: "xrefuses", ["--accept", "image/png"])
        let window = try XCTUnwrap(try session.control.windows().first { $0.title == "xrefuses" })
        try session.control.movePointer(x: Double(window.x + 100), y: Double(window.y + 60))
        try waitFor(session, "enter TEXT,STRING,application/x-lodestone-test", in: target)
        try waitFor(session, "position \(window.x + 100) \(window.y + 60)", in: target)
        try session.control.button(pressed: false)
        try waitFor(session, "leave", in: target)
        try waitFor(session, "cancelled", in: source)
        XCTAssertFalse(lines(target).contains("drop"), lines(target).joined(separator: "\n"))
        XCTAssertFalse(lines(source).contains("dnd_drop_performed"), lines(source).joined(separator: "\n"))
        // The source's own window accepted before the drag left it; the X window never did.
        let afterOwnWindow = lines(source).drop { $0 != "leave" }
        XCTAssertFalse(afterOwnWindow.contains("target text/plain"), lines(source).joined(separator: "\n"))
    }

    /// An X app's drag (its own XDND, python-xlib) dropped on a Wayland window: the X app
    /// finds Lodestone's proxy where the Wayland window is and speaks XDND to it; the
    /// Wayland client hears enter with the X types as MIME types, accepts, and receives the
    /// X app's bytes converted from XdndSelection; the X app hears XdndStatus and
    /// XdndFinished with the copy.
    func testAnXDragDropsIntoAWaylandWindowWithTheBytes() throws {
        let (session, display) = try startXwaylandSession()
        defer { session.stop() }
        let python = try xlibPython()
        let target = session.runtimeDirectory + "/target.txt"
        try session.launch(["python3", dragClient, "target", "3366cc"], output: target)
        try waitFor(session, "mapped", in: target)
        try session.control.moveWindow("target", x: 600, y: 100)
        let source = session.runtimeDirectory + "/xsource.txt"
        try session.launch([python, xdndClient, "xsource", "--source"], environment: ["DISPLAY": display], output: source)
        try waitFor(session, "mapped", in: source)
        _ = try session.waitForWindow("xsource", timeout: 20)
        try session.control.moveWindow("xsource", x: 100, y: 100)
        let window = try XCTUnwrap(try session.control.windows().first { $0.title == "xsource" })
        let (sx, sy) = (Double(window.x + 100), Double(window.y + 75))
        try session.control.movePointer(x: sx, y: sy)
        try session.control.button(pressed: true)
        // The X app's drag goes out of its window (its implicit grab keeps the pointer).
        for step in 1...10 { try session.control.movePointer(x: sx + Double(step * 50), y: sy) }
        try session.control.movePointer(x: 700, y: 175)
        // It enters at the window's edge, on the way (UTF8_STRING, STRING and TEXT as text).
        let mimes = " text/plain;charset=utf-8,text/plain,application/x-lodestone-test"
        XCTAssertTrue(try session.wait(timeout: 20) { self.lines(target).contains { $0.hasPrefix("enter ") && $0.hasSuffix(mimes) } }, textOfFile(target))
        try waitFor(session, "status 1 XdndActionCopy", in: source)
        try session.control.movePointer(x: 720, y: 200)
        try waitFor(session, "motion 120 100", in: target)
        try session.control.button(pressed: false)
        try waitFor(session, "drop", in: source)
        try waitFor(session, "drop", in: target)
        let payload = String((lines(source).first { $0.hasPrefix("payload ") } ?? "payload ?").dropFirst("payload ".count))
        try waitFor(session, "received text/plain " + payload, in: target)
        try waitFor(session, "served STRING", in: source)
        try waitFor(session, "finished 1 XdndActionCopy", in: source)
        XCTAssertFalse(session.log.contains("protocol error"), session.log)
    }

    /// A real X11 app as the target: text dragged from a Wayland window into the entry of
    /// GTK 3's `zenity --entry` under X11 is there when the dialog is confirmed.
    func testAWaylandDragDropsTextIntoAnX11GtkEntry() throws {
        try requireProgram("zenity")
        let (session, display) = try startXwaylandSession()
        defer { session.stop() }
        let printed = session.runtimeDirectory + "/zenity.txt"
        let zenity = try session.launch(["zenity", "--entry", "--title", "xentry", "--text", "Drop here"],
                                        environment: ["DISPLAY": display, "GDK_BACKEND": "x11", "NO_AT_BRIDGE": "1"], output: printed)
        _ = try session.waitForWindow("xentry", timeout: 60)
        let window = try session.control.moveWindow("xentry", x: 500, y: 100)
        _ = try session.wait(timeout: 10) { try session.screenshot().distinctColors(x: Int(window.x), y: Int(window.y), width: Int(window.width), height: Int(window.height)) >= 10 }
        let text = "dropped from Wayland \(UInt32.random(in: 0...UInt32.max))"
        let source = session.runtimeDirectory + "/source.txt"
        try session.launch(["python3", dragClient, "source", "cc6633", "--source", "--text", text], output: source)
        try waitFor(session, "mapped", in: source)
        try session.control.moveWindow("source", x: 100, y: 100)
        try session.control.movePointer(x: 200, y: 175)
        try session.control.button(pressed: true)
        try waitFor(session, "started", in: source)
        try session.control.movePointer(x: 400, y: 175)
        try waitFor(session, "target none", in: source)
        // Down the dialog's middle until GTK's entry accepts (XdndStatus).
        let accepted = try session.wait(timeout: 20) {
            for y in stride(from: window.y + 10, to: window.y + window.height - 10, by: 6) {
                try session.control.movePointer(x: Double(window.x + window.width / 2), y: Double(y))
                if try session.wait(timeout: 0.3, for: { self.lines(source).last { $0.hasPrefix("target ") } == "target text/plain" }) { return true }
            }
            return false
        }
        XCTAssertTrue(accepted, "zenity's entry never accepted the drag:\n\(textOfFile(source))\n\(session.log.suffix(3000))")
        try session.control.button(pressed: false)
        try waitFor(session, "dnd_finished", in: source)
        try session.control.activateWindow("xentry")
        try session.control.tap(28)  // Enter: zenity prints the entry's text and exits
        XCTAssertTrue(try session.wait(timeout: 20) { !zenity.isRunning }, "zenity did not exit on Enter")
        XCTAssertEqual(textOfFile(printed).split(separator: "\n").first { $0.hasPrefix("dropped") }.map(String.init), text, textOfFile(printed))
    }

    /// A real X11 app as the source: the selected text of GTK 3's `zenity --entry` under
    /// X11, dragged out of it (GTK's own XDND, finding Lodestone's proxy, its drag icon
    /// under the pointer looked through) onto a Wayland window, arrives there byte for byte.
    func testTextDraggedOutOfAnX11GtkEntryDropsIntoAWaylandWindow() throws {
        try requireProgram("zenity")
        let (session, display) = try startXwaylandSession()
        defer { session.stop() }
        let target = session.runtimeDirectory + "/target.txt"
        try session.launch(["python3", dragClient, "target", "3366cc"], output: target)
        try waitFor(session, "mapped", in: target)
        try session.control.moveWindow("target", x: 700, y: 100)
        let text = "dragged from X11 \(UInt32.random(in: 0...UInt32.max))"
        // The entry has the focus, its text all selected (GTK selects on focus).
        try session.launch(["zenity", "--entry", "--title", "xentry", "--text", "Drag from here", "--entry-text", text],
                           environment: ["DISPLAY": display, "GDK_BACKEND": "x11", "NO_AT_BRIDGE": "1"])
        _ = try session.waitForWindow("xentry", timeout: 60)
        let window = try session.control.moveWindow("xentry", x: 100, y: 100)
        // The entry: the first white field down the dialog; its selected text at its left.
        var entry: (x: Int, y: Int)?
        _ = try session.wait(timeout: 10) {
            let shot = try session.screenshot()
            for y in Int(window.y) + 10..<Int(window.y + window.height) - 10 {
                guard let x = (Int(window.x)..<Int(window.x + window.width)).first(where: { shot[$0, y] == 0xffffff && shot[$0 + 40, y] == 0xffffff }) else { continue }
                entry = (x, y)
                return true
            }
            return false
        }
        let field = try XCTUnwrap(entry, "no white entry field in zenity's dialog")
        let (px, py) = (Double(field.x + 30), Double(field.y + 14))
        try session.control.movePointer(x: px, y: py)
        try session.control.button(pressed: true)
        for step in 1...12 { try session.control.movePointer(x: px + Double(step * 50), y: py) }
        try session.control.movePointer(x: 800, y: 175)
        // GTK starts its drag a little after the threshold and sends XdndPosition on motion:
        // the hand goes on moving, a pixel at a time, until the Wayland window hears enter
        // (a drag that began after the last move would otherwise wait for one forever).
        var nudge = 0.0
        XCTAssertTrue(try session.wait(timeout: 20) {
            if self.lines(target).contains(where: { $0.hasPrefix("enter ") && $0.contains("text/plain") }) { return true }
            nudge = nudge == 0 ? 1 : 0
            try session.control.movePointer(x: 800 + nudge, y: 175)
            return false
        },
                      "GTK's drag never reached the Wayland window:\n\(textOfFile(target))\n\(session.log.suffix(3000))")
        try session.control.movePointer(x: 810, y: 180)
        try waitFor(session, "offer_action 1", in: target)
        try session.control.button(pressed: false)
        try waitFor(session, "drop", in: target)
        let hash = try run(["sh", "-c", "printf %s '\(text)' | sha256sum"]).output.prefix(64)
        try waitFor(session, "received text/plain \(text.utf8.count) \(hash)", in: target)
        XCTAssertFalse(session.log.contains("protocol error"), session.log)
    }

    /// An X app that dies mid-drag over a Wayland window: the Wayland target hears leave,
    /// and the compositor goes on.
    func testAnXSourceThatDiesMidDragLeavesTheWaylandTarget() throws {
        let (session, display) = try startXwaylandSession()
        defer { session.stop() }
        let python = try xlibPython()
        let target = session.runtimeDirectory + "/target.txt"
        try session.launch(["python3", dragClient, "target", "3366cc"], output: target)
        try waitFor(session, "mapped", in: target)
        try session.control.moveWindow("target", x: 600, y: 100)
        let source = session.runtimeDirectory + "/xsource.txt"
        let app = try session.launch([python, xdndClient, "xsource", "--source"], environment: ["DISPLAY": display], output: source)
        try waitFor(session, "mapped", in: source)
        _ = try session.waitForWindow("xsource", timeout: 20)
        let window = try session.control.moveWindow("xsource", x: 100, y: 100)
        let (sx, sy) = (Double(window.x + 100), Double(window.y + 75))
        try session.control.movePointer(x: sx, y: sy)
        try session.control.button(pressed: true)
        for step in 1...10 { try session.control.movePointer(x: sx + Double(step * 50), y: sy) }
        try session.control.movePointer(x: 700, y: 175)
        try waitFor(session, "status 1 XdndActionCopy", in: source)
        app.terminate()
        try waitFor(session, "leave", in: target)
        try session.control.button(pressed: false)
        XCTAssertFalse(lines(target).contains("drop"), lines(target).joined(separator: "\n"))
        XCTAssertTrue(session.compositorIsRunning)
        try session.control.movePointer(x: 720, y: 200)
        try waitFor(session, "pointer enter", in: target)
    }

    /// An X target that dies after the drop, before XdndFinished: the Wayland source hears
    /// cancelled, and the compositor goes on.
    func testAnXTargetThatDiesAfterTheDropCancelsTheWaylandSource() throws {
        let (session, display) = try startXwaylandSession()
        defer { session.stop() }
        let (source, target) = try start(session, display: display, target: "xdies", ["--accept", "STRING", "--die-on-drop"])
        let window = try XCTUnwrap(try session.control.windows().first { $0.title == "xdies" })
        try session.control.movePointer(x: Double(window.x + 100), y: Double(window.y + 60))
        try waitFor(session, "position \(window.x + 100) \(window.y + 60)", in: target)
        try waitForTheXWindowsAcceptance(session, source: source)
        try session.control.button(pressed: false)
        try waitFor(session, "drop", in: target)
        try waitFor(session, "cancelled", in: source)
        XCTAssertFalse(lines(source).contains("dnd_finished"), lines(source).joined(separator: "\n"))
        XCTAssertTrue(session.compositorIsRunning)
    }
}

/// A Lodestone nested in a Lodestone parent (each test starts both), stopped after each test.
class NestedPairTestCase: XCTestCase {
    var parent: Session!
    var nested: Session!

    override func tearDown() {
        nested?.stop()
        parent?.stop()
    }

    func lines(_ path: String) -> [String] { textOfFile(path).split(separator: "\n").map(String.init) }
}

/// A drag from the parent session over an X11 window inside a nested Lodestone: the parent's
/// drag reaches the X window through XDND (`ExternalDrag` speaking through `XDragTarget`),
/// as a Wayland client's drag inside does, and the adaptive pointer inside follows the drag
/// and says what a drop would do. A Lodestone parent (driven through its test protocol),
/// the pywayland drag_client as the parent's source, the python-xlib xdnd_client inside.
final class NestedXwaylandDragTests: NestedPairTestCase {

    private func waitFor(_ session: Session, _ line: String, in log: String, file: StaticString = #filePath, lineNumber: UInt = #line) throws {
        XCTAssertTrue(try session.wait(timeout: 20) { self.lines(log).contains(line) },
                      "no '\(line)' in:\n\(textOfFile(log))\nnested log:\n\(nested.log.suffix(3000))", file: file, line: lineNumber)
    }

    func testAParentDragDropsIntoAnXWindowInsideWithTheBytesAndThePointerSaysCopy() throws {
        try requireProgram("Xwayland")
        let python = try xlibPython()
        parent = try Session(size: "800x600")
        nested = try Session(nestedIn: parent, size: "400x300")
        _ = try parent.waitForWindow("Lodestone")
        _ = try parent.control.moveWindow("Lodestone", x: 350, y: 100)
        let display = try XCTUnwrap(nested.x11Display, "the nested Lodestone offers no X11 display:\n\(nested.log.suffix(3000))")

        let target = nested.runtimeDirectory + "/xtarget.txt"
        try nested.launch([python, repositoryRoot + "/Tests/clients/xdnd_client.py", "xtarget", "--accept", "application/x-lodestone-test"],
                          environment: ["DISPLAY": display], output: target)
        _ = try nested.waitForWindow("xtarget", timeout: 40)
        try waitFor(nested, "mapped", in: target)
        try nested.control.moveWindow("xtarget", x: 100, y: 50)
        let window = try XCTUnwrap(try nested.control.windows().first { $0.title == "xtarget" })

        let source = parent.runtimeDirectory + "/source.txt"
        try parent.launch(["python3", repositoryRoot + "/Tests/clients/drag_client.py", "source", "cc6633", "--source"], output: source)
        try waitFor(parent, "mapped", in: source)
        _ = try parent.control.moveWindow("source", x: 20, y: 100)
        try parent.control.movePointer(x: 100, y: 170)
        try parent.control.button(pressed: true)
        try waitFor(parent, "started", in: source)
        // Over the X window inside: the nested output's (x, y) is the parent's (350 + x, 100 + y).
        let (x, y) = (Double(window.x + 100), Double(window.y + 60))
        for step in 1...10 {
            let t = Double(step) / 10
            try parent.control.movePointer(x: 100 + (350 + x - 100) * t, y: 170 + (100 + y - 170) * t)
        }
        try waitFor(nested, "enter TEXT,STRING,application/x-lodestone-test", in: target)
        XCTAssertTrue(try nested.wait(timeout: 20) { self.lines(target).contains { $0.hasPrefix("position ") } }, textOfFile(target))
        // The X window's XdndStatus reaches the parent's source as an accept and a copy.
        XCTAssertTrue(try parent.wait(timeout: 20) {
            let l = self.lines(source)
            guard let left = l.lastIndex(of: "leave") else { return false }
            return l[left...].contains("target text/plain") && l[left...].contains("action 1")
        }, "the parent's source never heard the X window's accept:\n\(textOfFile(source))\nnested log:\n\(nested.log.suffix(3000))")

        // The pointer inside is where the drag is, shown, with the copy's plus.
        let probe = try PointerShapeProbe(session: nested)
        let plus: UInt32 = 1
        var shape = try probe.shape()
        XCTAssertTrue(try nested.wait(timeout: 10) {
            shape = try probe.shape()
            return shape.alpha > 0.9 && shape.accessories.contains { $0.shape == plus && $0.alpha > 0.5 }
        }, "the pointer inside: alpha \(shape.alpha), accessories \(shape.accessories)")
        XCTAssertEqual(shape.deviceX, x, accuracy: 1)
        XCTAssertEqual(shape.deviceY, y, accuracy: 1)
        XCTAssertEqual(try nested.control.pointer().title, "", "no window inside has the pointer during the drag")

        try parent.control.movePointer(x: 350 + x + 5, y: 100 + y + 5)
        try parent.control.button(pressed: false)
        try waitFor(nested, "drop", in: target)
        let payload = String((lines(source).first { $0.hasPrefix("payload ") } ?? "payload ?").dropFirst("payload ".count))
        try waitFor(nested, "received application/x-lodestone-test " + payload, in: target)
        try waitFor(parent, "dnd_drop_performed", in: source)
        try waitFor(parent, "dnd_finished", in: source)
        XCTAssertFalse(lines(source).contains("cancelled"), lines(source).joined(separator: "\n"))
        XCTAssertFalse(nested.log.contains("protocol error"), nested.log)
        // The drag let the pointer go: the parent's pointer over the window is the X window's again.
        XCTAssertTrue(try nested.wait(timeout: 10) {
            try self.parent.control.movePointer(x: 350 + x + Double.random(in: 10...30), y: 100 + y + 20)
            return try self.nested.control.pointer().title == "xtarget"
        }, "the pointer inside after the drop: \(String(describing: try? nested.control.pointer()))")
    }
}

/// The adaptive pointer inside a nested Lodestone while a parent's drag is over a Wayland
/// client there (`ExternalDragGrab`): it follows the drag and says what a drop would do,
/// hides over the parent's desktop, and after the drop the pointer is the clients' again.
final class NestedDragPointerTests: NestedPairTestCase {

    private func client(_ title: String, in session: Session, at x: Int32, _ y: Int32, _ options: [String] = []) throws -> String {
        let log = session.runtimeDirectory + "/\(title).txt"
        try session.launch(["python3", repositoryRoot + "/Tests/clients/drag_client.py", title, "cc6633"] + options, output: log)
        XCTAssertTrue(try session.wait(timeout: 20) { self.lines(log).contains("mapped") }, textOfFile(log))
        _ = try session.control.moveWindow(title, x: x, y: y)
        return log
    }

    func testThePointerInsideFollowsAParentDragAndSaysWhatADropWouldDo() throws {
        parent = try Session(size: "800x600")
        nested = try Session(nestedIn: parent, size: "400x300")
        _ = try parent.waitForWindow("Lodestone")
        _ = try parent.control.moveWindow("Lodestone", x: 350, y: 100)
        let source = try client("source", in: parent, at: 20, 100, ["--source"])
        // Inside: a target that takes the drag, and below it one that refuses it.
        let target = try client("target", in: nested, at: 20, 20)
        _ = try client("refuses", in: nested, at: 20, 180, ["--accept", "none"])
        let probe = try PointerShapeProbe(session: nested)
        let (plus, circleSlash): (UInt32, UInt32) = (1, 3)
        /// The pointer inside once the drag is at the nested (x, y), its visible accessories.
        func pointer(at x: Double, _ y: Double) throws -> (alpha: Double, accessories: [UInt32], deviceX: Double) {
            try parent.control.movePointer(x: 350 + x, y: 100 + y)
            var shape = try probe.shape()
            _ = try nested.wait(timeout: 5) {
                shape = try probe.shape()
                return abs(shape.deviceX - x) < 1 && abs(shape.deviceY - y) < 1 && shape.accessories.allSatisfy { $0.alpha > 0.9 || $0.alpha < 0.1 }
            }
            Thread.sleep(forTimeInterval: 0.4)
            shape = try probe.shape()
            return (shape.alpha, shape.accessories.filter { $0.alpha > 0.5 }.map(\.shape), shape.deviceX)
        }

        try parent.control.movePointer(x: 100, y: 170)
        try parent.control.button(pressed: true)
        XCTAssertTrue(try parent.wait { self.lines(source).contains("started") }, textOfFile(source))
        for px in stride(from: 150.0, through: 400, by: 50) { try parent.control.movePointer(x: px, y: 150) }
        XCTAssertTrue(try nested.wait { self.lines(target).contains { $0.hasPrefix("enter ") } }, textOfFile(target))

        let over = try pointer(at: 120, 90)
        XCTAssertGreaterThan(over.alpha, 0.9, "the pointer shows over the target")
        XCTAssertEqual(over.accessories, [plus], "a copy here")
        XCTAssertEqual(try nested.control.pointer().title, "", "no client has the pointer during the drag")
        XCTAssertFalse(lines(target).contains("pointer enter"), "the target heard the pointer mid-drag: \(lines(target))")
        XCTAssertEqual(try pointer(at: 120, 250).accessories, [circleSlash], "a refusing target")
        // Off the window, over the parent's desktop: the pointer inside is let go, and hides.
        try parent.control.movePointer(x: 300, y: 500)
        XCTAssertTrue(try nested.wait(timeout: 5) { try probe.shape().alpha < 0.1 }, "the pointer inside hid as the drag left")
        XCTAssertEqual(try pointer(at: 130, 100).accessories, [plus], "back over the target")
        try parent.control.button(pressed: false)
        XCTAssertTrue(try nested.wait { self.lines(target).contains { $0.hasPrefix("received ") } }, textOfFile(target))
        XCTAssertTrue(try parent.wait { self.lines(source).contains("dnd_finished") }, textOfFile(source))
        // The parent's pointer over the window is the clients' again.
        XCTAssertTrue(try nested.wait(timeout: 10) {
            try self.parent.control.movePointer(x: 350 + Double.random(in: 100...140), y: 100 + 90)
            return try self.nested.control.pointer().title == "target"
        }, "the pointer inside after the drop: \(String(describing: try? nested.control.pointer()))")
        XCTAssertTrue(try nested.wait { self.lines(target).contains("pointer enter") }, textOfFile(target))
    }
}
