import Foundation
import LodestoneTesting
import XCTest

/// Input methods (issue 39) in headless Lodestone: a pywayland input method
/// (Tests/clients/input_method_client.py) composes "にほん" and commits "日本" into a pywayland
/// text field and into real apps (gtk4-widget-factory, gnome-text-editor, foot; Qt 6 Linguist
/// and a pywayland field through text-input v1); `wtype` types
/// through the virtual keyboard; misbehaving clients get named protocol errors. What the apps
/// hold afterwards is read from the apps themselves: GTK reports its text in each
/// `set_surrounding_text` (the input method prints it), foot's shell writes it to a file.
final class InputMethodTests: XCTestCase {
    private var session: Session!

    override func setUpWithError() throws {
        let (status, _) = try run(["python3", "-c", "import pywayland"])
        if status != 0 {
            if ProcessInfo.processInfo.environment["CI"] != nil { XCTFail("pywayland is missing; run make deps") }
            throw XCTSkip("pywayland is missing; run make deps")
        }
        session = try Session()
    }

    override func tearDown() {
        session?.stop()
        session = nil
    }

    private var client: String { repositoryRoot + "/Tests/clients/input_method_client.py" }

    /// Starts the test input method (it stays, serving each activation) and waits until it bound.
    private func startInputMethod(_ extra: [String] = []) throws -> (process: Process, output: String) {
        let output = session.runtimeDirectory + "/ime.txt"
        let process = try session.launch(["python3", client, "ime", "にほん", "日本", "--stay"] + extra, output: output)
        XCTAssertTrue(try session.wait(timeout: 20) { textOfFile(output).contains("ready") }, textOfFile(output))
        return (process, output)
    }

    private func startTextField() throws -> (process: Process, output: String) {
        let output = session.runtimeDirectory + "/field.txt"
        let process = try session.launch(["python3", client, "text-field"], output: output)
        _ = try session.waitForWindow("text-field")
        return (process, output)
    }

    /// What the input method heard after its commit: the app's own account of its text.
    private func surroundingAfterCommit(_ output: String) -> [String] {
        let text = textOfFile(output)
        guard let committed = text.range(of: "\ncommitted\n") else { return [] }
        return text[committed.upperBound...].split(separator: "\n").filter { $0.hasPrefix("surrounding ") }.map(String.init)
    }

    private let magenta: UInt32 = 0xFF00FF

    /// The text field's state reaches the input method at each commit; the preedit, then the
    /// commit, reach the field, each ended by `done` with its commit count; the popup is drawn
    /// at its caret, above it. A second input method is refused; the field's window going
    /// deactivates the input method and hides the popup.
    func testTextFieldGetsPreeditCommitAndThePopupAtItsCaret() throws {
        let (_, ime) = try startInputMethod(["--popup", "40", "20"])
        let (field, fieldOutput) = try startTextField()
        XCTAssertTrue(try session.wait { textOfFile(fieldOutput).contains("commit 日本") }, "field:\n\(textOfFile(fieldOutput))\nime:\n\(textOfFile(ime))")
        let fieldLines = textOfFile(fieldOutput).split(separator: "\n").map(String.init)
        // The field committed once (on enter): both dones carry serial 1.
        XCTAssertEqual(fieldLines.filter { !$0.hasPrefix("wl-key") }, ["enter", "mapped", "preedit にほん 9 9", "done 1 commits 1", "commit 日本", "done 1 commits 1"])
        let imeText = textOfFile(ime)
        for line in ["activate", "surrounding 'abc' 3 3", "change-cause 0", "content-type 1 0", "rectangle 0 -16 2 16"] {
            XCTAssertTrue(imeText.contains(line + "\n"), "no '\(line)':\n\(imeText)")
        }
        // The popup just below the caret (20,30 2×16 in the field), magenta, above the window.
        let window = try session.waitForWindow("text-field")
        let (px, py) = (Int(window.x) + 20, Int(window.y) + 30 + 16)
        XCTAssertTrue(try session.wait {
            try session.screenshot("popup").countDiffering(from: magenta, x: px, y: py, width: 40, height: 20).differing == 0
        }, "no popup at \(px),\(py): window \(window)")

        let (status, second) = try run(["python3", client, "second"], environment: session.clientEnvironment)
        XCTAssertEqual(status, 0, second)
        XCTAssertTrue(second.contains("unavailable"), second)

        field.terminate()
        XCTAssertTrue(try session.wait { textOfFile(ime).contains("deactivate\n") }, textOfFile(ime))
        XCTAssertTrue(try session.wait {
            try session.screenshot("no-popup").countDiffering(from: magenta, x: px, y: py, width: 40, height: 20).differing == 40 * 20
        }, "the popup stayed after its text input went")
        XCTAssertFalse(session.log.contains("protocol error"), session.log)
    }

    /// With a keyboard grab, keys reach the input method first: A becomes 'あ' and the app
    /// never sees the key; when the input method goes, keys reach the app again.
    func testKeyboardGrabSeesKeysFirst() throws {
        let (ime, imeOutput) = try startInputMethod(["--grab"])
        let (_, field) = try startTextField()
        XCTAssertTrue(try session.wait { textOfFile(field).contains("commit 日本") }, textOfFile(field))
        XCTAssertTrue(textOfFile(imeOutput).contains("keymap "), textOfFile(imeOutput))
        try session.control.tap(30)
        XCTAssertTrue(try session.wait { textOfFile(field).contains("commit あ") }, "field:\n\(textOfFile(field))\nime:\n\(textOfFile(imeOutput))")
        XCTAssertTrue(textOfFile(imeOutput).contains("key 30 1\n"), textOfFile(imeOutput))
        XCTAssertTrue(try session.wait { textOfFile(imeOutput).contains("key 30 0\n") }, "the release went elsewhere")
        XCTAssertFalse(textOfFile(field).contains("wl-key 30"), "the app saw a grabbed key:\n\(textOfFile(field))")

        ime.terminate()
        ime.waitUntilExit()
        XCTAssertTrue(try session.wait {
            try session.control.tap(30)
            return textOfFile(field).contains("wl-key 30 1")
        }, "keys did not come back to the app:\n\(textOfFile(field))")
    }

    /// gtk4-widget-factory's first entry (it has the focus at start, holding "comboboxentry").
    func testGtk4WidgetFactoryEntry() throws {
        try requireProgram("gtk4-widget-factory")
        let surrounding = try composeInto(["gtk4-widget-factory"], name: "gtk4-widget-factory")
        XCTAssertTrue(surrounding.contains { $0.hasPrefix("surrounding '日本comboboxentry'") }, "\(surrounding)")
    }

    /// gnome-text-editor's new document.
    func testGnomeTextEditor() throws {
        try requireProgram("gnome-text-editor")
        let surrounding = try composeInto(["gnome-text-editor", "--standalone", "--ignore-session"], name: "gnome-text-editor")
        XCTAssertTrue(surrounding.contains { $0.hasPrefix("surrounding '日本'") }, "\(surrounding)")
    }

    /// Runs the input method and `app` (traced): the app receives the preedit and the commit
    /// and then reports its text; returns the surrounding texts it reported after the commit.
    private func composeInto(_ app: [String], name: String) throws -> [String] {
        let (_, ime) = try startInputMethod()
        let trace = session.runtimeDirectory + "/\(name).txt"
        // Its drafts and settings in the session's directory: gnome-text-editor restores the
        // drafts of earlier runs from XDG_DATA_HOME.
        let home = session.runtimeDirectory + "/\(name)-home"
        let environment = ["WAYLAND_DEBUG": "client", "GDK_BACKEND": "wayland", "GSETTINGS_BACKEND": "memory",
                           "XDG_DATA_HOME": home + "/data", "XDG_CONFIG_HOME": home + "/config", "XDG_STATE_HOME": home + "/state"]
        try session.launch(app, environment: environment, output: trace)
        XCTAssertTrue(try session.wait(timeout: 60) { surroundingAfterCommit(ime).contains { $0.contains("日本") } },
                      "ime:\n\(textOfFile(ime))\n\(name):\n\(textOfFile(trace).split(separator: "\n").filter { $0.contains("text_input") }.suffix(40).joined(separator: "\n"))")
        let received = textOfFile(trace)
        XCTAssertTrue(received.contains("zwp_text_input_v3@") && received.contains(".preedit_string(\"にほん\", 9, 9)"), "\(name) received no preedit")
        XCTAssertTrue(received.contains(".commit_string(\"日本\")"), "\(name) received no commit")
        return surroundingAfterCommit(ime)
    }

    /// A text-input v1 field (as Qt 6.4 speaks it) is served by the same input method: it is
    /// entered when it activates on the focused surface, hears the preedit (its cursor first)
    /// and the commit with the serial it last committed, and the input method hears its
    /// description in v3's terms. A deletion is v1's cursor-relative index and total length.
    func testTextInputV1FieldGetsPreeditAndCommit() throws {
        let (_, ime) = try startInputMethod(["--delete", "1", "0"])
        let output = session.runtimeDirectory + "/field-v1.txt"
        try session.launch(["python3", client, "text-field-v1"], output: output)
        XCTAssertTrue(try session.wait { textOfFile(output).contains("commit 日本") }, "field:\n\(textOfFile(output))\nime:\n\(textOfFile(ime))")
        XCTAssertEqual(textOfFile(output).split(separator: "\n").map(String.init).filter { $0 != "mapped" },
                       ["enter", "preedit-cursor 9", "preedit にほん '' serial 0", "delete -1 1", "commit 日本 serial 0"])
        let imeText = textOfFile(ime)
        for line in ["activate", "surrounding 'abc' 3 3", "change-cause 0", "content-type 1 0"] {
            XCTAssertTrue(imeText.contains(line + "\n"), "no '\(line)':\n\(imeText)")
        }
        XCTAssertFalse(session.log.contains("protocol error"), session.log)
    }

    /// zwp_text_input_v1 defines no errors: odd values, activations without the keyboard, and
    /// the focused surface destroyed while served leave the client connected and Lodestone
    /// serving the next field.
    func testOddTextInputV1ClientLeavesLodestoneServing() throws {
        let (ime, imeOutput) = try startInputMethod()
        let (status, output) = try run(["python3", repositoryRoot + "/Tests/clients/bad_client.py", "ti1-odd"], environment: session.clientEnvironment)
        XCTAssertEqual(status, 0, output)
        XCTAssertTrue(output.contains("RESULT: ok"), output)
        // Its commit_state(2^32-1) came with its activation: the serial it hears back.
        XCTAssertTrue(output.contains("heard commit_string 4294967295 日本"), "the odd field was not served:\n\(output)\nime:\n\(textOfFile(imeOutput))")
        XCTAssertTrue(try session.wait { textOfFile(imeOutput).contains("deactivate\n") }, textOfFile(imeOutput))
        XCTAssertTrue(session.compositorIsRunning, session.log)
        // A new input method (the first composes once) serves the next field.
        ime.terminate()
        ime.waitUntilExit()
        _ = try startInputMethod()
        let (_, field) = try startTextField()
        XCTAssertTrue(try session.wait { textOfFile(field).contains("commit 日本") }, textOfFile(field))
    }

    /// Qt 6.4's Wayland plugin speaks text-input v1, not v3: Linguist's find dialog (Ctrl+F,
    /// with a translation file open) activates its field through v1, gets the preedit and the
    /// commit, and then reports its text as "日本" to the input method.
    func testQt6LinguistFindField() throws {
        let (_, ime) = try startInputMethod()
        let trace = session.runtimeDirectory + "/linguist.txt"
        let environment = ["QT_QPA_PLATFORM": "wayland", "WAYLAND_DEBUG": "client", "XDG_CONFIG_HOME": session.runtimeDirectory + "/linguist-config"]
        _ = try openQt6LinguistFindDialog(in: session, environment: environment, output: trace)
        XCTAssertTrue(try session.wait(timeout: 30) { surroundingAfterCommit(ime).contains { $0.contains("日本") } },
                      "ime:\n\(textOfFile(ime))\nlinguist:\n\(textOfFile(trace).split(separator: "\n").filter { $0.contains("text_input") }.suffix(40).joined(separator: "\n"))")
        XCTAssertEqual(surroundingAfterCommit(ime).first, "surrounding '日本' 6 6")
        let received = textOfFile(trace)
        XCTAssertTrue(received.contains(".preedit_cursor(9)") && received.contains(".preedit_string(0, \"にほん\", \"\")"),
                      "Linguist received no preedit:\n\(received.split(separator: "\n").filter { $0.contains("text_input") }.joined(separator: "\n"))")
        XCTAssertTrue(received.contains(".commit_string(0, \"日本\")"), "Linguist received no commit")
        // The field is the find dialog's: the text input was activated on its surface.
        XCTAssertEqual(activatedSurface(received), toplevelSurface(titled: "Find", received))
        XCTAssertFalse(session.log.contains("protocol error"), session.log)
    }

    /// The wl_surface a text input v1 was last activated on, in a client's WAYLAND_DEBUG trace.
    private func activatedSurface(_ trace: String) -> String? {
        trace.matches(of: /zwp_text_input_v1@\d+\.activate\(wl_seat@\d+, (wl_surface@\d+)\)/).last.map { String($0.1) }
    }

    /// The wl_surface of the toplevel that set `title`, in a client's WAYLAND_DEBUG trace.
    private func toplevelSurface(titled title: String, _ trace: String) -> String? {
        guard let toplevel = trace.matches(of: /(xdg_toplevel@\d+)\.set_title\("(.*)"\)/).last(where: { $0.2 == title })?.1,
              let xdgSurface = trace.matches(of: /(xdg_surface@\d+)\.get_toplevel\(new id (xdg_toplevel@\d+)\)/).last(where: { $0.2 == toplevel })?.1
        else { return nil }
        return trace.matches(of: /get_xdg_surface\(new id (xdg_surface@\d+), (wl_surface@\d+)\)/).last { $0.1 == xdgSurface }.map { String($0.2) }
    }

    /// foot composes through text-input v3 too: the input method's "日本", then `wtype`'s
    /// 'héllo ✓' through the virtual keyboard (a keymap of its own, with é and ✓), reach
    /// the shell in foot, which writes them to a file.
    func testFootTakesTheInputMethodAndWtype() throws {
        try requireProgram("foot")
        try requireProgram("wtype")
        let (_, ime) = try startInputMethod()
        let file = session.runtimeDirectory + "/typed.txt"
        try session.launch(["foot", "--title", "typing", "sh", "-c", "cat > '\(file)'"], output: session.runtimeDirectory + "/foot.txt")
        _ = try session.waitForWindow("foot")
        XCTAssertTrue(try session.wait(timeout: 20) { textOfFile(ime).contains("committed") }, textOfFile(ime))
        try session.control.tap(28)  // Enter: cat writes the line
        XCTAssertTrue(try session.wait { textOfFile(file) == "日本\n" }, "foot's shell got '\(textOfFile(file))'\nime:\n\(textOfFile(ime))")

        for arguments in [["wtype", "héllo ✓"], ["wtype", "-k", "Return"]] {
            let (status, output) = try run(arguments, environment: session.clientEnvironment)
            XCTAssertEqual(status, 0, output)
        }
        XCTAssertTrue(try session.wait { textOfFile(file) == "日本\nhéllo ✓\n" }, "foot's shell got '\(textOfFile(file))'")
        // The seat's keymap is back for real keys after wtype's.
        try session.control.tap(30)
        try session.control.tap(28)
        XCTAssertTrue(try session.wait { textOfFile(file) == "日本\nhéllo ✓\na\n" }, "foot's shell got '\(textOfFile(file))'")
    }

    /// Each misbehaving client gets the protocol error that names its fault and only it is
    /// disconnected; Lodestone keeps no file descriptor of theirs.
    func testMisbehavingClientsGetNamedErrorsAndLeakNoFd() throws {
        let compositorFds = "/proc/\(session.compositorPID)/fd"
        func fdCount() throws -> Int { try FileManager.default.contentsOfDirectory(atPath: compositorFds).count }
        // One run first: the globals' first binds may allocate for good (the keymap).
        _ = try run(["python3", repositoryRoot + "/Tests/clients/bad_client.py", "ime-stale-commit"], environment: session.clientEnvironment)
        // A round trip on the test connection first: the exited client's hang-up is then
        // handled and its fds closed (a CI run counted them in `before`: 23, then 21 after).
        _ = try session.control.pointer()
        let before = try fdCount()
        let cases: [(mode: String, error: String)] = [
            ("vk-key-before-keymap", "zwp_virtual_keyboard_v1#5: error 0: key or modifiers before a keymap"),
            ("vk-keymap-format", "zwp_virtual_keyboard_v1#5: error 0: keymap format 0 is not xkb_v1"),
            ("vk-keymap-pipe", "zwp_virtual_keyboard_v1#5: error 0: the keymap cannot be used: the keymap fd is not a regular file"),
            ("vk-keymap-short", "zwp_virtual_keyboard_v1#5: error 0: the keymap cannot be used: the keymap claims 4096 bytes, but its file has 64"),
            ("vk-keymap-garbage", "zwp_virtual_keyboard_v1#5: error 0: the keymap cannot be used: the keymap does not compile"),
            ("ime-popup-role", "zwp_input_method_v2#9: error 0: wl_surface@6 already has the role xdg_surface"),
            ("ime-stale-commit", ""),
            ("vk-held-key", ""),
        ]
        for (mode, error) in cases {
            let (status, output) = try run(["python3", repositoryRoot + "/Tests/clients/bad_client.py", mode], environment: session.clientEnvironment)
            XCTAssertEqual(status, 0, output)
            if error.isEmpty {
                XCTAssertFalse(output.contains("protocol-error"), "\(mode): \(output)")
            } else {
                XCTAssertTrue(output.contains("RESULT: protocol-error") && output.contains(error), "\(mode): \(output)")
            }
            XCTAssertTrue(session.compositorIsRunning, "\(mode) took Lodestone down:\n\(session.log)")
        }
        XCTAssertTrue(try session.wait { try fdCount() == before }, "fds before \(before), after \((try? fdCount()) ?? -1)")
        // And the seat still serves a text field.
        _ = try startInputMethod()
        let (_, field) = try startTextField()
        XCTAssertTrue(try session.wait { textOfFile(field).contains("commit 日本") }, textOfFile(field))
    }
}
