import Foundation
import LodestoneTesting
import XCTest

/// X11 apps under Xwayland and an input method (issue 39, item 5): Debian's Xwayland speaks
/// no text-input protocol, so an X11 app reaches an input method only through XIM, from the
/// input method's X11 frontend. fcitx5 started with Lodestone's DISPLAY loads its `xim`
/// addon beside its Wayland one; an xterm with XMODIFIERS=@im=fcitx sends it its keys over X
/// and gets the commit back over X. Lodestone only carries keys to Xwayland.
final class Fcitx5XimTests: XCTestCase {
    func testUnicodeInputThroughXimReachesXterm() throws {
        try requireProgram("fcitx5")
        try requireProgram("xterm")
        try requireAccessibilityBus()
        let bus = try PrivateSessionBus()
        defer { bus.stop() }
        let (session, display) = try startXwaylandSession(environment: bus.environment)
        defer { session.stop() }
        let home = session.runtimeDirectory + "/fcitx5-home"
        let isolated = bus.environment.merging(["HOME": home, "XDG_CONFIG_HOME": home + "/config", "XDG_DATA_HOME": home + "/data",
                                                "XDG_STATE_HOME": home + "/state", "XDG_CACHE_HOME": home + "/cache", "GSETTINGS_BACKEND": "memory",
                                                "DISPLAY": display, "LC_ALL": "C.UTF-8"]) { $1 }
        let fcitx = session.runtimeDirectory + "/fcitx5.txt"
        // xim=5 logs each commit ("XIM commit: X").
        try session.launch(["fcitx5", "--verbose=*=4,xim=5"], environment: isolated, output: fcitx)
        // xterm looks for the XIM server once, when it starts.
        XCTAssertTrue(try session.wait(timeout: 30) { textOfFile(fcitx).contains("Loaded addon xim") }, String(textOfFile(fcitx).suffix(3000)))
        let file = session.runtimeDirectory + "/typed.txt"
        try session.launch(["xterm", "-T", "xim-test", "-u8", "-e", "sh", "-c", "cat > '\(file)'"],
                           environment: isolated.merging(["XMODIFIERS": "@im=fcitx"]) { $1 }, output: session.runtimeDirectory + "/xterm.txt")
        _ = try session.waitForWindow("xim-test", timeout: 40)
        XCTAssertTrue(try session.wait(timeout: 20) { try session.control.keyboard().title == "xim-test" })
        // xterm's input context has the focus in fcitx5.
        XCTAssertTrue(try session.wait(timeout: 20) { textOfFile(fcitx).contains("-- XIM_SET_IC_FOCUS") }, String(textOfFile(fcitx).suffix(3000)))
        let c = session.control
        // A plain 'a' first: fcitx5 passes back what it does not use.
        try c.tap(30)
        // Ctrl+Alt+Shift+U, "2713", Return: the Unicode input's first candidate (as in Fcitx5Tests).
        for key: UInt32 in [29, 56, 42, 22] { _ = try c.key(key, pressed: true) }
        for key: UInt32 in [22, 42, 56, 29] { _ = try c.key(key, pressed: false) }
        for key: UInt32 in [3, 8, 2, 4, 28] { try c.tap(key) }
        XCTAssertTrue(try session.wait(timeout: 10) { textOfFile(fcitx).contains("XIM commit: ") },
                      "fcitx5 committed nothing over XIM:\n\(textOfFile(fcitx).suffix(3000))")
        let character = textOfFile(fcitx).components(separatedBy: "XIM commit: ").last?.split(separator: "\n").first.map(String.init) ?? ""
        XCTAssertEqual(character.count, 1, character)
        XCTAssertFalse(character.unicodeScalars.first?.isASCII ?? true, character)
        // Return: the shell's cat writes the line.
        try c.tap(28)
        XCTAssertTrue(try session.wait(timeout: 10) { textOfFile(file) == "a\(character)\n" },
                      "xterm's shell got \(textOfFile(file).debugDescription), fcitx5 committed \(character.debugDescription)")
        // Xwayland bound no text input: this went by X alone.
        XCTAssertFalse(session.log.contains("protocol error"), session.log)
    }
}
