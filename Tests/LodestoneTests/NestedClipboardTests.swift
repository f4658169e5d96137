import Foundation
import LodestoneTesting
import XCTest

/// The clipboard and the primary selection shared between a nested Lodestone's clients and
/// its parent session (`ParentSelection`): real wl-copy and wl-paste on both sides, the
/// bytes compared by their sha256.
final class NestedClipboardTests: XCTestCase {
    private var parent: Session!
    private var nested: Session!
    private var directory: String { parent.runtimeDirectory }

    private func start(_ nestedArguments: [String] = []) throws {
        for program in ["wl-copy", "wl-paste", "sha256sum"] { try requireProgram(program) }
        parent = try Session(size: "800x600")
        nested = try Session(nestedIn: parent, size: "400x300", extraArguments: nestedArguments)
        _ = try parent.waitForWindow("Lodestone")
    }

    override func tearDown() {
        nested?.stop()
        parent?.stop()
    }

    /// A file of `size` bytes of text named `name` in the test's directory, and its sha256.
    private func makeText(_ name: String, size: Int) throws -> (path: String, sha: String) {
        try makeText(at: directory + "/\(name)", size: size)
    }

    /// `wl-copy` in `session`, serving `file` until the test ends; waits until `session`
    /// has taken the selection (it offers it back to wl-copy).
    @discardableResult
    private func copy(_ file: String, in session: Session, primary: Bool = false) throws -> Process {
        let trace = session.runtimeDirectory + "/wl-copy-\(session.socket)-\(primary).txt"
        let copier = try session.launch(["sh", "-c", "exec wl-copy --foreground --type text/plain \(primary ? "--primary" : "") < \(file)"],
                           environment: ["WAYLAND_DEBUG": "client"], output: trace)
        // A parent that has given the keyboard to Lodestone's window does not give it to a new
        // one: wl-copy's window is activated, as the user would click it.
        XCTAssertTrue(try session.wait {
            _ = try? session.control.activateWindow("wl-clipboard")
            return selectionTaken(trace: textOfFile(trace), primary: primary)
        },
                      "the session took no selection from wl-copy; its trace:\n\(textOfFile(trace).suffix(2000))")
        return copier
    }

    /// `wl-paste` in `session` into a file, retried until it gives `sha` or `timeout`; the
    /// last paste's sha256, or nil if none succeeded.
    @discardableResult
    private func paste(in session: Session, primary: Bool = false, expecting sha: String?, timeout: TimeInterval = 10) throws -> String? {
        let out = session.runtimeDirectory + "/pasted-\(UInt32.random(in: 0...UInt32.max))"
        var last: String?
        _ = try session.wait(timeout: timeout) {
            let paster = try session.launch(["sh", "-c", "exec timeout 10 wl-paste --no-newline --type text/plain \(primary ? "--primary" : "") > \(out)"])
            // Its window needs the keyboard, as wl-copy's does.
            while paster.isRunning { _ = try? session.control.activateWindow("wl-clipboard"); usleep(20_000) }
            last = paster.terminationStatus == 0 ? try sha256(out) : nil
            return last != nil && last == sha
        }
        return last
    }

    /// Types of the selection as `session`'s clients see them.
    private func types(in session: Session, primary: Bool = false) throws -> [String] {
        let out = session.runtimeDirectory + "/types-\(UInt32.random(in: 0...UInt32.max))"
        let lister = try session.launch(["sh", "-c", "exec timeout 10 wl-paste --list-types \(primary ? "--primary" : "") > \(out)"])
        while lister.isRunning { _ = try? session.control.activateWindow("wl-clipboard"); usleep(20_000) }
        return textOfFile(out).split(separator: "\n").map(String.init).sorted()
    }

    func testCopyInTheParentPastesInsideByteForByte() throws {
        try start()
        let text = try makeText("outside.txt", size: 3000)
        try copy(text.path, in: parent)
        // The parent gives its selection to the window with its keyboard.
        _ = try parent.control.activateWindow("Lodestone")
        XCTAssertEqual(try paste(in: nested, expecting: text.sha), text.sha, "nested log:\n\(nested.log.suffix(3000))")
        // Only the MIME types wl-copy offers in the parent are offered inside.
        let offered = ["STRING", "TEXT", "UTF8_STRING", "text/plain", "text/plain;charset=utf-8"]
        XCTAssertEqual(try types(in: parent), offered)
        XCTAssertEqual(try types(in: nested), offered)
    }

    func testCopyInsidePastesInTheParentByteForByte() throws {
        try start()
        _ = try parent.control.activateWindow("Lodestone")
        let text = try makeText("inside.txt", size: 3000)
        try copy(text.path, in: nested)
        XCTAssertEqual(try paste(in: parent, expecting: text.sha), text.sha, "nested log:\n\(nested.log.suffix(3000))")
        XCTAssertEqual(try types(in: parent), ["STRING", "TEXT", "UTF8_STRING", "text/plain", "text/plain;charset=utf-8"])
    }

    func testEightMegabytesBothWays() throws {
        try start()
        let outside = try makeText("outside-8m.txt", size: 8 << 20)
        try copy(outside.path, in: parent)
        _ = try parent.control.activateWindow("Lodestone")
        XCTAssertEqual(try paste(in: nested, expecting: outside.sha, timeout: 20), outside.sha)

        let inside = try makeText("inside-8m.txt", size: 8 << 20)
        try copy(inside.path, in: nested)
        XCTAssertEqual(try paste(in: parent, expecting: inside.sha, timeout: 20), inside.sha, "nested log:\n\(nested.log.suffix(3000))")
    }

    func testPrimarySelectionBothWaysAndTheClipboardStaysApart() throws {
        try start()
        let outside = try makeText("outside-primary.txt", size: 2000)
        try copy(outside.path, in: parent, primary: true)
        _ = try parent.control.activateWindow("Lodestone")
        XCTAssertEqual(try paste(in: nested, primary: true, expecting: outside.sha), outside.sha, "nested log:\n\(nested.log.suffix(3000))")

        let inside = try makeText("inside-primary.txt", size: 2000)
        try copy(inside.path, in: nested, primary: true)
        XCTAssertEqual(try paste(in: parent, primary: true, expecting: inside.sha), inside.sha)
        // Neither primary selection became a clipboard.
        XCTAssertNil(try paste(in: parent, expecting: inside.sha, timeout: 1))
        XCTAssertNil(try paste(in: nested, expecting: inside.sha, timeout: 1))
    }

    func testAPasteFromACopierThatHasGoneFailsCleanly() throws {
        try start()
        let text = try makeText("gone.txt", size: 1000)
        let copier = try copy(text.path, in: parent)
        _ = try parent.control.activateWindow("Lodestone")
        XCTAssertEqual(try paste(in: nested, expecting: text.sha), text.sha)
        // wl-copy outside ends: the parent's selection empties, and so does the nested one.
        copier.terminate()
        copier.waitUntilExit()
        XCTAssertTrue(try nested.wait { try self.paste(in: self.nested, expecting: nil, timeout: 0) == nil },
                      "a paste inside still succeeds after the parent's copier exited")
        XCTAssertNoThrow(try nested.control.windows(), "the nested session is gone:\n\(nested.log.suffix(3000))")
        XCTAssertFalse(nested.log.contains("protocol error"), nested.log)
    }

    func testNoShareClipboardSharesNothing() throws {
        try start(["--no-share-clipboard"])
        let outside = try makeText("outside-isolated.txt", size: 1000)
        try copy(outside.path, in: parent)
        _ = try parent.control.activateWindow("Lodestone")
        XCTAssertNil(try paste(in: nested, expecting: outside.sha, timeout: 2), "the clipboard crossed into an isolated session")
        let inside = try makeText("inside-isolated.txt", size: 1000)
        try copy(inside.path, in: nested)
        XCTAssertNotEqual(try paste(in: parent, expecting: inside.sha, timeout: 2), inside.sha, "the clipboard crossed out of an isolated session")
        XCTAssertEqual(try paste(in: nested, expecting: inside.sha), inside.sha, "the clipboard inside still works")
    }

    private func lines(_ path: String) -> [String] { textOfFile(path).split(separator: "\n").map(String.init) }

    /// drag_client.py `title` in `session`, at (x, y) there; its log's path.
    @discardableResult
    private func dragClient(_ title: String, in session: Session, at x: Int32, _ y: Int32, _ options: [String] = []) throws -> String {
        try dragClientProcess(title, in: session, at: x, y, options).log
    }

    private func dragClientProcess(_ title: String, in session: Session, at x: Int32, _ y: Int32, _ options: [String] = []) throws -> (log: String, process: Process) {
        try requireProgram("python3")
        let log = directory + "/\(title).txt"
        let process = try session.launch(["python3", repositoryRoot + "/Tests/clients/drag_client.py", title, "cc6633"] + options, output: log)
        XCTAssertTrue(try session.wait(timeout: 20) { textOfFile(log).contains("mapped") }, textOfFile(log))
        _ = try session.control.moveWindow(title, x: x, y: y)
        return (log, process)
    }

    private func waitFor(_ session: Session, _ log: String, _ done: @escaping ([String]) -> Bool, _ what: String,
                         file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertTrue(try session.wait { done(self.lines(log)) }, "\(what):\n\(textOfFile(log))\nnested log:\n\(nested.log.suffix(2000))", file: file, line: line)
    }

    /// A drag from a client in the parent, over Lodestone's window, is a drag inside: the
    /// client under the pointer hears enter (and leave when the drag leaves the window or
    /// its surface), its accept reaches the parent's source, and the drop gives it the
    /// source's bytes, read from the parent's offer.
    func testAParentDragDropsOntoAClientInside() throws {
        try start()
        let source = try dragClient("source", in: parent, at: 20, 100, ["--source"])
        _ = try parent.control.moveWindow("Lodestone", x: 350, y: 100)
        // The target inside at (100, 50) of the nested output: (450, 150) in the parent. It
        // prefers move, which the parent's source (copy, move) can do: both agree on move.
        let target = try dragClient("target", in: nested, at: 100, 50, ["--actions", "copy,move", "--preferred", "move"])
        try parent.control.movePointer(x: 100, y: 170)
        try parent.control.button(pressed: true)
        try waitFor(parent, source, { $0.contains("started") }, "no drag in the parent")
        for x in stride(from: 150.0, through: 500, by: 50) { try parent.control.movePointer(x: x, y: 200) }
        try waitFor(nested, target, { $0.contains { $0.hasPrefix("enter ") && $0.hasSuffix(" text/plain,application/x-lodestone-test") } }, "no enter inside")
        try waitFor(parent, source, { $0.contains("target text/plain") && $0.contains("action 2") }, "the parent's source did not hear the accept and move")
        try waitFor(nested, target, { $0.contains("source_actions 3") && $0.contains("offer_action 2") }, "the target inside did not hear the source's actions and move")
        // Off the window, over the parent's desktop: a leave inside; back on it: enter again.
        try parent.control.movePointer(x: 300, y: 200)
        try waitFor(nested, target, { $0.contains("leave") }, "no leave inside when the drag left the window")
        try parent.control.movePointer(x: 520, y: 230)
        try waitFor(nested, target, { $0.filter { $0.hasPrefix("enter ") }.count == 2 }, "no second enter inside")
        // Released only once the accept inside has reached the parent again, as over any
        // target: a release before it is a drop on a target that has not accepted (the parent
        // cancels; a .ci/run released 1 round trip early under load).
        try waitFor(parent, source, { $0.filter { $0 == "action 2" }.count >= 2 }, "the parent's source did not hear the accept after the drag came back")
        try parent.control.button(pressed: false)
        let payload = try XCTUnwrap(lines(source).first { $0.hasPrefix("payload ") })
        try waitFor(nested, target, { $0.contains("received text/plain " + payload.dropFirst("payload ".count)) }, "the bytes did not arrive inside")
        try waitFor(parent, source, { $0.contains("dnd_drop_performed") && $0.contains("dnd_finished") }, "the parent's source did not hear the drop finished")
        XCTAssertFalse(lines(source).contains("cancelled"), textOfFile(source))
        XCTAssertFalse(nested.log.contains("protocol error"), nested.log)
    }

    /// A client inside that answers `ask` after the drop (set_actions with move): the parent's
    /// offer hears the same set_actions, so the parent's source learns move before finished.
    func testAnAskAnsweredInsideAfterTheDropReachesTheParentsSource() throws {
        try start()
        let source = try dragClient("source", in: parent, at: 20, 100, ["--source", "--source-actions", "copy,move,ask"])
        _ = try parent.control.moveWindow("Lodestone", x: 350, y: 100)
        let target = try dragClient("target", in: nested, at: 100, 50, ["--actions", "copy,move,ask", "--preferred", "ask", "--answer", "move"])
        try parent.control.movePointer(x: 100, y: 170)
        try parent.control.button(pressed: true)
        try waitFor(parent, source, { $0.contains("started") }, "no drag in the parent")
        for x in stride(from: 150.0, through: 500, by: 50) { try parent.control.movePointer(x: x, y: 200) }
        try waitFor(parent, source, { $0.contains("target text/plain") && $0.contains("action 4") }, "the parent's source did not hear the accept and ask")
        try parent.control.button(pressed: false)
        try waitFor(parent, source, { $0.contains("dnd_drop_performed") && $0.contains("dnd_finished") }, "the parent's source did not hear the drop finished")
        let events = lines(source)
        let move = try XCTUnwrap(events.lastIndex(of: "action 2"), "the parent's source never heard move:\n\(textOfFile(source))")
        XCTAssertGreaterThan(move, try XCTUnwrap(events.firstIndex(of: "dnd_drop_performed")), textOfFile(source))
        XCTAssertLessThan(move, try XCTUnwrap(events.firstIndex(of: "dnd_finished")), textOfFile(source))
        let payload = try XCTUnwrap(events.first { $0.hasPrefix("payload ") })
        try waitFor(nested, target, { $0.contains("received text/plain " + payload.dropFirst("payload ".count)) }, "the bytes did not arrive inside")
        XCTAssertFalse(nested.log.contains("protocol error"), nested.log)
    }

    /// A client inside that dies at the drop, before reading or finishing: the parent's
    /// drag ends cancelled, not waiting for a finish that never comes.
    func testAParentDragWhoseTargetInsideDiesAtTheDropIsCancelled() throws {
        try start()
        let source = try dragClient("source", in: parent, at: 20, 100, ["--source"])
        _ = try parent.control.moveWindow("Lodestone", x: 350, y: 100)
        let target = try dragClient("target", in: nested, at: 100, 50, ["--exit-on-drop"])
        try parent.control.movePointer(x: 100, y: 170)
        try parent.control.button(pressed: true)
        try waitFor(parent, source, { $0.contains("started") }, "no drag in the parent")
        for x in stride(from: 150.0, through: 500, by: 50) { try parent.control.movePointer(x: x, y: 200) }
        // (The source's own window took the drag first: its "action 1" says nothing of ours.)
        try waitFor(nested, target, { $0.contains("offer_action 1") }, "the target inside agreed on no action")
        try waitFor(parent, source, { l in
            guard let refused = l.firstIndex(of: "target none"), let taken = l.lastIndex(of: "target text/plain") else { return false }
            return taken > refused
        }, "the parent's source did not hear the accept from inside")
        try parent.control.button(pressed: false)
        try waitFor(nested, target, { $0.contains("drop") }, "no drop inside")
        try waitFor(parent, source, { $0.contains("cancelled") }, "the parent's drag did not end when its target inside died")
        XCTAssertFalse(lines(source).contains("dnd_finished"), textOfFile(source))
        XCTAssertNoThrow(try nested.control.windows(), "the nested session is gone:\n\(nested.log.suffix(3000))")
    }

    /// A parent drag released over a client inside that refuses it cancels the parent's drag
    /// cleanly, and both sessions go on.
    func testAParentDragDroppedOnARefusingClientIsCancelled() throws {
        try start()
        let source = try dragClient("source", in: parent, at: 20, 100, ["--source"])
        _ = try parent.control.moveWindow("Lodestone", x: 350, y: 100)
        let target = try dragClient("target", in: nested, at: 100, 50, ["--accept", "none"])
        try parent.control.movePointer(x: 100, y: 170)
        try parent.control.button(pressed: true)
        try waitFor(parent, source, { $0.contains("started") }, "no drag in the parent")
        for x in stride(from: 150.0, through: 500, by: 50) { try parent.control.movePointer(x: x, y: 200) }
        try waitFor(nested, target, { $0.contains { $0.hasPrefix("enter ") } }, "no enter inside")
        try parent.control.button(pressed: false)
        try waitFor(parent, source, { $0.contains("cancelled") }, "the parent's drag did not end cancelled")
        XCTAssertFalse(lines(source).contains("dnd_drop_performed"), textOfFile(source))
        XCTAssertNoThrow(try nested.control.windows(), "the nested session is gone:\n\(nested.log.suffix(3000))")
        XCTAssertFalse(nested.log.contains("protocol error"), nested.log)
    }

    /// A drag started inside carries on in the parent once it leaves the window; released
    /// over the parent's desktop, where nothing takes it, it is cancelled, and the client
    /// inside hears so.
    func testADragLeavingTheWindowIsCancelledInside() throws {
        try requireProgram("python3")
        try start()
        _ = try parent.control.moveWindow("Lodestone", x: 350, y: 100)
        let log = directory + "/inside-source.txt"
        try nested.launch(["python3", repositoryRoot + "/Tests/clients/drag_client.py", "source", "cc6633", "--source"], output: log)
        XCTAssertTrue(try nested.wait(timeout: 20) { textOfFile(log).contains("mapped") }, textOfFile(log))
        _ = try nested.control.moveWindow("source", x: 20, y: 20)
        _ = try parent.control.activateWindow("Lodestone")
        try parent.control.movePointer(x: 350 + 100, y: 100 + 80)
        try parent.control.button(pressed: true)
        XCTAssertTrue(try nested.wait { textOfFile(log).contains("started") }, "no drag inside:\n\(textOfFile(log))\n\(nested.log.suffix(2000))")
        for x in stride(from: 400.0, through: 50, by: -50) { try parent.control.movePointer(x: x, y: 250) }
        try parent.control.button(pressed: false)
        XCTAssertTrue(try nested.wait { textOfFile(log).contains("cancelled") }, "the drag did not end cancelled:\n\(textOfFile(log))")
        XCTAssertFalse(textOfFile(log).contains("dnd_drop_performed"), textOfFile(log))
        XCTAssertNoThrow(try nested.control.windows(), "the nested session is gone:\n\(nested.log.suffix(3000))")
    }

    /// A drag started inside that leaves the window carries on in the parent (Lodestone's
    /// start_drag there, with the press's serial): a client in the parent hears it, its
    /// accept reaches the source inside, and the drop gives it the bytes of the source inside.
    func testADragFromInsideDropsOntoAClientInTheParent() throws {
        try start()
        _ = try parent.control.moveWindow("Lodestone", x: 350, y: 100)
        let target = try dragClient("target", in: parent, at: 20, 100)
        let source = try dragClient("source", in: nested, at: 20, 20, ["--source", "--icon"])
        _ = try parent.control.activateWindow("Lodestone")
        try parent.control.movePointer(x: 350 + 100, y: 100 + 80)
        try parent.control.button(pressed: true)
        try waitFor(nested, source, { $0.contains("started") }, "no drag inside")
        for x in stride(from: 400.0, through: 100, by: -50) { try parent.control.movePointer(x: x, y: 170) }
        try waitFor(parent, target, { $0.contains { $0.hasPrefix("enter ") && $0.hasSuffix(" text/plain,application/x-lodestone-test") } },
                    "no enter in the parent")
        // The client's icon (40×30 of 0xff00ff, its hotspot at 10, 10) goes with the drag: the
        // parent draws it at its pointer (100, 170); its lower right, clear of the pointer.
        let shot = try parent.screenshot("carried-icon")
        XCTAssertEqual(shot.countDiffering(from: 0xff00ff, x: 112, y: 177, width: 15, height: 10).differing, 0, "the icon in the parent")
        try waitFor(nested, source, { $0.contains("target text/plain") && $0.contains("action 1") }, "the source inside did not hear the parent's target")
        try parent.control.button(pressed: false)
        let payload = try XCTUnwrap(lines(source).first { $0.hasPrefix("payload ") })
        try waitFor(parent, target, { $0.contains("received text/plain " + payload.dropFirst("payload ".count)) }, "the bytes did not arrive in the parent")
        try waitFor(nested, source, { $0.contains("dnd_drop_performed") && $0.contains("dnd_finished") }, "the source inside did not hear the drop finished")
        XCTAssertFalse(lines(source).contains("cancelled"), textOfFile(source))
        // Back over the window the pointer is the source window's again (no button left held
        // inside to keep an implicit grab): it hears a second enter.
        try parent.control.movePointer(x: 350 + 120, y: 100 + 90)
        try waitFor(nested, source, { $0.filter { $0 == "pointer enter" }.count == 2 }, "no pointer enter inside after the drag")
        XCTAssertFalse(nested.log.contains("protocol error"), nested.log)
    }

    /// The client inside whose drag went on in the parent dies mid-drag: the parent's drag
    /// ends too (its target hears leave), and both sessions go on.
    func testADragCarriedOutEndsWhenItsSourceInsideDies() throws {
        try start()
        _ = try parent.control.moveWindow("Lodestone", x: 350, y: 100)
        let target = try dragClient("target", in: parent, at: 20, 100)
        let source = try dragClientProcess("source", in: nested, at: 20, 20, ["--source"])
        _ = try parent.control.activateWindow("Lodestone")
        try parent.control.movePointer(x: 350 + 100, y: 100 + 80)
        try parent.control.button(pressed: true)
        try waitFor(nested, source.log, { $0.contains("started") }, "no drag inside")
        for x in stride(from: 400.0, through: 100, by: -50) { try parent.control.movePointer(x: x, y: 170) }
        try waitFor(parent, target, { $0.contains { $0.hasPrefix("enter ") } }, "no enter in the parent")
        kill(source.process.processIdentifier, SIGKILL)
        try waitFor(parent, target, { $0.contains("leave") }, "the parent's drag went on without its source")
        try parent.control.button(pressed: false)
        XCTAssertFalse(lines(target).contains("drop"), textOfFile(target))
        XCTAssertNoThrow(try nested.control.windows(), "the nested session is gone:\n\(nested.log.suffix(3000))")
        XCTAssertNoThrow(try parent.control.windows(), "the parent is gone:\n\(parent.log.suffix(3000))")
    }
}
