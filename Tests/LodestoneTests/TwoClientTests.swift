import Foundation
import LodestoneTesting
import XCTest

/// Two clients side by side: click-to-focus, raise, keyboard routing and the clipboard.
final class TwoClientTests: XCTestCase {
    private func eventDemo(_ session: Session, title: String) throws -> String {
        let log = session.runtimeDirectory + "/\(title).txt"
        try session.launch(["stdbuf", "-oL", "weston-eventdemo", "--title=\(title)", "--width=300", "--height=200",
                            "--log-key", "--log-button", "--log-focus"], output: log)
        _ = try session.waitForWindow(title)
        return log
    }

    private func read(_ path: String) -> String { textOfFile(path) }

    func testClickFocusesAndRaisesAndKeysGoOnlyToTheFocusedClient() throws {
        try requireProgram("weston-eventdemo")
        let session = try Session()
        let control = session.control
        let leftLog = try eventDemo(session, title: "Left")
        let rightLog = try eventDemo(session, title: "Right")
        // Overlap them so raising is visible in the stacking order.
        try control.moveWindow("Left", x: 100, y: 100)
        try control.moveWindow("Right", x: 250, y: 150)
        var windows = try control.windows()
        XCTAssertEqual(windows.first?.title, "Right", "the newest window is on top")
        // Left's client had the keyboard when Right opened: Right waits, not activated.
        XCTAssertEqual(windows.first?.activated, false, "a new window of another client took the focus")
        XCTAssertEqual(try control.keyboard().title, "Left")

        // Click on a part of Left that Right does not cover.
        try control.movePointer(x: 140, y: 130)
        try control.click()
        windows = try control.windows()
        XCTAssertEqual(windows.first?.title, "Left", "clicking raises")
        XCTAssertEqual(windows.first?.activated, true, "clicking focuses")
        XCTAssertEqual(windows.last?.activated, false)
        XCTAssertEqual(try control.keyboard().title, "Left")

        try control.tap(30)  // A
        XCTAssertTrue(try session.wait { self.read(leftLog).contains("key: 30") }, read(leftLog))

        // Now click Right's bottom-right corner, which Left does not cover, and type there.
        let right = try XCTUnwrap(windows.first { $0.title == "Right" })
        let left = try XCTUnwrap(windows.first { $0.title == "Left" })
        XCTAssertGreaterThan(right.x + right.width, left.x + left.width + 20, "\(windows)")
        let state = try control.movePointer(x: Double(right.x + right.width - 10), y: Double(right.y + right.height - 10))
        XCTAssertEqual(state.title, "Right", "\(windows)")
        try control.click()
        XCTAssertEqual(try control.windows().first?.title, "Right")
        XCTAssertEqual(try control.keyboard().title, "Right")
        try control.tap(48)  // B
        XCTAssertTrue(try session.wait { self.read(rightLog).contains("key: 48") }, read(rightLog))

        XCTAssertFalse(read(rightLog).contains("key: 30"), "Right got a key typed into Left")
        XCTAssertFalse(read(leftLog).contains("key: 48"), "Left got a key typed into Right")
    }

    func testCopyInOneClientPasteInAnother() throws {
        try requireProgram("wl-copy")
        try requireProgram("wl-paste")
        let session = try Session()
        let text = "lodestone clipboard \(UInt32.random(in: 0...UInt32.max))"
        // wl-copy sets the selection through zwlr_data_control_device_v1 and serves it. Its
        // protocol trace shows when Lodestone has taken the selection: it offers it back.
        let trace = session.runtimeDirectory + "/wl-copy.txt"
        try session.launch(["wl-copy", "--foreground", text], environment: ["WAYLAND_DEBUG": "client"], output: trace)
        XCTAssertTrue(try session.wait { selectionTaken(trace: self.read(trace), primary: false) },
                      "Lodestone offered no selection after wl-copy set one; wl-copy's trace:\n\(read(trace).suffix(2000))")
        let (status, pasted) = try run(["timeout", "10", "wl-paste", "--no-newline"], environment: session.clientEnvironment)
        XCTAssertEqual(status, 0, pasted)
        XCTAssertEqual(pasted, text)
    }

    /// zwp_primary_selection_device_manager_v1: wl-copy --primary sets the primary
    /// selection, wl-paste --primary reads it, and the clipboard stays apart.
    func testPrimarySelectionCopyInOneClientPasteInAnother() throws {
        try requireProgram("wl-copy")
        try requireProgram("wl-paste")
        let session = try Session()
        let text = "lodestone primary \(UInt32.random(in: 0...UInt32.max))"
        let trace = session.runtimeDirectory + "/wl-copy-primary.txt"
        try session.launch(["wl-copy", "--primary", "--foreground", text], environment: ["WAYLAND_DEBUG": "client"], output: trace)
        XCTAssertTrue(try session.wait { selectionTaken(trace: self.read(trace), primary: true) },
                      "Lodestone offered no primary selection after wl-copy set one; wl-copy's trace:\n\(read(trace).suffix(2000))")
        let (status, pasted) = try run(["timeout", "10", "wl-paste", "--primary", "--no-newline"], environment: session.clientEnvironment)
        XCTAssertEqual(status, 0, pasted)
        XCTAssertEqual(pasted, text)
        // The clipboard was not set: it is empty, not the primary selection.
        let (_, clipboard) = try run(["timeout", "10", "wl-paste", "--no-newline"], environment: session.clientEnvironment)
        XCTAssertFalse(clipboard.contains(text), clipboard)
    }
}
