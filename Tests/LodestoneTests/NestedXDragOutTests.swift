import Foundation
import LodestoneTesting
import XCTest

/// An X11 app's drag inside a nested Lodestone that leaves the window carries on in the
/// parent (`XDragSource.handOff`, `OutgoingDrag`): the python-xlib xdnd_client as the X
/// source inside, pywayland drag_client targets in a Lodestone parent (driven through its
/// test protocol). The X app keeps its button held while the parent drags, hears the
/// parent's target as XdndStatus, and its drop or leave follows the parent's drop or cancel.
final class NestedXDragOutTests: NestedPairTestCase {
    /// Where the nested window is in the parent.
    private let origin = (x: 350.0, y: 100.0)

    private func waitFor(_ session: Session, _ log: String, _ done: @escaping ([String]) -> Bool, _ what: String,
                         file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertTrue(try session.wait(timeout: 20) { done(self.lines(log)) },
                      "\(what):\n\(textOfFile(log))\nnested log:\n\(nested.log.suffix(3000))", file: file, line: line)
    }

    /// drag_client.py `title` in the parent at (x, y); its log's path.
    private func parentTarget(_ title: String, at x: Int32, _ y: Int32, _ options: [String] = []) throws -> String {
        let log = parent.runtimeDirectory + "/\(title).txt"
        try parent.launch(["python3", repositoryRoot + "/Tests/clients/drag_client.py", title, "3366cc"] + options, output: log)
        try waitFor(parent, log, { $0.contains("mapped") }, "\(title) did not map")
        _ = try parent.control.moveWindow(title, x: x, y: y)
        return log
    }

    /// Both sessions and the X source inside at (150, 50) there, pressed and dragged onto
    /// the desktop inside until it speaks XDND to Lodestone (its first status, a refusal),
    /// then out of the window to the parent's (x, y). The X app's process and log.
    private func dragOut(to x: Double, _ y: Double, parentTargets: (Session) throws -> Void) throws -> (app: Process, log: String) {
        try requireProgram("Xwayland")
        try requireProgram("python3")
        let python = try xlibPython()
        parent = try Session(size: "800x600")
        nested = try Session(nestedIn: parent, size: "400x300")
        _ = try parent.waitForWindow("Lodestone")
        _ = try parent.control.moveWindow("Lodestone", x: Int32(origin.x), y: Int32(origin.y))
        try parentTargets(parent)
        let display = try XCTUnwrap(nested.x11Display, "the nested Lodestone offers no X11 display:\n\(nested.log.suffix(3000))")
        let log = nested.runtimeDirectory + "/xsource.txt"
        let app = try nested.launch([python, repositoryRoot + "/Tests/clients/xdnd_client.py", "xsource", "--source"],
                                    environment: ["DISPLAY": display], output: log)
        _ = try nested.waitForWindow("xsource", timeout: 40)
        try waitFor(nested, log, { $0.contains("mapped") }, "the X app did not map")
        let window = try nested.control.moveWindow("xsource", x: 150, y: 50)
        _ = try parent.control.activateWindow("Lodestone")
        let press = (x: origin.x + Double(window.x + 100), y: origin.y + Double(window.y + 75))
        try parent.control.movePointer(x: press.x, y: press.y)
        try parent.control.button(pressed: true)
        // Left onto the desktop inside, left of the X window: the X app finds Lodestone's proxy.
        for step in 1...8 { try parent.control.movePointer(x: press.x - Double(step) * 25, y: press.y) }
        try waitFor(nested, log, { $0.contains { $0.hasPrefix("target ") } && $0.contains("status 0 none") },
                    "the X app did not speak XDND to Lodestone")
        for step in 1...10 {
            let t = Double(step) / 10
            try parent.control.movePointer(x: press.x - 200 + (x - press.x + 200) * t, y: press.y + (y - press.y) * t)
        }
        return (app, log)
    }

    private func payload(_ log: String) -> String {
        String((lines(log).first { $0.hasPrefix("payload ") } ?? "payload ?").dropFirst("payload ".count))
    }

    /// Dropped on a client in the parent: it hears enter with the X types, its accept
    /// reaches the X app as XdndStatus, and the drop gives it the X app's bytes, converted
    /// from XdndSelection; the X app hears XdndFinished with the copy.
    func testAnXAppsDragFromInsideDropsOntoAClientInTheParentWithTheBytes() throws {
        var target = ""
        let (_, source) = try dragOut(to: 120, 175) { _ in target = try self.parentTarget("target", at: 20, 100) }
        try waitFor(parent, target, { $0.contains { $0.hasPrefix("enter ") && $0.hasSuffix(",application/x-lodestone-test") } }, "no enter in the parent")
        try waitFor(nested, source, { $0.contains("status 1 XdndActionCopy") }, "the parent's accept did not reach the X app")
        XCTAssertFalse(lines(source).contains { $0 == "drop" || $0 == "leave" }, "the X app's drag ended while the parent's went on:\n\(textOfFile(source))")
        try parent.control.movePointer(x: 130, y: 180)
        try parent.control.button(pressed: false)
        try waitFor(parent, target, { $0.contains("drop") }, "no drop in the parent")
        try waitFor(parent, target, { $0.contains("received text/plain " + self.payload(source)) }, "the X app's bytes did not arrive in the parent")
        try waitFor(nested, source, { $0.contains("drop") && $0.contains("finished 1 XdndActionCopy") }, "the X app did not hear its drop finished")
        XCTAssertFalse(nested.log.contains("protocol error"), nested.log)
        XCTAssertFalse(parent.log.contains("protocol error"), parent.log)
    }

    /// Carried over a client in the parent that takes it, then one that refuses it: the X
    /// app hears the accept, then the refusal, and the release over the refusing one is a
    /// cancel: the X app leaves, and nothing is dropped anywhere.
    func testAnXAppHearsARefusingTargetInTheParentAndNothingIsDropped() throws {
        var takes = "", refuses = ""
        let (_, source) = try dragOut(to: 120, 175) { _ in
            takes = try self.parentTarget("takes", at: 20, 100)
            refuses = try self.parentTarget("refuses", at: 20, 350, ["--accept", "none"])
        }
        try waitFor(nested, source, { $0.contains("status 1 XdndActionCopy") }, "the parent's accept did not reach the X app")
        for step in 1...5 { try parent.control.movePointer(x: 120, y: 175 + Double(step) * 50) }
        try waitFor(parent, refuses, { $0.contains { $0.hasPrefix("enter ") } }, "no enter on the refusing client")
        try waitFor(nested, source, { $0.filter { $0.hasPrefix("status ") }.last == "status 0 none" }, "the refusal did not reach the X app")
        try parent.control.button(pressed: false)
        try waitFor(nested, source, { $0.contains("leave") }, "the X app did not leave at the release")
        XCTAssertFalse(lines(source).contains("drop"), textOfFile(source))
        XCTAssertFalse(lines(source).contains { $0.hasPrefix("finished ") }, textOfFile(source))
        for log in [takes, refuses] {
            XCTAssertFalse(lines(log).contains("drop") || lines(log).contains { $0.hasPrefix("received ") }, textOfFile(log))
        }
        XCTAssertNoThrow(try nested.control.windows(), "the nested session is gone:\n\(nested.log.suffix(3000))")
    }

    /// The X app dies while its drag goes on in the parent: the parent's drag ends (its
    /// target hears leave), nothing is dropped, and the pointer inside is the clients' again.
    func testAnXAppDyingMidDragEndsTheParentsDrag() throws {
        var target = ""
        let (app, source) = try dragOut(to: 120, 175) { _ in target = try self.parentTarget("target", at: 20, 100) }
        try waitFor(nested, source, { $0.contains("status 1 XdndActionCopy") }, "the parent's accept did not reach the X app")
        kill(app.processIdentifier, SIGKILL)
        try waitFor(parent, target, { $0.contains("leave") }, "the parent's drag went on without its X source")
        try parent.control.button(pressed: false)
        XCTAssertFalse(lines(target).contains("drop"), textOfFile(target))
        // A Wayland client inside gets the pointer when it comes back.
        let inside = nested.runtimeDirectory + "/inside.txt"
        try nested.launch(["python3", repositoryRoot + "/Tests/clients/drag_client.py", "inside", "cc6633"], output: inside)
        try waitFor(nested, inside, { $0.contains("mapped") }, "the client inside did not map")
        _ = try nested.control.moveWindow("inside", x: 100, y: 60)
        XCTAssertTrue(try nested.wait(timeout: 20) {
            try self.parent.control.movePointer(x: self.origin.x + 200 + Double.random(in: 0...20), y: self.origin.y + 130)
            return self.lines(inside).contains("pointer enter")
        }, "the pointer inside after the X app died: \(String(describing: try? nested.control.pointer()))\n\(nested.log.suffix(3000))")
        XCTAssertNoThrow(try parent.control.windows(), "the parent is gone:\n\(parent.log.suffix(3000))")
    }

    /// A real X11 app: the selected text of GTK 3's `zenity --entry` under X11 inside,
    /// dragged over a Wayland window inside (GTK's own XDND reaching Lodestone's proxy), then
    /// out onto a client in the parent, arrives there byte for byte; afterwards the pointer
    /// inside is the clients' again (GTK's press was let go).
    func testTextDraggedOutOfAnX11GtkEntryInsideDropsOntoAClientInTheParent() throws {
        try requireProgram("Xwayland")
        try requireProgram("zenity")
        parent = try Session(size: "1000x700")
        nested = try Session(nestedIn: parent, size: "600x400")
        _ = try parent.waitForWindow("Lodestone")
        _ = try parent.control.moveWindow("Lodestone", x: Int32(origin.x), y: Int32(origin.y))
        let target = try parentTarget("target", at: 20, 250)
        let inside = nested.runtimeDirectory + "/inside.txt"
        try nested.launch(["python3", repositoryRoot + "/Tests/clients/drag_client.py", "inside", "cc6633"], output: inside)
        try waitFor(nested, inside, { $0.contains("mapped") }, "the client inside did not map")
        _ = try nested.control.moveWindow("inside", x: 10, y: 200)
        let display = try XCTUnwrap(nested.x11Display, "the nested Lodestone offers no X11 display:\n\(nested.log.suffix(3000))")
        let text = "dragged from X11 \(UInt32.random(in: 0...UInt32.max))"
        // The entry has the focus, its text all selected (GTK selects on focus).
        try nested.launch(["zenity", "--entry", "--title", "xentry", "--text", "Drag from here", "--entry-text", text],
                          environment: ["DISPLAY": display, "GDK_BACKEND": "x11", "NO_AT_BRIDGE": "1"])
        _ = try nested.waitForWindow("xentry", timeout: 60)
        let window = try nested.control.moveWindow("xentry", x: 250, y: 50)
        // The entry: the first white field down the dialog; its selected text at its left.
        var entry: (x: Int, y: Int)?
        _ = try nested.wait(timeout: 10) {
            let shot = try self.nested.screenshot()
            for y in Int(window.y) + 10..<Int(window.y + window.height) - 10 {
                guard let x = (Int(window.x)..<Int(window.x + window.width)).first(where: { shot[$0, y] == 0xffffff && shot[$0 + 40, y] == 0xffffff }) else { continue }
                entry = (x, y)
                return true
            }
            return false
        }
        let field = try XCTUnwrap(entry, "no white entry field in zenity's dialog")
        _ = try parent.control.activateWindow("Lodestone")
        let press = (x: origin.x + Double(field.x + 30), y: origin.y + Double(field.y + 14))
        let over = (x: origin.x + 110, y: origin.y + 275)
        try parent.control.movePointer(x: press.x, y: press.y)
        try parent.control.button(pressed: true)
        for step in 1...12 {
            let t = Double(step) / 12
            try parent.control.movePointer(x: press.x + (over.x - press.x) * t, y: press.y + (over.y - press.y) * t)
        }
        // GTK starts its drag a little after the threshold and sends XdndPosition on motion:
        // the hand goes on moving, a pixel at a time, until the Wayland window inside hears enter.
        var nudge = 0.0
        XCTAssertTrue(try nested.wait(timeout: 20) {
            if self.lines(inside).contains(where: { $0.hasPrefix("enter ") && $0.contains("text/plain") }) { return true }
            nudge = nudge == 0 ? 1 : 0
            try self.parent.control.movePointer(x: over.x + nudge, y: over.y)
            return false
        }, "GTK's drag never reached the Wayland window inside:\n\(textOfFile(inside))\n\(nested.log.suffix(3000))")
        for step in 1...10 {
            let t = Double(step) / 10
            try parent.control.movePointer(x: over.x + (120 - over.x) * t, y: over.y + (325 - over.y) * t)
        }
        try waitFor(parent, target, { $0.contains { $0.hasPrefix("enter ") && $0.contains("text/plain") } }, "no enter in the parent")
        try parent.control.movePointer(x: 125, y: 330)
        try waitFor(parent, target, { $0.contains("offer_action 1") }, "the parent's target did not take a copy")
        try parent.control.button(pressed: false)
        let hash = try run(["sh", "-c", "printf %s '\(text)' | sha256sum"]).output.prefix(64)
        try waitFor(parent, target, { $0.contains("received text/plain \(text.utf8.count) \(hash)") }, "GTK's text did not arrive in the parent")
        XCTAssertTrue(try nested.wait(timeout: 20) {
            try self.parent.control.movePointer(x: self.origin.x + 100 + Double.random(in: 0...20), y: self.origin.y + 260)
            return try self.nested.control.pointer().title == "inside"
        }, "the pointer inside after the drop: \(String(describing: try? nested.control.pointer()))\n\(nested.log.suffix(3000))")
        XCTAssertFalse(nested.log.contains("protocol error"), nested.log)
    }
}
