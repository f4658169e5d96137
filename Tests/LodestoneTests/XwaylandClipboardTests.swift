import Foundation
import LodestoneTesting
import XCTest

/// The X11 and Wayland clipboards bridged by the window manager (`XSelection`): what
/// `xclip` copies, `wl-paste` pastes, and what `wl-copy` copies, `xclip -o` pastes; for
/// the clipboard (CLIPBOARD) and the primary selection (PRIMARY) alike.
final class XwaylandClipboardTests: XCTestCase {
    /// A session with the X11 display, once the clipboard tools are known to be there.
    private func startSession() throws -> (Session, String) {
        try requireProgram("xclip")
        try requireProgram("wl-copy")
        try requireProgram("wl-paste")
        return try startXwaylandSession()
    }

    private func read(_ path: String) -> String { textOfFile(path) }

    /// Copies in X (xclip serves its selection until another owner takes it), pastes with
    /// wl-paste; then copies with wl-copy and pastes in X with xclip -o.
    private func bridgesBothWays(primary: Bool) throws {
        let (session, display) = try startSession()
        defer { session.stop() }
        let xName = primary ? "primary" : "clipboard"
        let pasteFlags = primary ? ["--primary"] : []
        var xEnv = session.clientEnvironment
        xEnv["DISPLAY"] = display

        let fromX = "copied in X11 \(UInt32.random(in: 0...UInt32.max))"
        try session.launch(["sh", "-c", "printf %s '\(fromX)' | exec xclip -quiet -selection \(xName) -i"], environment: ["DISPLAY": display])
        var pasted = ""
        _ = try session.wait(timeout: 40) {
            pasted = try self.run(["timeout", "5", "wl-paste", "--no-newline"] + pasteFlags, environment: session.clientEnvironment).output
            return pasted == fromX
        }
        XCTAssertEqual(pasted, fromX, "wl-paste did not get what xclip copied:\n\(session.log.suffix(2000))")

        let fromWayland = "copied in Wayland \(UInt32.random(in: 0...UInt32.max))"
        let trace = session.runtimeDirectory + "/wl-copy-\(xName).txt"
        try session.launch(["wl-copy", "--foreground"] + pasteFlags + [fromWayland], environment: ["WAYLAND_DEBUG": "client"], output: trace)
        XCTAssertTrue(try session.wait { selectionTaken(trace: self.read(trace), primary: primary) }, "wl-copy's selection was not taken:\n\(read(trace).suffix(2000))")
        var xPasted = ""
        // wl-copy set it through zwlr_data_control_device_v1: what data-control sets reaches X.
        XCTAssertTrue(read(trace).contains(primary ? ".set_primary_selection(zwlr_data_control_source_v1@" : ".set_selection(zwlr_data_control_source_v1@"),
                      read(trace).suffix(2000).description)
        _ = try session.wait(timeout: 20) {
            xPasted = try self.run(["timeout", "5", "xclip", "-o", "-selection", xName], environment: xEnv).output
            return xPasted == fromWayland
        }
        XCTAssertEqual(xPasted, fromWayland, "xclip -o did not get what wl-copy copied:\n\(session.log.suffix(2000))")
        XCTAssertFalse(session.log.contains("protocol error"), session.log)
    }

    func testClipboardCopiedInX11PastesInWaylandAndBack() throws { try bridgesBothWays(primary: false) }

    func testPrimarySelectionCopiedInX11PastesInWaylandAndBack() throws { try bridgesBothWays(primary: true) }

    /// An X app asking for TARGETS gets what the Wayland source offers, as X atoms.
    func testXAppsSeeTheWaylandSourcesTargets() throws {
        let (session, display) = try startSession()
        defer { session.stop() }
        var xEnv = session.clientEnvironment
        xEnv["DISPLAY"] = display
        // Xwayland and its window manager up before the copy.
        _ = try run(["timeout", "20", "xclip", "-o", "-selection", "clipboard"], environment: xEnv)
        try session.launch(["wl-copy", "--foreground", "--type", "text/html", "<b>bold</b>"])
        var targets = ""
        _ = try session.wait(timeout: 20) {
            targets = try self.run(["timeout", "5", "xclip", "-o", "-selection", "clipboard", "-t", "TARGETS"], environment: xEnv).output
            return targets.contains("text/html")
        }
        XCTAssertTrue(targets.contains("TARGETS"), targets)
        XCTAssertTrue(targets.contains("text/html"), targets)
        let (_, html) = try run(["timeout", "5", "xclip", "-o", "-selection", "clipboard", "-t", "text/html"], environment: xEnv)
        XCTAssertEqual(html, "<b>bold</b>")
    }

    /// 6 MB, far more than a pipe holds: both ways it crosses by INCR (xclip offers such a
    /// copy incrementally; Lodestone sends Wayland data above 256 KiB in chunks), written
    /// to the paste target as its pipe drains, without blocking the compositor.
    func testLargeCopiesCrossBothWaysIncrementally() throws {
        let (session, display) = try startSession()
        defer { session.stop() }
        var xEnv = session.clientEnvironment
        xEnv["DISPLAY"] = display
        let file = session.runtimeDirectory + "/large.txt"
        var text = ""
        for i in 0..<100_000 { text += "line \(i): the quick brown fox jumps over the lazy dog\n" }
        try text.write(toFile: file, atomically: true, encoding: .utf8)

        try session.launch(["xclip", "-quiet", "-selection", "clipboard", "-i", file], environment: ["DISPLAY": display])
        var pasted = ""
        _ = try session.wait(timeout: 40) {
            pasted = try self.run(["timeout", "20", "wl-paste", "--no-newline"], environment: session.clientEnvironment).output
            return pasted == text
        }
        XCTAssertEqual(pasted.utf8.count, text.utf8.count, "wl-paste got \(pasted.utf8.count) of \(text.utf8.count) bytes")
        XCTAssertTrue(pasted == text, "wl-paste got other bytes than xclip copied")
        XCTAssertTrue(session.log.contains("the owner sends its data incrementally (INCR)"), "xclip's copy did not come by INCR")

        // Other bytes the other way, so xclip's own copy cannot pass for wl-copy's.
        let fromWayland = text.replacingOccurrences(of: "fox", with: "cat")
        try fromWayland.write(toFile: file, atomically: true, encoding: .utf8)
        try session.launch(["sh", "-c", "exec wl-copy --foreground < '\(file)'"])
        var xPasted = ""
        _ = try session.wait(timeout: 30) {
            xPasted = try self.run(["timeout", "20", "xclip", "-o", "-selection", "clipboard"], environment: xEnv).output
            return xPasted == fromWayland
        }
        XCTAssertEqual(xPasted.utf8.count, fromWayland.utf8.count, "xclip -o got \(xPasted.utf8.count) of \(fromWayland.utf8.count) bytes")
        XCTAssertTrue(xPasted == fromWayland, "xclip -o got other bytes than wl-copy copied")
        XCTAssertTrue(session.log.contains("\(fromWayland.utf8.count) bytes to window"), "the Wayland copy did not go by INCR:\n\(session.log.split(separator: "\n").filter { $0.contains("X selection") }.joined(separator: "\n"))")
        XCTAssertTrue(session.compositorIsRunning)
    }
}
