import Foundation
import LodestoneTesting
import XCTest

/// The repository root, for scripts and test clients.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

/// Lodestone's background colour, as captures show it.
let backgroundColor: UInt32 = 0x30_3446

/// Whether wl-copy's `WAYLAND_DEBUG=client` trace shows that the compositor took its
/// selection: after wl-copy's set_selection (or set_primary_selection), an offer came back as
/// the selection. wl-clipboard uses zwlr_data_control_device_v1 when the compositor offers it
/// (Lodestone does), else wl_data_device or zwp_primary_selection_device_v1 with a window
/// that has the keyboard (weston, and Lodestone before data-control).
func selectionTaken(trace: String, primary: Bool) -> Bool {
    let set = [".set_selection(", ".set_primary_selection("].compactMap { trace.range(of: $0, options: .backwards)?.upperBound }.max()
    guard let set else { return false }
    let markers = primary
        ? [".primary_selection(zwlr_data_control_offer_v1@", ".selection(zwp_primary_selection_offer_v1@"]
        : [".selection(zwlr_data_control_offer_v1@", ".selection(wl_data_offer@"]
    let after = trace[set...]
    return markers.contains { after.contains($0) }
}

extension XCTestCase {
    /// Skips when a client program is not installed (make deps installs them all).
    func requireProgram(_ name: String) throws {
        if programPath(name) == nil {
            if ProcessInfo.processInfo.environment["CI"] != nil { XCTFail("\(name) is not installed; run make deps") }
            throw XCTSkip("\(name) is not installed; run make deps")
        }
    }

    /// Skips when one of a test's build tools is not installed, saying how to install it
    /// (`install`); under CI that is a broken setup, not a reason to skip, so it fails.
    func requireTools(_ tools: [String], install: String) throws {
        for tool in tools where programPath(tool) == nil {
            let message = "\(tool) is not installed (\(install))"
            if ProcessInfo.processInfo.environment["CI"] != nil { throw TestFailure(message) }
            throw XCTSkip(message)
        }
    }

    /// Under `make asan` liblodestone-pointer is built with AddressSanitizer and needs its
    /// runtime in the program that loads it: the C, Python and wlroots programs these tests
    /// build and run against it have none ("undefined reference to `__asan_report_store4'").
    /// `make test` runs them; the library's Swift side runs sanitized in the other tests.
    func skipUnderSanitizersForALibraryConsumer() throws {
        if ProcessInfo.processInfo.environment["LODESTONE_SANITIZED"] != nil {
            throw XCTSkip("under AddressSanitizer: a program built without it cannot load the sanitized liblodestone-pointer")
        }
    }

    /// Polls with wall time (for other processes) until `condition` holds; whether it did.
    func wait(timeout: TimeInterval, _ condition: () throws -> Bool) throws -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if try condition() { return true }
            usleep(50_000)
        }
        return try condition()
    }

    /// Runs a command to completion, returning status and combined output.
    @discardableResult
    func run(_ arguments: [String], environment: [String: String]? = nil, directory: String? = nil) throws -> (status: Int32, output: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = arguments
        if let environment { p.environment = environment }
        if let directory { p.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = pipe
        try p.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// A file at `path` of `size` bytes of text (wl-copy offers it as text/plain), and its
    /// sha256: the nested clipboard tests compare what crossed by it.
    func makeText(at path: String, size: Int) throws -> (path: String, sha: String) {
        let line = Array("lodestone \(UInt32.random(in: 0...UInt32.max)) abcdefghijklmnopqrstuvwxyz 0123456789\n".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(size)
        while bytes.count < size { bytes += line.prefix(size - bytes.count) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return (path, try sha256(path))
    }

    /// The sha256 of the file at `path`, in hex, as sha256sum prints it.
    func sha256(_ path: String) throws -> String {
        let (status, output) = try run(["sha256sum", path])
        XCTAssertEqual(status, 0, output)
        return String(output.prefix(64))
    }

    /// The window's pixels differ from the background (real content drawn
    /// where the compositor says the window is) and the area around does not.
    func assertWindowDrawn(_ shot: Screenshot, _ w: TestControl.WindowState, minDistinctColors: Int = 2, file: StaticString = #filePath, line: UInt = #line) {
        let inside = shot.countDiffering(from: backgroundColor, x: Int(w.x), y: Int(w.y), width: Int(w.width), height: Int(w.height))
        XCTAssertGreaterThan(inside.total, 0, "window \(w) is off screen", file: file, line: line)
        XCTAssertGreaterThan(Double(inside.differing), 0.95 * Double(inside.total), "window \(w.title) is not drawn where it is placed", file: file, line: line)
        XCTAssertGreaterThanOrEqual(shot.distinctColors(x: Int(w.x), y: Int(w.y), width: Int(w.width), height: Int(w.height)), minDistinctColors,
                                    "window \(w.title) shows no content", file: file, line: line)
        // A strip to the right of the window (if on screen) is background.
        let rightX = Int(w.x + w.width) + 48  // beyond client-side shadows
        if rightX + 16 < shot.width {
            let outside = shot.countDiffering(from: backgroundColor, x: rightX, y: Int(w.y) + 30, width: 16, height: 16)
            XCTAssertEqual(outside.differing, 0, "pixels right of \(w.title) are not background", file: file, line: line)
        }
    }
}

extension XCTestCase {
    /// Qt 6 Linguist with a one-message Japanese translation file, its find dialog opened by
    /// Ctrl+F: the Qt 6 text field that ScribbleAppTests and InputMethodTests write into.
    /// Ctrl+F is pressed again every 2 s until the dialog is up: a key Qt hears before it has
    /// set up its shortcuts is lost. Returns the app and the dialog.
    func openQt6LinguistFindDialog(in session: Session, environment: [String: String], output: String,
                                   file: StaticString = #filePath, line: UInt = #line) throws -> (app: Process, dialog: TestControl.WindowState) {
        let linguist = "/usr/lib/qt6/bin/linguist"
        guard FileManager.default.isExecutableFile(atPath: linguist) else {
            if ProcessInfo.processInfo.environment["CI"] != nil { XCTFail("Qt 6 Linguist is not installed; run make deps") }
            throw XCTSkip("Qt 6 Linguist (qt6-tools-dev-tools) is not installed; run make deps")
        }
        let translations = session.runtimeDirectory + "/find.ts"
        try """
        <?xml version="1.0" encoding="utf-8"?>
        <!DOCTYPE TS><TS version="2.1" language="ja_JP"><context><name>Main</name>
        <message><source>Hello</source><translation type="unfinished"></translation></message>
        </context></TS>
        """.write(toFile: translations, atomically: true, encoding: .utf8)
        let app = try session.launch([linguist, translations], environment: environment, output: output)
        // The title names the file once it is loaded; the window has had the keyboard since it was mapped.
        _ = try session.waitForWindow("linguist", timeout: 30) { $0.title.hasSuffix("find.ts - Qt Linguist") }
        var pressAt = Date()
        let opened = try session.wait(timeout: 30) {
            if Date() >= pressAt {
                try session.control.key(29, pressed: true)
                try session.control.tap(33)
                try session.control.key(29, pressed: false)
                pressAt = Date().addingTimeInterval(2)
            }
            return try session.control.windows().contains { $0.title == "Find" }
        }
        guard opened, let dialog = try session.control.windows().first(where: { $0.title == "Find" }) else {
            throw TestFailure("Linguist opened no find dialog:\n\(textOfFile(output).suffix(4000))")
        }
        return (app, dialog)
    }
}
