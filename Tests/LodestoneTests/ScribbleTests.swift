import AdaptivePointerClient
import Foundation
import LodestoneTesting
import XCTest

/// Scribble (issue 40) in headless Lodestone: pen strokes injected over a pywayland text
/// field (Tests/clients/input_method_client.py text-field --tablet, which prints what of the
/// pen and of text input reaches it). A fake recogniser (Tests/clients/fake_scribble_recognizer.py,
/// chosen with LODESTONE_SCRIBBLE_RECOGNIZER) answers, crashes, hangs or talks garbage as its
/// mode file says; the real one (lodestone-scribble-recognizer) reads committed handwriting.
final class ScribbleTests: XCTestCase {
    private var session: Session!
    private var directory: String { session.runtimeDirectory }
    private var modeFile: String { directory + "/fake-mode" }
    private var fakeLog: String { directory + "/fake-log" }

    override func setUpWithError() throws {
        let (status, _) = try run(["python3", "-c", "import pywayland"])
        if status != 0 {
            if ProcessInfo.processInfo.environment["CI"] != nil { XCTFail("pywayland is missing; run make deps") }
            throw XCTSkip("pywayland is missing; run make deps")
        }
    }

    override func tearDown() {
        session?.stop()
        session = nil
    }

    private var client: String { repositoryRoot + "/Tests/clients/input_method_client.py" }

    /// A session whose recogniser is the fake, answering as `mode` says.
    private func startWithFake(_ mode: String) throws {
        let tmp = NSTemporaryDirectory() + "lodestone-scribble-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
        session = try Session(environment: ["LODESTONE_SCRIBBLE_RECOGNIZER": repositoryRoot + "/Tests/clients/fake_scribble_recognizer.py",
                                            "SCRIBBLE_FAKE_MODE": tmp + "/fake-mode", "SCRIBBLE_FAKE_LOG": tmp + "/fake-log",
                                            "LODESTONE_SCRIBBLE_TIMEOUT_MS": "2000"])
        fakeDirectory = tmp
        try setMode(mode)
    }
    private var fakeDirectory = ""
    private func setMode(_ mode: String) throws { try mode.write(toFile: fakeDirectory + "/fake-mode", atomically: true, encoding: .utf8) }
    private var requests: [String] { textOfFile(fakeDirectory + "/fake-log").split(separator: "\n").filter { $0.hasPrefix("request") }.map(String.init) }

    /// The text field (its caret at 20,30, 2×16), with a tablet seat; returns its window's place.
    private func startField(purpose: Int = 0) throws -> (x: Double, y: Double, output: String) {
        let output = directory + "/field-\(purpose).txt"
        _ = try session.launch(["python3", client, "text-field", "--tablet", "--purpose", "\(purpose)"], output: output)
        let window = try session.waitForWindow("text-field")
        XCTAssertTrue(try session.wait { textOfFile(output).contains("enter") }, textOfFile(output))
        return (Double(window.x), Double(window.y), output)
    }

    /// A zigzag, 120 points wide, on the caret's line: handwriting to the fake.
    private var zigzag: [[(x: Double, y: Double, pressure: Double)]] {
        var first: [(x: Double, y: Double, pressure: Double)] = []
        for i in 0..<30 {
            let y: Double = i % 2 == 0 ? 0 : 14
            first.append((Double(i) * 4, y, 0.3 + Double(i % 5) / 10))
        }
        return [first, [(60, -4, 0.5), (62, 20, 0.8)]]
    }

    private func lines(_ output: String) -> [String] { textOfFile(output).split(separator: "\n").map(String.init) }

    /// Dark ink pixels (the overlay's colour, 0x1c2a6b, or darker blends of it over the field).
    private func inkPixels(_ shot: Screenshot, x: Int, y: Int, width: Int, height: Int) -> Int {
        var n = 0
        for py in y..<(y + height) {
            for px in x..<(x + width) {
                let p = shot[px, py], r = Int(p >> 16 & 0xff), g = Int(p >> 8 & 0xff), b = Int(p & 0xff)
                if r < 110, g < 120, b > r + 20 { n += 1 }
            }
        }
        return n
    }

    /// A stroke over the focused field: the app hears nothing of the pen; the field shows the
    /// preedit, then gets the fake's text (with a space after the field's 'abc'), and the ink
    /// fades; a scratch across it deletes it. A tap on the field reaches the app as tablet
    /// events.
    func testStrokeOnTheFieldIsTypedScratchedOutAndTapsReachTheApp() throws {
        try startWithFake("answer hello")
        let field = try startField()
        let (x, y) = (field.x + 30, field.y + 40)

        try session.control.write(zigzag, at: x, y: y)
        XCTAssertTrue(try session.wait { textOfFile(field.output).contains("commit  hello") || textOfFile(field.output).contains("commit hello") },
                      "field:\n\(textOfFile(field.output))\nlog:\n\(session.log.suffix(2000))")
        let heard = lines(field.output)
        XCTAssertFalse(heard.contains { $0.hasPrefix("tablet-down") || $0.hasPrefix("tablet-up") }, "the stroke reached the app: \(heard)")
        XCTAssertTrue(heard.contains("preedit … 3 3"), "no preedit while recognising: \(heard)")
        XCTAssertTrue(heard.contains("commit  hello"), "a space after 'abc': \(heard)")
        XCTAssertEqual(requests.count, 1, textOfFile(fakeDirectory + "/fake-log"))
        XCTAssertTrue(requests.first?.hasPrefix("request 1 2 en") ?? false, "two strokes, English: \(requests)")
        // The ink has faded.
        XCTAssertTrue(try session.wait { inkPixels(try session.screenshot("faded"), x: Int(x) - 8, y: Int(y) - 10, width: 140, height: 40) == 0 })

        // A scratch across the word: it is deleted (its 6 bytes before the caret); the
        // recogniser is not asked.
        var across: [(x: Double, y: Double, pressure: Double)] = []
        for i in 0..<12 { across.append((Double(i % 2) * 90 + 10, 4 + Double(i), 0.6)) }
        let scratch = [across]
        try session.control.write(scratch, at: x, y: y)
        XCTAssertTrue(try session.wait { lines(field.output).contains("delete 6 0") }, "no deletion: \(lines(field.output))")
        XCTAssertEqual(requests.count, 1, "the scratch went to the recogniser")
        XCTAssertTrue(try session.wait { inkPixels(try session.screenshot("scratched"), x: Int(x) - 8, y: Int(y) - 10, width: 140, height: 40) == 0 })

        // A tap: down and up reach the app; nothing is recognised.
        let before = lines(field.output).count
        try session.control.tabletTool(.proximityIn, x: x + 10, y: y + 5, distance: 0.1)
        try session.control.tabletTool(.tipDown, x: x + 10, y: y + 5, pressure: 0.5)
        try session.control.tabletTool(.tipUp, x: x + 10, y: y + 5)
        XCTAssertTrue(try session.wait { lines(field.output).dropFirst(before).contains("tablet-up") }, "\(lines(field.output).dropFirst(before))")
        XCTAssertEqual(Array(lines(field.output).dropFirst(before).filter { $0.hasPrefix("tablet-down") || $0.hasPrefix("tablet-up") }), ["tablet-down", "tablet-up"])
        try session.control.tabletTool(.proximityOut)
        XCTAssertEqual(requests.count, 1)
    }

    /// The same stroke over a password field (content purpose 8): plain tablet events, no
    /// preedit, nothing sent to the recogniser.
    func testPasswordFieldGetsTheStrokeAsTabletEvents() throws {
        try startWithFake("answer hello")
        let field = try startField(purpose: 8)
        try session.control.write(zigzag, at: field.x + 30, y: field.y + 40)
        XCTAssertTrue(try session.wait { lines(field.output).filter { $0 == "tablet-up" }.count == 2 }, textOfFile(field.output))
        let heard = lines(field.output)
        XCTAssertEqual(heard.filter { $0 == "tablet-down" }.count, 2)
        XCTAssertGreaterThan(heard.filter { $0.hasPrefix("tablet-motion") }.count, 25, "the stroke's motion")
        XCTAssertFalse(heard.contains { $0.hasPrefix("preedit") || $0.hasPrefix("commit") }, "\(heard)")
        XCTAssertEqual(requests, [])
    }

    /// A recogniser that crashes, answers garbage or control characters, or hangs: nothing is
    /// typed, the preedit goes, the ink is withdrawn, the session and the field go on; the
    /// next writing starts a fresh recogniser, which types.
    func testFailingRecognisersTypeNothingAndWithdrawTheInk() throws {
        try startWithFake("crash")
        let field = try startField()
        let (x, y) = (field.x + 30, field.y + 40)
        let area = (x: Int(x) - 8, y: Int(y) - 10, width: 140, height: 40)
        var seen = 0
        for (mode, failure) in [("crash", "it exited"), ("garbage", "not UTF-8"), ("control", "control characters"), ("hang", "it hangs")] {
            try setMode(mode)
            try session.control.write(zigzag, at: x, y: y)
            if mode == "hang" {
                // While it reads (hangs), the ink is there, drawn over the field.
                XCTAssertTrue(try session.wait { requests.count == seen + 1 })
                let shot = try session.screenshot("ink")
                XCTAssertGreaterThan(inkPixels(shot, x: area.x, y: area.y, width: area.width, height: area.height), 150, "no ink over the field")
            }
            XCTAssertTrue(try session.wait(timeout: 15) { session.log.contains(failure) }, "\(mode): \(session.log.suffix(1500))")
            seen = requests.count
            XCTAssertTrue(try session.wait { inkPixels(try session.screenshot(mode), x: area.x, y: area.y, width: area.width, height: area.height) == 0 },
                          "\(mode): the ink stays")
            XCTAssertTrue(session.compositorIsRunning)
            XCTAssertFalse(lines(field.output).contains { $0.hasPrefix("commit") || $0 == "disconnected" }, "\(mode): \(lines(field.output))")
            XCTAssertEqual(lines(field.output).last.map { $0.hasPrefix("done") }, true, "\(mode): the preedit is cleared by a done without one")
        }
        try setMode("answer fine")
        try session.control.write(zigzag, at: x, y: y)
        XCTAssertTrue(try session.wait(timeout: 15) { textOfFile(field.output).contains("commit  fine") }, textOfFile(field.output))
        XCTAssertEqual(textOfFile(fakeDirectory + "/fake-log").split(separator: "\n").filter { $0.hasPrefix("started") }.count, 5, "a fresh recogniser after each failure")
    }

    /// The real recogniser (lodestone-scribble-recognizer): a word traced from a handwriting
    /// font is read by Tesseract and typed; with `languages = ["ja"]` a KanjiVG character is
    /// read by Zinnia.
    func testRealRecogniserTypesAWordAndAKanji() throws {
        let samples = try ScribbleSample.load(repositoryRoot + "/Tests/data/scribble/strokes.txt")
        let water = try XCTUnwrap(samples.first { $0.text == "water" }), hon = try XCTUnwrap(samples.first { $0.text == "本" })
        let config = NSTemporaryDirectory() + "lodestone-scribble-config-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: config + "/lodestone", withIntermediateDirectories: true)
        try "[scribble]\nlanguages = [\"en\"]\n".write(toFile: config + "/lodestone/config.toml", atomically: true, encoding: .utf8)
        session = try Session(environment: ["XDG_CONFIG_HOME": config])
        let field = try startField()
        try session.control.write(water.strokes, at: field.x + 30, y: field.y + 25)
        XCTAssertTrue(try session.wait(timeout: 30) { textOfFile(field.output).contains("commit  water") },
                      "field:\n\(textOfFile(field.output))\nlog:\n\(session.log.suffix(1500))")

        try "[scribble]\nlanguages = [\"ja\"]\n".write(toFile: config + "/lodestone/config.toml", atomically: false, encoding: .utf8)
        XCTAssertTrue(try session.wait { session.log.contains("config.toml reloaded") }, session.log.suffix(1000).description)
        try session.control.write(hon.strokes, at: field.x + 60, y: field.y + 20)
        XCTAssertTrue(try session.wait(timeout: 30) { textOfFile(field.output).contains("commit 本") },
                      "field:\n\(textOfFile(field.output))\nlog:\n\(session.log.suffix(1500))")
    }

    /// A writing area (adaptive_pointer_region_v1 version 4): a stroke in it reaches the app
    /// as `written` with the fake's text and where the ink was (no text input is involved).
    func testWritingAreaGetsTheTextAndWhereItWasWritten() throws {
        try startWithFake("answer milk")
        let client = try RegionClient(session: session, title: "list")
        try session.control.moveWindow("list", x: 100, y: 100)
        var area = RegionDescription(frame: (0, 200, 400, 100), effect: .highlight, identifier: 9)
        area.writingArea = true
        _ = try client.declare(area)
        try client.sync()
        try session.control.write(zigzag, at: 100 + 40, y: 100 + 230)
        XCTAssertTrue(try session.wait {
            try client.sync()
            return !client.written.isEmpty
        }, session.log.suffix(1500).description)
        let w = try XCTUnwrap(client.written.first)
        XCTAssertEqual(w.identifier, 9)
        XCTAssertEqual(w.text, "milk")
        // The zigzag spans 0…116 × -4…20 from (40, 230), plus the ink's 8-point margin.
        XCTAssertEqual(w.x, 40 - 8, accuracy: 2)
        XCTAssertEqual(w.y, 230 - 4 - 8, accuracy: 2)
        XCTAssertEqual(w.width, 116 + 16, accuracy: 3)
        XCTAssertEqual(requests.count, 1)
        XCTAssertNil(client.connection.protocolError)
    }
}
