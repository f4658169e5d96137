import Foundation
import LodestoneTesting
import XCTest

/// zwlr_data_control_manager_v1 with the real tools: wl-clipboard 2.1 uses it when offered,
/// so `wl-copy` and `wl-paste` work with no window and no keyboard focus, and
/// `wl-paste --watch` sees every copy. What data-control sets is the seat's selection, so a
/// regular wl_data_device client (Tests/clients/data_control_client.py) pastes it; the X11
/// bridge is tested the same way in XwaylandClipboardTests (its wl-copy uses data-control too).
final class DataControlTests: XCTestCase {
    private var session: Session!

    override func setUpWithError() throws {
        try requireProgram("wl-copy")
        try requireProgram("wl-paste")
        session = try Session()
    }

    override func tearDown() {
        session?.stop()
        session = nil
    }

    private var client: String { repositoryRoot + "/Tests/clients/data_control_client.py" }

    private func requirePywayland() throws {
        let (status, _) = try run(["python3", "-c", "import pywayland"])
        if status != 0 {
            if ProcessInfo.processInfo.environment["CI"] != nil { XCTFail("pywayland is missing; run make deps") }
            throw XCTSkip("pywayland is missing; run make deps")
        }
    }

    /// `wl-copy --foreground TEXT`, serving the paste until the session ends; waits until
    /// Lodestone took the selection (its `WAYLAND_DEBUG` trace, in the test's directory).
    /// In the foreground: forked, its child inherits the test process's pipes (Foundation's
    /// are not close-on-exec) and `run` waits on them until the next copy.
    @discardableResult
    private func wlCopy(_ text: String, primary: Bool = false, name: String) throws -> (status: Int32, trace: String) {
        let trace = session.runtimeDirectory + "/\(name).txt"
        try session.launch(["wl-copy", "--foreground"] + (primary ? ["--primary"] : []) + [text],
                           environment: ["WAYLAND_DEBUG": "client"], output: trace)
        XCTAssertTrue(try session.wait { selectionTaken(trace: textOfFile(trace), primary: primary) },
                      "Lodestone took no selection from wl-copy:\n\(textOfFile(trace).suffix(2000))")
        return (0, trace)
    }

    private func wlPaste(primary: Bool = false) throws -> (status: Int32, output: String) {
        try run(["timeout", "10", "wl-paste", "--no-newline"] + (primary ? ["--primary"] : []), environment: session.clientEnvironment)
    }

    func testWlCopyAndWlPasteWorkWithNoWindowFocused() throws {
        XCTAssertEqual(try session.control.windows().count, 0)
        let text = "hello \(UInt32.random(in: 0...UInt32.max))"
        let (status, trace) = try wlCopy(text, name: "wl-copy")
        XCTAssertEqual(status, 0)
        XCTAssertTrue(try session.wait { selectionTaken(trace: textOfFile(trace), primary: false) }, textOfFile(trace).suffix(2000).description)
        XCTAssertTrue(textOfFile(trace).contains("zwlr_data_control_device_v1@"), "wl-copy did not use data-control:\n\(textOfFile(trace).suffix(2000))")
        let (pasteStatus, pasted) = try wlPaste()
        XCTAssertEqual(pasteStatus, 0, pasted)
        XCTAssertEqual(pasted, text)
        // The data-control path needs no window: none mapped, none has the keyboard.
        XCTAssertEqual(try session.control.windows().map(\.title), [])
        XCTAssertFalse(session.log.contains("protocol error"), session.log)
    }

    func testPrimarySelectionThroughDataControl() throws {
        let primary = "primary \(UInt32.random(in: 0...UInt32.max))", clipboard = "clipboard \(UInt32.random(in: 0...UInt32.max))"
        let (_, trace) = try wlCopy(primary, primary: true, name: "wl-copy-primary")
        XCTAssertTrue(try session.wait { selectionTaken(trace: textOfFile(trace), primary: true) }, textOfFile(trace).suffix(2000).description)
        XCTAssertTrue(textOfFile(trace).contains(".set_primary_selection(zwlr_data_control_source_v1@"), textOfFile(trace).suffix(2000).description)
        try wlCopy(clipboard, name: "wl-copy-clipboard")
        XCTAssertTrue(try wait(timeout: 10) { try self.wlPaste().output == clipboard })
        XCTAssertEqual(try wlPaste(primary: true).output, primary, "copying to the clipboard changed the primary selection")
        XCTAssertEqual(try wlPaste().output, clipboard)
        XCTAssertEqual(try session.control.windows().map(\.title), [])
    }

    /// `wl-paste --watch` runs its command for each new selection, whoever set it: a regular
    /// client through wl_data_device, then wl-copy through data-control.
    func testWlPasteWatchSeesEveryCopy() throws {
        try requirePywayland()
        let watched = session.runtimeDirectory + "/watch.txt"
        // Each copy appended on a line of its own.
        try session.launch(["wl-paste", "--watch", "sh", "-c", "cat; echo"], output: watched)
        // Running, and told of the empty clipboard, before the first copy.
        Thread.sleep(forTimeInterval: 0.5)
        let fromWindow = "from a window \(UInt32.random(in: 0...UInt32.max))"
        let copier = session.runtimeDirectory + "/copy-window.txt"
        try session.launch(["python3", client, "copy-window", fromWindow], output: copier)
        XCTAssertTrue(try session.wait { textOfFile(copier).contains("copied") }, textOfFile(copier))
        XCTAssertTrue(try session.wait { textOfFile(watched).contains(fromWindow) }, "wl-paste --watch missed a wl_data_device copy:\n\(textOfFile(watched))")

        let fromWlCopy = "from wl-copy \(UInt32.random(in: 0...UInt32.max))"
        try wlCopy(fromWlCopy, name: "wl-copy")
        XCTAssertTrue(try session.wait { textOfFile(watched).contains(fromWlCopy) }, "wl-paste --watch missed wl-copy's copy:\n\(textOfFile(watched))")
        // The window's source was replaced, so cancelled.
        XCTAssertTrue(try session.wait { textOfFile(copier).contains("cancelled") }, textOfFile(copier))
    }

    /// A GTK 4 app's copy reaches `wl-paste --watch`: gnome-text-editor gets text typed into
    /// its document, Ctrl+A selects it and Ctrl+C copies it (GTK sets the selection through
    /// wl_data_device with the key's serial, and serves the paste itself).
    func testWlPasteWatchSeesACopyFromAGtkApp() throws {
        try requireProgram("gnome-text-editor")
        let watched = session.runtimeDirectory + "/watch.txt"
        try session.launch(["wl-paste", "--watch", "sh", "-c", "cat; echo"], output: watched)
        let editor = try session.launch(["gnome-text-editor", "--standalone"], environment: AppSessionTests.gtkWayland,
                                        output: session.runtimeDirectory + "/editor.txt")
        let window = try session.waitForWindow("gnome-text-editor", timeout: 40)
        // A new window takes the keyboard; the document's text view has it once GTK is ready.
        XCTAssertTrue(try session.wait(timeout: 20) { try session.control.keyboard().appID == window.appID },
                      "gnome-text-editor never got the keyboard: \((try? session.control.keyboard()).map { "\($0)" } ?? "?")")
        // A word of its own each run: nothing else can have put it on the clipboard.
        let word = (0..<8).map { _ in "asdfghjkl".randomElement()! }.map(String.init).joined()
        let text = "lodestone " + word
        // Keys typed before GTK has realized the document's view are lost, so this goes on
        // until a copy shows; each try types over all the document held (Ctrl+A first).
        XCTAssertTrue(try session.wait(timeout: 30) {
            try Self.chord(Self.leftCtrl, Self.keyA, with: session.control)
            try Self.type(text, with: session.control)
            try Self.chord(Self.leftCtrl, Self.keyA, with: session.control)
            try Self.chord(Self.leftCtrl, Self.keyC, with: session.control)
            return try session.wait(timeout: 3) { textOfFile(watched).contains(text) }
        }, "wl-paste --watch never saw gnome-text-editor's copy:\n\(textOfFile(watched))\n\(textOfFile(session.runtimeDirectory + "/editor.txt").suffix(2000))")
        // Exactly what was selected: the document held the text alone.
        let copies = textOfFile(watched).split(separator: "\n").filter { $0.contains(word) }
        XCTAssertEqual(copies.last.map(String.init), text, textOfFile(watched))
        XCTAssertTrue(editor.isRunning, "gnome-text-editor is gone:\n\(session.log.suffix(2000))")
        XCTAssertFalse(session.log.contains("protocol error"), session.log)
    }

    // Evdev key codes (linux/input-event-codes.h).
    static let leftCtrl: UInt32 = 29, keyA: UInt32 = 30, keyC: UInt32 = 46, space: UInt32 = 57
    static let letters: [Character: UInt32] = [
        "a": 30, "s": 31, "d": 32, "f": 33, "g": 34, "h": 35, "j": 36, "k": 37, "l": 38,
        "e": 18, "n": 49, "o": 24, "t": 20, " ": 57,
    ]

    private static func type(_ text: String, with control: TestControl) throws {
        for c in text {
            try control.tap(try XCTUnwrap(letters[c], "no key code for \(c)"))
            usleep(20_000)
        }
    }

    private static func chord(_ modifier: UInt32, _ key: UInt32, with control: TestControl) throws {
        try control.key(modifier, pressed: true)
        try control.tap(key)
        try control.key(modifier, pressed: false)
    }

    /// What wl-copy sets through data-control, a regular client pastes through wl_data_device.
    func testRegularClientPastesDataControlSelection() throws {
        try requirePywayland()
        let text = "for a window \(UInt32.random(in: 0...UInt32.max))"
        try wlCopy(text, name: "wl-copy")
        let (status, output) = try run(["timeout", "20", "python3", client, "paste-window"], environment: session.clientEnvironment)
        XCTAssertEqual(status, 0, output)
        XCTAssertTrue(output.contains("pasted: \(text)"), output)
    }

    /// The protocol errors, each named and ending only that client: wl-copy and wl-paste
    /// carry on.
    func testMisbehavingClientsGetNamedErrors() throws {
        try requirePywayland()
        for (mode, error) in [("used-source", "zwlr_data_control_device_v1#"), ("offer-after-use", "zwlr_data_control_source_v1#")] {
            let (status, output) = try run(["python3", client, mode], environment: session.clientEnvironment)
            XCTAssertEqual(status, 0, output)
            XCTAssertTrue(output.contains("RESULT: protocol-error"), output)
            // libwayland-client: "zwlr_data_control_device_v1#5: error 1: this … was already used"
            XCTAssertTrue(output.contains(error) && output.contains(": error 1: "), output)
        }
        XCTAssertTrue(session.compositorIsRunning, session.log)
        let text = "still served \(UInt32.random(in: 0...UInt32.max))"
        try wlCopy(text, name: "wl-copy")
        XCTAssertTrue(try wait(timeout: 10) { try self.wlPaste().output == text })
    }
}
