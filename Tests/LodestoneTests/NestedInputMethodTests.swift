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
        parent = try Session(size: "800x600")
        nested = try Session(nestedIn: parent, size: "400x300")
        _ = try parent.waitForWindow("Lodestone")
        // The parent's text-input focus is the keyboard's.
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

    private func startTextField() throws -> String {
        let output = nested.runtimeDirectory + "/field.txt"
        try nested.launch(["python3", client, "text-field"], output: output)
        return output
    }

    private let magenta: UInt32 = 0xFF00FF

    /// The field inside describes itself; the parent's input method hears it (its caret in the
    /// parent's coordinates) and its preedit and commit reach the field, each ended by the
    /// field's own `done`; its popup shows in the parent at the field's caret.
    func testParentInputMethodComposesIntoAnAppInside() throws {
        let (_, ime) = try startInputMethod(in: parent, "parent-ime", "にほん", "日本", ["--popup", "40", "20"])
        let field = try startTextField()
        XCTAssertTrue(try nested.wait { textOfFile(field).contains("commit 日本") },
                      "field:\n\(textOfFile(field))\nparent's ime:\n\(textOfFile(ime))\nnested log:\n\(nested.log.suffix(3000))")
        let fieldLines = textOfFile(field).split(separator: "\n").map(String.init).filter { !$0.hasPrefix("wl-key") }
        XCTAssertEqual(fieldLines, ["enter", "mapped", "preedit にほん 9 9", "done 1 commits 1", "commit 日本", "done 1 commits 1"])
        let imeText = textOfFile(ime)
        // 20,30 2×16 in the field; the popup (40×20) just below it, so the caret is 16 above.
        for line in ["activate", "surrounding 'abc' 3 3", "change-cause 0", "content-type 1 0", "rectangle 0 -16 2 16"] {
            XCTAssertTrue(imeText.contains(line + "\n"), "no '\(line)':\n\(imeText)")
        }
        let window = try parent.waitForWindow("Lodestone")
        let app = try nested.waitForWindow("text-field")
        let (px, py) = (Int(window.x + app.x) + 20, Int(window.y + app.y) + 30 + 16)
        XCTAssertTrue(try parent.wait {
            try parent.screenshot("parent-popup").countDiffering(from: magenta, x: px, y: py, width: 40, height: 20).differing == 0
        }, "no popup in the parent at \(px),\(py): Lodestone's window \(window), the field \(app)")
        XCTAssertFalse(parent.log.contains("protocol error") || nested.log.contains("protocol error"), parent.log + nested.log)
    }

    /// An input method inside the nested Lodestone serves the field; the parent's is not
    /// activated while it runs. When it exits, the parent's takes over.
    func testLocalInputMethodTakesPrecedence() throws {
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
}
