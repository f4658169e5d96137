import Foundation
import LodestoneTesting
import XCTest

/// The parent's input method reaching apps inside a nested Lodestone (issue 39, item 4;
/// `ParentTextInput`): a headless Lodestone parent runs the pywayland input method
/// (Tests/clients/input_method_client.py), a nested Lodestone is its text-input client for
/// the pywayland text field inside, and an input method inside the nested Lodestone takes
/// precedence while it runs.
final class NestedInputMethodTests: XCTestCase {
    private var parent: Session!
    private var nested: Session!

    override func setUpWithError() throws {
        let (status, _) = try run(["python3", "-c", "import pywayland"])
        if status != 0 {
            if ProcessInfo.processInfo.environment["CI"] != nil { XCTFail("pywayland is missing; run make deps") }
            throw XCTSkip("pywayland is missing; run make deps")
        }
    }

    /// A parent at `scale` (the nested output takes it) and a nested Lodestone with the
    /// parent's keyboard, so its text-input focus.
    private func start(scale: Double = 1, parentEnvironment: [String: String] = [:]) throws {
        parent = try Session(size: "800x600", scale: scale, environment: parentEnvironment)
        nested = try Session(nestedIn: parent, size: "400x300")
        _ = try parent.waitForWindow("Lodestone")
        _ = try parent.control.activateWindow("Lodestone")
    }

    override func tearDown() {
        nested?.stop()
        parent?.stop()
    }

    private var client: String { repositoryRoot + "/Tests/clients/input_method_client.py" }

    /// The test input method in `session`, composing `preedit` then `commit` once; waits until it bound.
    private func startInputMethod(in session: Session, _ name: String, _ preedit: String, _ commit: String, _ extra: [String] = []) throws -> (process: Process, output: String) {
        let output = session.runtimeDirectory + "/\(name).txt"
        let process = try session.launch(["python3", client, "ime", preedit, commit, "--stay"] + extra, output: output)
        XCTAssertTrue(try session.wait(timeout: 20) { textOfFile(output).contains("ready") }, textOfFile(output))
        return (process, output)
    }

    private func startTextField(_ title: String = "text-field") throws -> String {
        let output = nested.runtimeDirectory + "/\(title).txt"
        try nested.launch(["python3", client, "text-field", title], output: output)
        return output
    }

    /// Whether the parent's capture shows the magenta popup just below the caret of `field`
    /// (its caret 20,30 2×16) inside Lodestone's `window`.
    private func popupShown(at field: TestControl.WindowState, in window: TestControl.WindowState) throws -> Bool {
        try parent.screenshot("popup").countDiffering(from: magenta, x: Int(window.x + field.x) + 20, y: Int(window.y + field.y) + 46, width: 40, height: 20).differing == 0
    }

    private let magenta: UInt32 = 0xFF00FF

    /// The field inside describes itself; the parent's input method hears it (its caret in the
    /// parent's coordinates) and its preedit, then a deletion and its commit, reach the field,
    /// each ended by the field's own `done`; its popup shows in the parent at the field's caret.
    func testParentInputMethodComposesIntoAnAppInside() throws { try composeFromTheParent(scale: 1) }

    /// At the parent's scale 2 the caret is still in logical coordinates: the window's surface
    /// shows the nested output at buffer scale 2, and the popup lands on the caret's pixels.
    func testAtScaleTwoThePopupIsAtTheCaret() throws { try composeFromTheParent(scale: 2) }

    private func composeFromTheParent(scale: Int) throws {
        try start(scale: Double(scale))
        let (_, ime) = try startInputMethod(in: parent, "parent-ime", "にほん", "日本", ["--popup", "40", "20", "--grab", "--delete", "1", "0"])
        let field = try startTextField()
        XCTAssertTrue(try nested.wait { textOfFile(field).contains("commit 日本") },
                      "field:\n\(textOfFile(field))\nparent's ime:\n\(textOfFile(ime))\nnested log:\n\(nested.log.suffix(3000))")
        let fieldLines = textOfFile(field).split(separator: "\n").map(String.init).filter { !$0.hasPrefix("wl-key") }
        XCTAssertEqual(fieldLines, ["enter", "mapped", "preedit にほん 9 9", "done 1 commits 1", "delete 1 0", "commit 日本", "done 1 commits 1"])
        let imeText = textOfFile(ime)
        // 20,30 2×16 in the field; the popup (40×20) just below it, so the caret is 16 above.
        for line in ["activate", "surrounding 'abc' 3 3", "change-cause 0", "content-type 1 0", "rectangle 0 -16 2 16"] {
            XCTAssertTrue(imeText.contains(line + "\n"), "no '\(line)':\n\(imeText)")
        }
        let window = try parent.waitForWindow("Lodestone")
        let app = try nested.waitForWindow("text-field")
        // The parent's capture is in pixels: logical coordinates times the scale.
        let (px, py) = ((Int(window.x + app.x) + 20) * scale, (Int(window.y + app.y) + 30 + 16) * scale)
        XCTAssertTrue(try parent.wait {
            try parent.screenshot("parent-popup").countDiffering(from: magenta, x: px, y: py, width: 40 * scale, height: 20 * scale).differing == 0
        }, "no popup in the parent at \(px),\(py) px: Lodestone's window \(window), the field \(app)")
        // The field's window moves inside: the parent is told of the caret's new place.
        let moved = try nested.control.moveWindow("text-field", x: app.x + 60, y: app.y + 40)
        let (mx, my) = ((Int(window.x + moved.x) + 20) * scale, (Int(window.y + moved.y) + 30 + 16) * scale)
        XCTAssertTrue(try parent.wait {
            try parent.screenshot("parent-popup-moved").countDiffering(from: magenta, x: mx, y: my, width: 40 * scale, height: 20 * scale).differing == 0
        }, "the popup did not follow the field to \(mx),\(my) px: the field \(moved)")

        // The parent's input method grabs the parent's keyboard, as fcitx5 does: A typed in
        // the parent becomes its 'あ' in the field, which never sees the key.
        try parent.control.tap(30)
        XCTAssertTrue(try nested.wait { textOfFile(field).contains("commit あ") }, "field:\n\(textOfFile(field))\nparent's ime:\n\(textOfFile(ime))")
        XCTAssertFalse(textOfFile(field).contains("wl-key 30"), "the field saw a key the parent's input method took:\n\(textOfFile(field))")
        XCTAssertFalse(parent.log.contains("protocol error") || nested.log.contains("protocol error"), parent.log + nested.log)
    }

    /// The parent's keyboard goes to a text field of the parent's own and comes back: the
    /// parent's input method follows it out of Lodestone's window (its popup at that field's
    /// caret) and back in, where Lodestone describes the field afresh: its window moved while
    /// the parent's focus was away, and the popup is at its caret's new place.
    func testTheParentsFocusLeavesTheWindowAndComesBack() throws {
        try start()
        let (_, ime) = try startInputMethod(in: parent, "parent-ime", "にほん", "日本", ["--popup", "40", "20"])
        let field = try startTextField()
        XCTAssertTrue(try nested.wait { textOfFile(field).contains("commit 日本") }, "field:\n\(textOfFile(field))\nparent's ime:\n\(textOfFile(ime))")
        let window = try parent.waitForWindow("Lodestone")

        let outsideField = parent.runtimeDirectory + "/outside-field.txt"
        try parent.launch(["python3", client, "text-field"], output: outsideField)
        let other = try parent.waitForWindow("text-field")
        _ = try parent.control.activateWindow("text-field")
        XCTAssertTrue(try parent.wait { textOfFile(outsideField).contains("enter") }, textOfFile(outsideField))
        let outside = (x: Int(other.x) + 20, y: Int(other.y) + 46)
        XCTAssertTrue(try parent.wait {
            try parent.screenshot("popup-outside").countDiffering(from: magenta, x: outside.x, y: outside.y, width: 40, height: 20).differing == 0
        }, "the popup is not at the parent's field's caret \(outside)")
        let app = try nested.waitForWindow("text-field")
        let moved = try nested.control.moveWindow("text-field", x: app.x + 60, y: app.y + 40)
        let inside = (x: Int(window.x + moved.x) + 20, y: Int(window.y + moved.y) + 46)

        _ = try parent.control.activateWindow("Lodestone")
        XCTAssertTrue(try parent.wait {
            try parent.screenshot("popup-back").countDiffering(from: magenta, x: inside.x, y: inside.y, width: 40, height: 20).differing == 0
        }, "the popup did not come back to the nested field's caret \(inside)\nparent's ime:\n\(textOfFile(ime))")
        // Activated three times: for the field inside, the parent's field, the field inside again.
        XCTAssertEqual(textOfFile(ime).split(separator: "\n").filter { $0 == "activate" }.count, 3, textOfFile(ime))
        XCTAssertFalse(parent.log.contains("protocol error") || nested.log.contains("protocol error"), parent.log + nested.log)
    }

    /// The keyboard moves between two fields inside: the parent's input method is told of a
    /// new field each time (deactivated, activated again) and its popup follows the caret.
    func testFocusMovingBetweenFieldsInside() throws {
        try start()
        let (_, ime) = try startInputMethod(in: parent, "parent-ime", "にほん", "日本", ["--popup", "40", "20"])
        let first = try startTextField("field-a")
        XCTAssertTrue(try nested.wait { textOfFile(first).contains("commit 日本") }, "field-a:\n\(textOfFile(first))\nparent's ime:\n\(textOfFile(ime))")
        let window = try parent.waitForWindow("Lodestone")
        let second = try startTextField("field-b")
        let b = try nested.waitForWindow("field-b")
        // A new window does not take the keyboard from the one the user types in: it is given.
        _ = try nested.control.activateWindow("field-b")
        XCTAssertTrue(try nested.wait { textOfFile(second).contains("enter") }, textOfFile(second))
        let a = try nested.waitForWindow("field-a")
        XCTAssertNotEqual(a.x, b.x)
        XCTAssertTrue(try parent.wait { try popupShown(at: b, in: window) }, "the popup is not at field-b's caret:\n\(textOfFile(ime))")
        _ = try nested.control.activateWindow("field-a")
        XCTAssertTrue(try parent.wait { try popupShown(at: a, in: window) }, "the popup is not back at field-a's caret:\n\(textOfFile(ime))")
        let heard = textOfFile(ime).split(separator: "\n")
        XCTAssertEqual(heard.filter { $0 == "activate" }.count, 3, textOfFile(ime))
        XCTAssertEqual(heard.filter { $0 == "deactivate" }.count, 2, textOfFile(ime))
    }

    /// An input method inside the nested Lodestone serves the field; the parent's is not
    /// activated while it runs. When it exits, the parent's takes over.
    func testLocalInputMethodTakesPrecedence() throws {
        try start()
        let (_, outer) = try startInputMethod(in: parent, "parent-ime", "にほん", "日本")
        let (local, inner) = try startInputMethod(in: nested, "local-ime", "かな", "仮名")
        let field = try startTextField()
        XCTAssertTrue(try nested.wait { textOfFile(field).contains("commit 仮名") }, "field:\n\(textOfFile(field))\nlocal ime:\n\(textOfFile(inner))")
        XCTAssertFalse(textOfFile(outer).contains("activate"), "the parent's input method was used:\n\(textOfFile(outer))")
        XCTAssertFalse(textOfFile(field).contains("にほん"), textOfFile(field))

        local.terminate()
        XCTAssertTrue(try nested.wait { textOfFile(field).contains("commit 日本") },
                      "field:\n\(textOfFile(field))\nparent's ime:\n\(textOfFile(outer))")
        XCTAssertTrue(textOfFile(outer).contains("surrounding 'abc' 3 3\n"), textOfFile(outer))
    }

    /// gtk4-widget-factory's first entry inside (it has the focus at start, holding
    /// "comboboxentry"): it receives the parent's preedit and commit, and reports its text to
    /// the parent's input method through Lodestone.
    func testGtk4WidgetFactoryInsideGetsTheParentsComposition() throws {
        try requireProgram("gtk4-widget-factory")
        try start()
        let (_, ime) = try startInputMethod(in: parent, "parent-ime", "にほん", "日本")
        let trace = nested.runtimeDirectory + "/gtk4-widget-factory.txt"
        try nested.launch(["gtk4-widget-factory"], environment: ["WAYLAND_DEBUG": "client", "GDK_BACKEND": "wayland", "GSETTINGS_BACKEND": "memory"], output: trace)
        func reported() -> [String] {
            let text = textOfFile(ime)
            guard let committed = text.range(of: "\ncommitted\n") else { return [] }
            return text[committed.upperBound...].split(separator: "\n").filter { $0.hasPrefix("surrounding ") }.map(String.init)
        }
        XCTAssertTrue(try nested.wait(timeout: 60) { reported().contains { $0.hasPrefix("surrounding '日本comboboxentry'") } },
                      "parent's ime:\n\(textOfFile(ime))\ngtk4-widget-factory:\n\(textOfFile(trace).split(separator: "\n").filter { $0.contains("text_input") }.suffix(40).joined(separator: "\n"))")
        let received = textOfFile(trace)
        XCTAssertTrue(received.contains(".preedit_string(\"にほん\", 9, 9)"), "gtk4-widget-factory received no preedit")
        XCTAssertTrue(received.contains(".commit_string(\"日本\")"), "gtk4-widget-factory received no commit")
    }

    /// fcitx5 (Debian's, `waylandim` frontend) as the parent's input method, as on a desktop:
    /// activated for Lodestone's window while gtk4-widget-factory's entry inside has the
    /// focus, it grabs the parent's keyboard; its Unicode input (Ctrl+Alt+Shift+U, "2713",
    /// Return, as in Fcitx5Tests) commits a character that reaches the entry inside.
    func testFcitx5InTheParentComposesIntoGtk4WidgetFactoryInside() throws {
        try requireProgram("fcitx5")
        try requireProgram("gtk4-widget-factory")
        try requireAccessibilityBus()
        let bus = try PrivateSessionBus()
        defer { bus.stop() }
        try start(parentEnvironment: bus.environment)
        let home = parent.runtimeDirectory + "/fcitx5-home"
        let isolated = bus.environment.merging(["HOME": home, "XDG_CONFIG_HOME": home + "/config", "XDG_DATA_HOME": home + "/data",
                                                "XDG_STATE_HOME": home + "/state", "XDG_CACHE_HOME": home + "/cache", "GSETTINGS_BACKEND": "memory"]) { $1 }
        let fcitx = parent.runtimeDirectory + "/fcitx5.txt"
        try parent.launch(["fcitx5", "--verbose=*=4"], environment: isolated.merging(["WAYLAND_DEBUG": "client"]) { $1 }, output: fcitx)
        XCTAssertTrue(try parent.wait(timeout: 30) { textOfFile(fcitx).contains(".get_input_method(") }, String(textOfFile(fcitx).suffix(3000)))
        let app = nested.runtimeDirectory + "/gtk4-widget-factory.txt"
        try nested.launch(["gtk4-widget-factory"], environment: isolated.merging(["WAYLAND_DEBUG": "client", "GDK_BACKEND": "wayland"]) { $1 }, output: app)
        _ = try nested.waitForWindow(nil, timeout: 60)
        XCTAssertTrue(try parent.wait(timeout: 30) { textOfFile(fcitx).contains(".grab_keyboard(") && textOfFile(fcitx).contains(".activate()") },
                      String(textOfFile(fcitx).suffix(3000)))
        let c = parent.control
        for key: UInt32 in [29, 56, 42, 22] { _ = try c.key(key, pressed: true) }
        for key: UInt32 in [22, 42, 56, 29] { _ = try c.key(key, pressed: false) }
        for key: UInt32 in [3, 8, 2, 4] { try c.tap(key) }
        XCTAssertTrue(try parent.wait(timeout: 10) { textOfFile(fcitx).contains("zwp_input_method_keyboard_grab_v2@") && textOfFile(fcitx).contains(", 4, 0)") },
                      "fcitx5's grab did not hear the digits")
        try c.tap(28)
        func committed(_ trace: String, _ marker: String) -> String? {
            guard let range = trace.range(of: marker, options: .backwards) else { return nil }
            return trace[range.upperBound...].split(separator: "\"", maxSplits: 1).first.map(String.init)
        }
        XCTAssertTrue(try nested.wait(timeout: 10) { textOfFile(app).contains(".commit_string(\"") },
                      "fcitx5:\n\(textOfFile(fcitx).split(separator: "\n").filter { $0.contains("input_method") }.suffix(40).joined(separator: "\n"))")
        let character = committed(textOfFile(app), ".commit_string(\"")
        XCTAssertEqual(character?.count, 1, "\(character ?? "nothing")")
        if let character {
            XCTAssertEqual(committed(textOfFile(fcitx), ".commit_string(\""), character)
            XCTAssertTrue(try nested.wait { textOfFile(app).contains(".set_surrounding_text(\"\(character)comboboxentry\"") }, "the entry does not hold \(character)")
        }
    }

    /// sway 1.7 (wlroots, headless) as the parent, the pywayland input method in it: a parent
    /// that is not Lodestone, with wlroots' serial rules. The field inside gets the preedit and
    /// the commit. (sway 1.7 shows no input-method popups.)
    func testSwayAsTheParent() throws {
        for program in ["sway", "setpriv"] { try requireProgram(program) }
        let sway = try Sway()
        defer { sway.stop() }
        let home = NSTemporaryDirectory() + "lodestone-ime-in-sway-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(atPath: home) }
        let ime = home + "/sway-ime.txt"
        let imeProcess = Process()
        imeProcess.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        imeProcess.arguments = ["python3", client, "ime", "にほん", "日本", "--stay"]
        imeProcess.environment = ProcessInfo.processInfo.environment.merging(["WAYLAND_DISPLAY": sway.socketPath, "XDG_RUNTIME_DIR": home]) { $1 }
        try createEmptyFile(atPath: ime)
        let out = FileHandle(forWritingAtPath: ime)
        imeProcess.standardOutput = out
        imeProcess.standardError = out
        try imeProcess.run()
        // Stopped and reaped: a Process left running at the test's end is still registered
        // for its termination at exit (LeakSanitizer, `make asan`).
        defer { stopProcess(imeProcess) }
        nested = try Session(size: "400x300", nestedIn: Session.Parent(runtimeDirectory: home, socket: sway.socketPath))
        XCTAssertTrue(try nested.wait(timeout: 20) { textOfFile(ime).contains("ready") }, textOfFile(ime))
        let field = try startTextField()
        XCTAssertTrue(try nested.wait { textOfFile(field).contains("commit 日本") },
                      "field:\n\(textOfFile(field))\nsway's ime:\n\(textOfFile(ime))\nnested log:\n\(nested.log.suffix(3000))")
        XCTAssertTrue(textOfFile(field).contains("preedit にほん 9 9\n"), textOfFile(field))
        XCTAssertTrue(textOfFile(ime).contains("surrounding 'abc' 3 3\n"), textOfFile(ime))
    }
}
