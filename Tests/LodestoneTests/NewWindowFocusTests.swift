import Foundation
import LodestoneTesting
import XCTest

/// Which new window takes the keyboard (`NewWindowFocus`, docs/desktop-apps.md "Focus"),
/// with real programs on the real clock: what the user starts from the focused foot
/// takes the keyboard (wl-copy's and wl-paste's windows, gnome-calculator); a window
/// mapped by a program foot did not start maps behind while the user types in foot.
final class NewWindowFocusTests: XCTestCase {
    /// foot running /bin/sh in a scratch directory, holding the keyboard.
    private func focusedFoot(_ session: Session, environment: [String: String] = [:]) throws -> (directory: String, window: TestControl.WindowState) {
        try requireProgram("foot")
        let directory = NSTemporaryDirectory() + "lodestone-focus-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: directory) }
        try session.launch(["foot", "--override=shell=/bin/sh", "--working-directory=" + directory,
                            "--title=focused-foot", "--override=locked-title=yes"], environment: environment)
        let window = try session.waitForWindow("focused-foot", timeout: 40) { $0.activated }
        // The shell's prompt is up once foot has drawn; a moment for sh to start reading.
        usleep(500_000)
        return (directory, window)
    }

    /// Writes `script` as `NAME` in the shell's directory and types `sh NAME` and Enter,
    /// as a user runs a command.
    private func run(_ script: String, as name: String, in directory: String, session: Session) throws {
        try script.write(toFile: directory + "/" + name, atomically: true, encoding: .utf8)
        try type("sh \(name)\n", session)
    }

    /// Taps the evdev keys of `text` (lower-case letters, digits, space, '.', newline).
    private func type(_ text: String, _ session: Session) throws {
        for c in text {
            guard let key = Self.keys[c] else { return XCTFail("no key for '\(c)'") }
            try session.control.tap(key)
        }
    }

    private static let keys: [Character: UInt32] = {
        var keys: [Character: UInt32] = [" ": 57, "\n": 28, ".": 52, "0": 11]
        for (i, c) in "123456789".enumerated() { keys[c] = UInt32(2 + i) }
        let rows: [(String, UInt32)] = [("qwertyuiop", 16), ("asdfghjkl", 30), ("zxcvbnm", 44)]
        for (row, first) in rows { for (i, c) in row.enumerated() { keys[c] = first + UInt32(i) } }
        return keys
    }()

    /// Waits for `path` to hold `expected` (a shell writes it in its own time).
    private func waitForFile(_ path: String, _ expected: String, timeout: TimeInterval, session: Session) throws -> Bool {
        try session.wait(timeout: timeout) { textOfFile(path) == expected }
    }

    func testWlCopyAndWlPasteFromAFocusedFootFinish() throws {
        try wlCopyAndWlPasteFromAFocusedFoot(extraArguments: [])
    }

    /// Without data-control, wl-clipboard maps a small window of its own to get the keyboard:
    /// the focus rule alone decides whether it finishes.
    func testWlCopyAndWlPasteFromAFocusedFootFinishWithoutDataControl() throws {
        try wlCopyAndWlPasteFromAFocusedFoot(extraArguments: ["--no-data-control"])
    }

    private func wlCopyAndWlPasteFromAFocusedFoot(extraArguments: [String]) throws {
        try requireProgram("wl-copy")
        try requireProgram("wayland-info")
        let session = try Session(extraArguments: extraArguments)
        defer {
            endStrays(of: session, named: "wl-copy")
            session.stop()
        }
        let (status, info) = try run(["timeout", "10", "wayland-info"], environment: session.clientEnvironment)
        XCTAssertEqual(status, 0)
        XCTAssertEqual(info.contains("zwlr_data_control_manager_v1"), !extraArguments.contains("--no-data-control"),
                       "data-control is offered unless --no-data-control")
        let (directory, _) = try focusedFoot(session)
        // With data-control wl-clipboard needs no window; without it, it maps a small one to
        // get the keyboard: foot started both, so each window takes the keyboard and the
        // selection is set and read. Under the old rule both waited until timeout's 124.
        try run("timeout 10 wl-copy hello; echo copy $? > result; timeout 10 wl-paste > pasted; echo paste $? >> result\n",
                as: "c", in: directory, session: session)
        let finished = try waitForFile(directory + "/result", "copy 0\npaste 0\n", timeout: 25, session: session)
        XCTAssertTrue(finished, "wl-copy and wl-paste exit 0; result: '\(textOfFile(directory + "/result"))'\n\(session.log.suffix(3000))")
        XCTAssertEqual(textOfFile(directory + "/pasted"), "hello\n")
        // Their windows gone, the keyboard is back with foot: the next line runs there.
        try type("touch back\n", session)
        XCTAssertTrue(try session.wait(timeout: 10) { FileManager.default.fileExists(atPath: directory + "/back") },
                      "foot has the keyboard again; keyboard: \(String(describing: try? session.control.keyboard()))")
    }

    /// Ends what foot's shell started and may outlive foot (the wl-copy that forked to
    /// serve the selection): it holds the descriptor Foundation's Process watches to see
    /// foot end, so `Session.stop` would wait forever. Found by its name (`comm`, at most
    /// 15 characters) and the session's socket in its environment.
    private func endStrays(of session: Session, named name: String) {
        let own = "WAYLAND_DISPLAY=\(session.socket)"
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int32(entry), textOfFile("/proc/\(entry)/comm") == String(name.prefix(15)) + "\n",
                  let environ = FileManager.default.contents(atPath: "/proc/\(entry)/environ"),
                  environ.split(separator: 0).contains(where: { String(decoding: $0, as: UTF8.self) == own }) else { continue }
            kill(pid, SIGTERM)
        }
    }

    func testGnomeCalculatorStartedFromFootGetsTheKeys() throws {
        try requireProgram("gnome-calculator")
        let session = try Session(size: "1280x800")
        defer {
            endStrays(of: session, named: "gnome-calculator")
            session.stop()
        }
        let (directory, _) = try focusedFoot(session)
        // In the foreground, as a user types a program's name: the shell that started it
        // is still there when it connects (docs/desktop-apps.md#focus).
        try run("GDK_BACKEND=wayland GSK_RENDERER=cairo NO_AT_BRIDGE=1 gnome-calculator > calculator.log 2>&1\n",
                as: "g", in: directory, session: session)
        let calculator = try session.waitForWindow("gnome-calculator", timeout: 60)
        XCTAssertTrue(try session.wait(timeout: 10) { try session.control.windows().contains { $0.appID == "gnome-calculator" && $0.activated } },
                      "gnome-calculator, started from the focused foot, is activated: \((try? session.control.windows()) ?? [])")
        XCTAssertEqual(try session.control.keyboard().appID, "gnome-calculator", "and has the keyboard")
        XCTAssertFalse(try session.control.windows().first { $0.title == "focused-foot" }?.activated ?? true, "foot is no longer activated")
        // Its display shows the digits typed next: its pixels change.
        usleep(1_000_000)
        let before = try session.screenshot("calculator-before")
        try type("7531\n", session)
        let (x, y, w, h) = (Int(calculator.x), Int(calculator.y), Int(calculator.width), Int(calculator.height))
        var changed = 0
        XCTAssertTrue(try session.wait(timeout: 10) {
            let after = try session.screenshot("calculator-after")
            changed = 0
            for py in stride(from: max(0, y), to: min(y + h, after.height), by: 2) {
                for px in stride(from: max(0, x), to: min(x + w, after.width), by: 2) where after[px, py] != before[px, py] { changed += 1 }
            }
            return changed > 200
        }, "the calculator's display shows the digits: \(changed) pixels changed")
        XCTAssertEqual(try session.control.keyboard().appID, "gnome-calculator", "the keys went to the calculator, not foot")
    }

    func testAWindowFootDidNotStartMapsBehindWhileTheUserTypes() throws {
        let session = try Session()
        defer { session.stop() }
        let (directory, _) = try focusedFoot(session)
        try type("touch be", session)
        // A program the test starts, not foot: it is neither foot's child nor Lodestone's.
        try session.launch(["foot", "--override=shell=/bin/sh", "--title=background", "--override=locked-title=yes"])
        let background = try session.waitForWindow("background", timeout: 40)
        XCTAssertFalse(background.activated, "the background window is not activated")
        // The rest of the line, typed after it mapped, lands in foot.
        try type("fore after\n", session)
        XCTAssertTrue(try session.wait(timeout: 10) { FileManager.default.fileExists(atPath: directory + "/before") &&
                                                      FileManager.default.fileExists(atPath: directory + "/after") },
                      "the line typed in foot ran; keyboard: \(String(describing: try? session.control.keyboard()))")
        XCTAssertEqual(try session.control.keyboard().title, "focused-foot")
        XCTAssertFalse(try session.control.windows().first { $0.title == "background" }?.activated ?? true)
        let mapped = session.log.split(separator: "\n").filter { $0.contains("mapped window 'background'") }
        XCTAssertTrue(mapped.count == 1 && mapped[0].contains(", urgent: another program has the keyboard"),
                      "Lodestone marks it urgent:\n\(session.log.suffix(2000))")
    }

    /// X11 windows follow the rule through their _NET_WM_PID: an xterm the test starts maps
    /// behind the focused foot; one started from foot's shell takes the keyboard.
    func testX11WindowsFollowTheRuleThroughTheirProcess() throws {
        try requireProgram("xterm")
        try requireProgram("Xwayland")
        let session = try Session()
        defer {
            endStrays(of: session, named: "xterm")
            session.stop()
        }
        guard let display = session.x11Display else { return XCTFail("Lodestone offers no X11 display:\n\(session.log)") }
        let (directory, _) = try focusedFoot(session, environment: ["DISPLAY": display])
        try session.launch(["xterm", "-T", "background-x", "-e", "/bin/sh"], environment: ["DISPLAY": display])
        let background = try session.waitForWindow("background-x", timeout: 40)
        XCTAssertFalse(background.activated, "an xterm foot did not start is not activated")
        XCTAssertEqual(try session.control.keyboard().title, "focused-foot")
        try run("xterm -T from-foot -e /bin/sh\n", as: "x", in: directory, session: session)
        XCTAssertTrue(try session.wait(timeout: 40) { try session.control.windows().contains { $0.title == "from-foot" && $0.activated } },
                      "the xterm started from foot is activated: \((try? session.control.windows()) ?? [])\n\(session.log.suffix(2000))")
        XCTAssertEqual(try session.control.keyboard().title, "from-foot")
    }
}
