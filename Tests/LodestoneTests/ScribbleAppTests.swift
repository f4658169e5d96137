import Foundation
import LodestoneTesting
import XCTest

/// Scribble (issue 40) with real apps in headless Lodestone and the real recogniser: a word
/// traced from a handwriting font (Tests/data/scribble/strokes.txt) written with the injected
/// pen over an app's text field ends in that field, read back through AT-SPI
/// (Tests/clients/atspi_text.py). The app's fields are found through AT-SPI too.
final class ScribbleAppTests: XCTestCase {
    private var bus: PrivateSessionBus!
    private var session: Session!
    static let gtkEnvironment = ["GDK_BACKEND": "wayland", "GSK_RENDERER": "cairo", "GSETTINGS_BACKEND": "memory"]

    override func setUpWithError() throws {
        try requireAccessibilityBus()
        let (status, _) = try run(["/usr/bin/python3", "-c", "import gi; gi.require_version('Atspi', '2.0')"])
        if status != 0 {
            if ProcessInfo.processInfo.environment["CI"] != nil { XCTFail("gir1.2-atspi-2.0 is missing; run make test-deps") }
            throw XCTSkip("gir1.2-atspi-2.0 is missing; run make test-deps")
        }
        bus = try PrivateSessionBus()
        session = try Session(environment: bus.environment)
    }

    override func tearDown() {
        session?.stop()
        session = nil
        bus?.stop()
        bus = nil
    }

    private func sample(_ word: String) throws -> ScribbleSample {
        let samples = try ScribbleSample.load(repositoryRoot + "/Tests/data/scribble/strokes.txt")
        return try XCTUnwrap(samples.first { $0.text == word })
    }

    /// A text field as AT-SPI reports it.
    struct Field: Decodable {
        var role: String, name: String, states: [String], text: String
        var selection: [Int]?, chars: [[Int]]?
        var extents: [Int], frame: [Int], frameName: String
        var focused: Bool { states.contains("focused") }
    }

    private func fields(_ pid: Int32) throws -> [Field] {
        let (status, output) = try run(["/usr/bin/python3", repositoryRoot + "/Tests/clients/atspi_text.py", "\(pid)"], environment: bus.environment)
        guard status == 0, let data = output.split(separator: "\n").last.map({ Data($0.utf8) }) else { return [] }
        return (try? JSONDecoder().decode([Field].self, from: data)) ?? []
    }

    /// Waits for a field `matching`, and gives its place on the screen: the window's place plus
    /// the field's extents in its window (GTK 4 reports them relative to the window's geometry).
    private func waitForField(_ pid: Int32, window: TestControl.WindowState, timeout: TimeInterval = 60,
                              matching: (Field) -> Bool) throws -> (field: Field, x: Double, y: Double) {
        var found: Field?
        _ = try session.wait(timeout: timeout) {
            found = try fields(pid).first(where: matching)
            return found != nil
        }
        let all = try fields(pid).map { "\($0.role) '\($0.text)' \($0.states) \($0.extents)" }
        let field = try XCTUnwrap(found, "no such field in \(all)")
        return (field, Double(window.x + Int32(field.extents[0] - field.frame[0])), Double(window.y + Int32(field.extents[1] - field.frame[1])))
    }

    /// Moves the pointer over (x, y) until Lodestone has read the window's fields there (the
    /// beam): Lodestone reads a window's AT-SPI tree when the pointer comes over it.
    private func hover(_ x: Double, _ y: Double) throws {
        let probe = try PointerShapeProbe(session: session)
        _ = try session.wait(timeout: 30) {
            try session.control.movePointer(x: x + Double.random(in: -0.4...0.4), y: y)
            let s = try probe.shape()
            return s.kind == .verticalBeam && s.targeted
        }
    }

    /// The pen's tip went down in the app's own events (WAYLAND_DEBUG=client), after `line`.
    private func tabletDowns(_ trace: String, after line: Int = 0) -> Int {
        textOfFile(trace).split(separator: "\n").dropFirst(line).filter { $0.contains("zwp_tablet_tool_v2") && $0.contains(".down(") }.count
    }

    /// gtk4-widget-factory: its "entry" field (not focused at start: the first stroke clicks it)
    /// gets "water"; its password entry, written over the same way, gets nothing, and the app
    /// gets the pen as tablet events (its WAYLAND_DEBUG trace).
    func testGtk4WidgetFactoryEntryAndPasswordEntry() throws {
        try requireProgram("gtk4-widget-factory")
        let trace = session.runtimeDirectory + "/factory.txt"
        let environment = Self.gtkEnvironment.merging(bus.environment) { $1 }.merging(["WAYLAND_DEBUG": "client"]) { $1 }
        let app = try session.launch(["gtk4-widget-factory"], environment: environment, output: trace)
        let pid = app.processIdentifier
        let window = try session.waitForWindow("org.gtk.WidgetFactory4", timeout: 40)
        let entry = try waitForField(pid, window: window) { $0.role == "text" && $0.text == "entry" && $0.states.contains("sensitive") }
        let cy = entry.y + Double(entry.field.extents[3]) / 2
        try hover(entry.x + 100, cy)
        let water = try sample("water")
        try session.control.write(water.strokes, at: entry.x + 12, y: cy - 20)
        let typed = try session.wait(timeout: 40) { try fields(pid).contains { $0.text.contains("water") } }
        let now = try fields(pid).prefix(6).map { "\($0.role) '\($0.text)' \($0.states) \($0.extents)" }
        XCTAssertTrue(typed, "fields: \(now)\nlog: \(session.log.suffix(2000))")
        let written = try fields(pid).filter { $0.text.contains("water") }
        XCTAssertEqual(written.map(\.extents), [entry.field.extents], "only the entry written on: \(now)")
        XCTAssertEqual(tabletDowns(trace), 0, "the pen's strokes reached the app")

        // The password entry: the same strokes reach the app as tablet events; nothing is typed.
        let password = try waitForField(pid, window: window) { $0.role == "password text" && $0.states.contains("sensitive") }
        let py = password.y + Double(password.field.extents[3]) / 2
        try hover(password.x + 100, py)
        let lines = textOfFile(trace).split(separator: "\n").count
        try session.control.write(water.strokes, at: password.x + 12, y: py - 20)
        XCTAssertTrue(try session.wait(timeout: 20) { tabletDowns(trace, after: lines) == water.strokes.count },
                      "\(tabletDowns(trace, after: lines)) tip downs for \(water.strokes.count) strokes")
        // Every stroke's tip down reached the app: Scribble held none (a held stroke never
        // reaches it), so nothing was inked or sent to the recogniser.
        let texts = try fields(pid).prefix(6).map(\.text)
        XCTAssertEqual(try fields(pid).filter { $0.text.contains("water") }.count, 1, "typed again: \(texts)")
        XCTAssertEqual(session.log.components(separatedBy: "scribble: recognised").count, 2, session.log.suffix(2000).description)
    }

    /// Writes `word` over the field `field` (found in app `pid`'s window `window`) and waits
    /// until AT-SPI reports it in a field of the app; returns that field's text.
    @discardableResult
    private func write(_ word: String, pid: Int32, window: TestControl.WindowState, hoverFirst: Bool = true,
                       matching: (Field) -> Bool) throws -> String {
        let target = try waitForField(pid, window: window, matching: matching)
        let (x, cy) = (target.x + 12, target.y + min(Double(target.field.extents[3]) / 2, 24))
        if hoverFirst { try hover(target.x + 60, cy) }
        try session.control.write(try sample(word).strokes, at: x, y: cy - 20)
        var text = ""
        let typed = try session.wait(timeout: 40) {
            text = try fields(pid).first { $0.text.contains(word) }?.text ?? ""
            return !text.isEmpty
        }
        let now = try fields(pid).prefix(8).map { "\($0.role) '\($0.text.prefix(60))' \($0.states) \($0.extents) \($0.frame)" }
        let said = session.log.split(separator: "\n").filter { $0.contains("scribble") }.joined(separator: "\n")
        XCTAssertTrue(typed, "no '\(word)' in \(now)\nScribble's log:\n\(said)")
        return text
    }

    /// Draws a line through the field's text, from its first character to its last (their
    /// extents from AT-SPI), or a loop around it (`circle`), and waits for the app to report
    /// `expecting` as its selection.
    private func selectByLine(_ pid: Int32, window: TestControl.WindowState, matching: (Field) -> Bool, expecting: [Int],
                              circle: Bool = false) throws {
        let field = try waitForField(pid, window: window, matching: matching)
        let chars = try XCTUnwrap(field.field.chars, "no character extents")
        let (ox, oy) = (Double(window.x - Int32(field.field.frame[0])), Double(window.y - Int32(field.field.frame[1])))
        let y = oy + Double(chars[0][1]) + Double(chars[0][3]) / 2
        let (x0, x1) = (ox + Double(chars[0][0]) + 1, ox + Double(chars[1][0] + chars[1][2]) - 1)
        var line: [(x: Double, y: Double, pressure: Double)] = []
        if circle {
            // Around the word, a little outside its first and last characters and its line.
            let (cx, rx, ry) = ((x0 + x1) / 2, (x1 - x0) / 2 + 8, Double(chars[0][3]) / 2 + 6)
            for i in 0...40 {
                let t = Double(i) / 40 * 2 * Double.pi
                line.append((cx - rx * cos(t), -ry * sin(t), 0.5))
            }
        } else {
            for i in 0...20 { line.append((x0 + (x1 - x0) * Double(i) / 20, 0, 0.5)) }
        }
        // Lodestone reads the field's new text again when the pointer comes over it (the walk
        // that knew the field may have been dropped when its text changed).
        try hover((x0 + x1) / 2, y)
        try session.control.write([line], at: 0, y: y)
        var selection: [Int]?
        let selected = try session.wait(timeout: 20) {
            selection = try fields(pid).first(where: matching)?.selection
            return selection == expecting
        }
        let said = session.log.split(separator: "\n").filter { $0.contains("] scribble:") || $0.contains("to select") }.suffix(6).joined(separator: "\n")
        XCTAssertTrue(selected, "selection \(String(describing: selection)), chars \(chars), line \(x0)…\(x1) at \(y)\n\(said)")
    }

    /// gnome-text-editor's new document (its text view has the focus at start) gets "water";
    /// a scratch across the word deletes it.
    func testGnomeTextEditor() throws {
        try requireProgram("gnome-text-editor")
        let home = session.runtimeDirectory + "/editor-home"
        let environment = Self.gtkEnvironment.merging(bus.environment) { $1 }.merging(
            ["XDG_DATA_HOME": home + "/data", "XDG_CONFIG_HOME": home + "/config", "XDG_STATE_HOME": home + "/state"]) { $1 }
        let app = try session.launch(["gnome-text-editor", "--standalone", "--ignore-session"], environment: environment,
                                     output: session.runtimeDirectory + "/editor.txt")
        let window = try session.waitForWindow("org.gnome.TextEditor", timeout: 40)
        let matching: (Field) -> Bool = { $0.role == "text" && $0.states.contains("editable") && $0.focused }
        let text = try write("water", pid: app.processIdentifier, window: window, matching: matching)
        XCTAssertEqual(text, "water")

        // Scratched out: the word goes (delete_surrounding_text).
        let view = try waitForField(app.processIdentifier, window: window, matching: matching)
        var across: [(x: Double, y: Double, pressure: Double)] = []
        for i in 0..<10 { across.append((i % 2 == 0 ? 0 : 80, Double(i) * 2, 0.6)) }
        try session.control.write([across], at: view.x + 12, y: view.y + 24 - 10)
        let deleted = try session.wait(timeout: 20) { try fields(app.processIdentifier).first(where: matching)?.text == "" }
        let left = try fields(app.processIdentifier).first(where: matching)?.text ?? "no field"
        XCTAssertTrue(deleted, "left: '\(left)'; \(session.log.split(separator: "\n").filter { $0.contains("scribble") }.suffix(4))")
    }

    /// Qt 6 Linguist's find field (its Find dialog, Ctrl+F; text-input v1) gets "water"; a line
    /// through the word selects it.
    func testQt6LinguistFindField() throws {
        let environment = bus.environment.merging(["QT_QPA_PLATFORM": "wayland", "QT_LINUX_ACCESSIBILITY_ALWAYS_ON": "1",
                                                   "XDG_CONFIG_HOME": session.runtimeDirectory + "/linguist-config"]) { $1 }
        let (app, dialog) = try openQt6LinguistFindDialog(in: session, environment: environment, output: session.runtimeDirectory + "/linguist.txt")
        let findField: (Field) -> Bool = { $0.role == "text" && $0.frameName == "Find" }
        try write("water", pid: app.processIdentifier, window: dialog, matching: findField)

        // A loop around the word selects it, and so does a line through it (AT-SPI's
        // Text.SetSelection: text input cannot); End collapses the loop's selection first.
        try selectByLine(app.processIdentifier, window: dialog, matching: findField, expecting: [0, 5], circle: true)
        try session.control.tap(107)  // End
        XCTAssertTrue(try session.wait { try self.fields(app.processIdentifier).first(where: findField)?.selection != [0, 5] }, "End kept the selection")
        try selectByLine(app.processIdentifier, window: dialog, matching: findField, expecting: [0, 5])
        XCTAssertEqual(try fields(app.processIdentifier).first(where: findField)?.text, "water", "nothing typed")
    }

    /// Firefox: a page's text field (autofocused) gets "water"; the same strokes over its
    /// password field type nothing and reach the page as tablet events.
    func testFirefoxPageTextField() throws {
        try requireProgram("firefox-esr")
        let profile = session.runtimeDirectory + "/firefox-profile"
        try FileManager.default.createDirectory(atPath: profile, withIntermediateDirectories: true)
        let prefs = [
            "browser.shell.checkDefaultBrowser": "false", "browser.startup.homepage_override.mstone": "\"ignore\"",
            "browser.aboutwelcome.enabled": "false", "datareporting.policy.dataSubmissionEnabled": "false",
            "toolkit.telemetry.reportingpolicy.firstRun": "false", "trailhead.firstrun.didSeeAboutWelcome": "true",
            "browser.sessionstore.resume_from_crash": "false", "app.normandy.enabled": "false", "browser.startup.page": "0",
        ]
        try prefs.map { "user_pref(\"\($0.key)\", \($0.value));" }.joined(separator: "\n").write(toFile: profile + "/user.js", atomically: false, encoding: .utf8)
        let trace = session.runtimeDirectory + "/firefox.txt"
        let app = try session.launch(["firefox-esr", "-no-remote", "-profile", profile, "file://" + repositoryRoot + "/Tests/Fixtures/scribble-page.html"],
                                     environment: bus.environment.merging(["MOZ_ENABLE_WAYLAND": "1", "WAYLAND_DEBUG": "client"]) { $1 }, output: trace)
        let window = try session.waitForWindow(nil, timeout: 120) { $0.title.hasPrefix("Lodestone scribble") }
        let entry: (Field) -> Bool = { $0.role == "entry" && $0.states.contains("focused") }
        let text = try write("water", pid: app.processIdentifier, window: window, matching: entry)
        XCTAssertEqual(text, "water")
        // A line through it is not checked here: Firefox reported the selection in only 4 of 7
        // runs (docs/scribble.md); Qt 6 Linguist's find field checks the line.

        let password = try waitForField(app.processIdentifier, window: window) { $0.role == "password text" }
        let py = password.y + Double(password.field.extents[3]) / 2
        let lines = textOfFile(trace).split(separator: "\n").count
        let strokes = try sample("water").strokes
        try session.control.write(strokes, at: password.x + 12, y: py - 20)
        XCTAssertTrue(try session.wait(timeout: 20) { tabletDowns(trace, after: lines) == strokes.count },
                      "\(tabletDowns(trace, after: lines)) tip downs for \(strokes.count) strokes")
        // Every stroke's tip down reached the app: Scribble held none (a held stroke never
        // reaches it), so nothing was inked or sent to the recogniser.
        XCTAssertEqual(session.log.components(separatedBy: "scribble: recognised").count, 2, session.log.suffix(2000).description)
    }
}
