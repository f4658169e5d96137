import Foundation
import LodestoneTesting
import XCTest

/// Apps that declare no regions but publish their widgets through AT-SPI: Lodestone reads
/// their geometry from the accessibility bus (docs/accessibility.md).
final class AccessibleAppTests: XCTestCase {
    static let gtkEnvironment = ["GDK_BACKEND": "wayland", "GSK_RENDERER": "cairo"]

    /// With LODESTONE_DOCS_DIR set, writes the 360×160 around the pointer at (x, y) there as
    /// `name`.png: docs/accessibility.md's pictures of the pointer over real apps.
    private func picture(_ f: AdaptiveFixture, _ name: String, _ x: Double, _ y: Double) throws {
        guard let directory = ProcessInfo.processInfo.environment["LODESTONE_DOCS_DIR"] else { return }
        try f.screenshot().writePNG(to: directory + "/\(name).png", centredOn: Int(x), Int(y), width: 360, height: 160)
    }

    /// Moves to the middle of the platter until it is still: there parallax moves it no more.
    private func centred(_ f: AdaptiveFixture, _ shape: PointerShape) throws -> PointerShape {
        var s = shape
        for _ in 0..<3 { s = try f.move(to: s.midX, s.midY) }
        return s
    }

    /// Where an element's drawn edge is: the column (or row) within `search` px of
    /// `expected` where brightness changes most along a line through the element.
    static func edge(_ shot: Screenshot, vertical: Bool, at line: Int, expected: Int, search: Int = 5) -> Int {
        func b(_ i: Int) -> Int { brightness(vertical ? shot[line, i] : shot[i, line]) }
        return (expected - search...expected + search).max { abs(b($0) - b($0 - 1)) < abs(b($1) - b($1 - 1)) }!
    }

    /// The rows of an area holding dark (text) pixels: the first and the last.
    static func inkRows(_ shot: Screenshot, x: Int, y: Int, width: Int, height: Int) -> ClosedRange<Int>? {
        let rows = (y..<y + height).filter { row in (x..<x + width).contains { brightness(shot[$0, row]) < 300 } }
        guard let first = rows.first, let last = rows.last else { return nil }
        return first...last
    }

    func testGtk4WidgetFactoryButtonEntryAndCheckBox() throws {
        try requireProgram("gtk4-widget-factory")
        try requireAccessibilityBus()
        let bus = try PrivateSessionBus()
        defer { bus.stop() }
        let f = try AdaptiveFixture(size: "1600x1000", environment: bus.environment)
        let app = try f.session.launch(["gtk4-widget-factory"], environment: Self.gtkEnvironment.merging(bus.environment) { $1 })
        let window = try f.session.waitForWindow("org.gtk.WidgetFactory4", timeout: 40)
        let (wx, wy) = (Double(window.x), Double(window.y))
        // The pixels with no pointer over the window (GTK draws hovered buttons differently).
        try f.move(to: 800, 990)
        _ = try f.session.wait(timeout: 5) { try f.screenshot().distinctColors(x: 0, y: Int(wy), width: 600, height: 500) > 50 }
        let shot = try f.screenshot()
        try? FileManager.default.copyItem(atPath: f.session.runtimeDirectory + "/\(f.session.socket)-capture.png", toPath: "/tmp/gtk-factory.png")

        // The first page's first toggle button ("togglebutton", 93×24 at 509,62 in the window).
        let button = try centred(f, try f.targeted(wx + 555, wy + 74))
        XCTAssertEqual(button.effect, .highlight, "over a button: \(button)\n\(f.session.log)")
        XCTAssertEqual(button.kind, .roundedRect)
        // The platter is the button grown by platter-growth (4: 2 each side); its edges are the button's drawn edges.
        let (left, right, top, bottom) = (Int((button.x + 2).rounded()), Int((button.x + button.width - 2).rounded()),
                                          Int((button.y + 2).rounded()), Int((button.y + button.height - 2).rounded()))
        let midY = Int(button.midY.rounded()), insideX = left + 4
        XCTAssertEqual(Self.edge(shot, vertical: false, at: midY, expected: left), left, accuracy: 2, "the button's left edge")
        XCTAssertEqual(Self.edge(shot, vertical: false, at: midY, expected: right), right, accuracy: 2, "the button's right edge")
        XCTAssertEqual(Self.edge(shot, vertical: true, at: insideX, expected: top), top, accuracy: 2, "the button's top edge")
        XCTAssertEqual(Self.edge(shot, vertical: true, at: insideX, expected: bottom), bottom, accuracy: 2, "the button's bottom edge")

        // An entry with the text "entry" (419×32 at 19,234): the beam, as tall as its line of text.
        let entry = try f.targeted(wx + 119, wy + 250) { $0.kind == .verticalBeam && $0.targeted }
        XCTAssertEqual(entry.kind, .verticalBeam, "over an entry: \(entry)")
        XCTAssertTrue(entry.targeted)
        let ink = try XCTUnwrap(Self.inkRows(shot, x: Int(wx) + 22, y: Int(wy) + 238, width: 200, height: 24), "the entry's text")
        print("entry ink rows", ink, "beam", entry)
        XCTAssertGreaterThanOrEqual(entry.height, Double(ink.count), "the beam covers the text's glyphs")
        XCTAssertLessThanOrEqual(entry.height, Double(ink.count) * 2, "the beam is about a line tall")
        XCTAssertEqual(entry.midY, Double(ink.lowerBound + ink.upperBound) / 2, accuracy: 5, "the beam rests on the line")

        // The app is still there. Until a shown wl_shm buffer stopped holding its pool, GTK 4's
        // second cursor image (the entry's beam) got it disconnected (wl_shm_pool error 1) in
        // half the runs under `make asan`, and the check box, in no window, was never targeted.
        guard app.isRunning else { return XCTFail("gtk4-widget-factory is gone:\n\(f.session.log.suffix(3000))") }
        // The first check box (99×18 at 14,413): targeted, the platter around it.
        let check = try f.targeted(wx + 63, wy + 422)
        XCTAssertTrue(check.targeted, "over a check box: \(check)\n\(f.session.log.suffix(3000))")
        XCTAssertEqual(check.effect, .highlight)
        XCTAssertEqual(check.x + 2, wx + 14, accuracy: 2)
        XCTAssertEqual(check.y + 2, wy + 413, accuracy: 2)
        XCTAssertEqual(check.width - 4, 99, accuracy: 2)
        XCTAssertFalse(f.session.log.contains(" error"), f.session.log)

        // docs/accessibility.md's pictures, after the checks: a capture mid-test kept the check box from
        // being targeted in time.
        guard ProcessInfo.processInfo.environment["LODESTONE_DOCS_DIR"] != nil else { return }
        let again = try centred(f, try f.targeted(wx + 555, wy + 74))
        try picture(f, "a11y-gtk4-button", again.midX, again.midY)
        _ = try f.targeted(wx + 119, wy + 250) { $0.kind == .verticalBeam && $0.targeted }
        try picture(f, "a11y-gtk4-entry", wx + 119, wy + 250)
    }

    /// No session bus at all: the cursor names still work, and one info line says why.
    func testWithoutAnAccessibilityBusCursorNamesStillWork() throws {
        let f = try AdaptiveFixture(environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/lodestone-test-bus", "AT_SPI_BUS_ADDRESS": ""])
        let client = try RegionClient(session: f.session, title: "plain", background: 0xe0e0e0)
        try f.control.moveWindow("plain", x: 100, y: 100)
        for k in 0..<20 {
            try f.move(to: 200 + Double(k * 10), 200 + Double(k % 3), settle: 50)
            try f.move(to: 50, 50, settle: 50)
        }
        XCTAssertEqual(try f.shapeFromTextCursor(of: client).kind, .verticalBeam, "cursor recognition still works")
        let lines = f.session.log.split(separator: "\n").filter { $0.contains("accessibility:") }
        XCTAssertEqual(lines.count, 1, "one line about accessibility:\n\(f.session.log)")
        XCTAssertTrue(lines.first?.contains(" info ") ?? false, "at info level: \(lines)")
        XCTAssertFalse(f.session.log.contains(" error ") || f.session.log.contains(" warning "), f.session.log)
    }

    static let linguist = "/usr/lib/qt6/bin/linguist"

    /// A translation file with one message, so Linguist's editor and Find dialog are there.
    static func translationFile(in directory: String) throws -> String {
        let path = directory + "/hello.ts"
        try """
        <?xml version="1.0" encoding="utf-8"?>
        <!DOCTYPE TS>
        <TS version="2.1" language="de">
        <context><name>Main</name>
        <message><source>Hello world</source><translation type="unfinished"></translation></message>
        </context>
        </TS>
        """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func testQt6LinguistFindDialogButtonEntryAndCheckBox() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.linguist) else {
            if ProcessInfo.processInfo.environment["CI"] != nil { return XCTFail("\(Self.linguist) is not installed; run make deps") }
            throw XCTSkip("\(Self.linguist) is not installed; run make deps")
        }
        try requireAccessibilityBus()
        let bus = try PrivateSessionBus()
        defer { bus.stop() }
        let f = try AdaptiveFixture(environment: bus.environment)
        let file = try Self.translationFile(in: bus.directory)
        // Qt publishes its widgets only when asked to: Lodestone switched org.a11y.Status.IsEnabled
        // on when it started, and the variable the user would otherwise set is not set.
        try f.session.launch(["-u", "QT_LINUX_ACCESSIBILITY_ALWAYS_ON", Self.linguist, file],
                             environment: ["QT_QPA_PLATFORM": "wayland"].merging(bus.environment) { $1 })
        let main = try f.session.waitForWindow(nil, timeout: 40) { $0.title.contains("Linguist") }
        try f.move(to: Double(main.x) + 300, Double(main.y) + 300)
        // Edit > Find (Ctrl+F), then "hello" in its text field.
        var dialog: TestControl.WindowState?
        _ = try f.session.wait(timeout: 20) {
            _ = try f.control.key(29, pressed: true); try f.control.tap(33); _ = try f.control.key(29, pressed: false)
            dialog = try f.control.windows().first { $0.title == "Find" }
            return dialog != nil
        }
        let w = try XCTUnwrap(dialog, "Linguist's Find dialog did not open")
        for key: UInt32 in [35, 18, 38, 38, 24] { try f.control.tap(key) }
        // The offsets below were measured with Qt drawing its own title bar and border
        // (3, 30 px); Lodestone draws the bar now (xdg-decoration), so the content starts
        // at the window geometry's corner.
        let (wx, wy) = (Double(w.x) - 3, Double(w.y) - 30)
        try f.move(to: 1270, 790)
        usleep(500_000)
        let shot = try f.screenshot()

        // "Find Next", the default button at the top right.
        let button = try centred(f, try f.targeted(wx + 405, wy + 41))
        XCTAssertEqual(button.effect, .highlight, "over a button: \(button)\n\(f.session.log)")
        try picture(f, "a11y-qt-button", button.midX, button.midY)
        let (left, right, top, bottom) = (Int((button.x + 2).rounded()), Int((button.x + button.width - 2).rounded()),
                                          Int((button.y + 2).rounded()), Int((button.y + button.height - 2).rounded()))
        let midY = Int(button.midY.rounded()), insideX = left + 4
        XCTAssertEqual(Self.edge(shot, vertical: false, at: midY, expected: left), left, accuracy: 2, "the button's left edge")
        XCTAssertEqual(Self.edge(shot, vertical: false, at: midY, expected: right), right, accuracy: 2, "the button's right edge")
        XCTAssertEqual(Self.edge(shot, vertical: true, at: insideX, expected: top), top, accuracy: 2, "the button's top edge")
        XCTAssertEqual(Self.edge(shot, vertical: true, at: insideX, expected: bottom), bottom, accuracy: 2, "the button's bottom edge")

        // The text field: the beam as tall as the line Qt reports for its characters.
        let entry = try f.targeted(wx + 200, wy + 53) { $0.kind == .verticalBeam && $0.targeted }
        XCTAssertEqual(entry.kind, .verticalBeam, "over the text field: \(entry)")
        try picture(f, "a11y-qt-entry", wx + 200, wy + 53)
        let ink = try XCTUnwrap(Self.inkRows(shot, x: Int(wx) + 90, y: Int(wy) + 38, width: 120, height: 30), "the typed text")
        XCTAssertGreaterThanOrEqual(entry.height, Double(ink.count), "the beam covers the text's glyphs \(ink)")
        XCTAssertLessThanOrEqual(entry.height, Double(ink.count) * 2.5, "the beam is about a line tall \(ink)")
        XCTAssertEqual(entry.midY, Double(ink.lowerBound + ink.upperBound) / 2, accuracy: 6, "the beam rests on the line")

        // A check box ("Match case" and its neighbours, left under the field).
        let check = try f.targeted(wx + 70, wy + 137)
        XCTAssertTrue(check.targeted, "over a check box: \(check)")
        XCTAssertEqual(check.effect, .highlight)
        XCTAssertLessThan(check.height, 40, "one check box, not the group: \(check)")
        XCTAssertFalse(f.session.log.contains(" error "), f.session.log)
    }

    /// foot publishes no AT-SPI geometry; over its text the beam is its line's height, measured
    /// from the rows it draws, and rests on a row.
    func testFootBeamIsItsFontsLine() throws {
        try requireProgram("foot")
        let f = try AdaptiveFixture()
        // A large font, so its line (about 31 px) is clearly not the 24 pt beam of an unknown line.
        try f.session.launch(["foot", "--override=shell=/bin/sh", "--font=monospace:size=20"], environment: ["PS1": "$ "])
        let window = try f.session.waitForWindow("foot", timeout: 30)
        try f.control.moveWindow(window.title, x: 100, y: 100)
        // Five prompts, one under another (each Enter once the shell has drawn its prompt).
        // The terminal's area starts at the window's top: its title bar is Lodestone's, above it.
        func prompts() throws -> [ClosedRange<Int>] {
            Self.inkRuns(try f.screenshot(), x: 104, y: 100, width: 200, height: Int(window.height) - 20)
        }
        var rows: [ClosedRange<Int>] = []
        for k in 1...5 {
            _ = try f.session.wait(timeout: 10) { rows = try prompts(); return rows.count >= k }
            if k < 5 { try f.control.tap(28) }
        }
        XCTAssertGreaterThanOrEqual(rows.count, 5, "five prompts drawn: \(rows)")
        guard rows.count >= 3 else { return }
        let pitch = Double(rows[2].lowerBound - rows[1].lowerBound)
        XCTAssertEqual(Double(rows[1].lowerBound - rows[0].lowerBound), pitch, "the prompts are one line apart")
        let y = Double(rows[1].lowerBound + rows[1].upperBound) / 2
        let beam = try f.targeted(160, y) { $0.kind == .verticalBeam && $0.targeted }
        XCTAssertEqual(beam.kind, .verticalBeam, "over foot's text: \(beam)\n\(f.session.log)")
        try picture(f, "a11y-foot-text", 160, y)
        XCTAssertTrue(beam.targeted, "the rows are a text region")
        XCTAssertEqual(beam.height, pitch, accuracy: 1, "the beam is foot's line, \(pitch) px")
        XCTAssertGreaterThan(beam.height, 26)
        XCTAssertEqual(beam.midY, y, accuracy: pitch / 3, "the beam rests on the line under the pointer")
    }

    /// The runs of rows holding dark-background-differing (text) pixels of an area, top first.
    static func inkRuns(_ shot: Screenshot, x: Int, y: Int, width: Int, height: Int) -> [ClosedRange<Int>] {
        let background = shot[x + width - 2, y + height - 2]
        var runs: [ClosedRange<Int>] = []
        var start: Int?
        for row in y..<min(y + height, shot.height) {
            let ink = (x..<x + width).contains { distance(shot[$0, row], background) > 96 }
            if ink, start == nil { start = row }
            if !ink, let s = start { runs.append(s...row - 1); start = nil }
        }
        return runs
    }
}
