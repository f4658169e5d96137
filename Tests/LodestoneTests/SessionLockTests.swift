import Foundation
import LodestoneTesting
import XCTest

/// ext_session_lock_v1 (`SessionLock`, docs/session-lock.md) in a headless Lodestone with two
/// heads, on the real clock: a pywayland locker (Tests/clients/lock_client.py) covers both
/// heads, nothing typed or clicked reaches foot under it, and typing its word unlocks; a
/// locker killed leaves the session locked behind the fill until a second one unlocks; one
/// that never draws leaves the fill; misbehaving lockers (bad_client.py) are disconnected
/// with the protocol's errors; swaylock itself locks and unlocks with a password.
final class SessionLockTests: XCTestCase {
    private let lockClient = repositoryRoot + "/Tests/clients/lock_client.py"
    /// The heads: two of 640×400 side by side.
    private let head = (width: 640, height: 400)
    /// lock_client.py's default colour, and the second locker's.
    private let lockBlue: UInt32 = 0x2060a0, lockGreen: UInt32 = 0x30a050
    /// `SessionLock.fillPixel`: what a head shows where no lock surface is.
    private let fill: UInt32 = 0x000000

    private func requirePywayland() throws {
        let (status, _) = try run(["python3", "-c", "import pywayland.protocol.ext_session_lock_v1"])
        if status != 0 {
            if ProcessInfo.processInfo.environment["CI"] != nil { XCTFail("pywayland (with ext_session_lock_v1) is missing; run make deps") }
            throw XCTSkip("pywayland (with ext_session_lock_v1) is missing; run make deps")
        }
    }

    private func twoHeads() throws -> Session {
        try requirePywayland()
        let session = try Session(size: "\(head.width)x\(head.height)", extraArguments: ["--outputs", "2"])
        addTeardownBlock { session.stop() }
        return session
    }

    /// Starts lock_client.py; its output (one line per event) is in the returned path.
    private func locker(_ session: Session, _ name: String, _ arguments: [String] = []) throws -> (process: Process, output: String) {
        let output = session.runtimeDirectory + "/\(name).txt"
        let process = try session.launch(["python3", lockClient] + arguments, output: output)
        return (process, output)
    }

    private func waitForLine(_ line: String, in output: String, _ session: Session, timeout: TimeInterval = 15) throws {
        let found = try session.wait(timeout: timeout) { textOfFile(output).split(separator: "\n").contains { $0 == line } }
        XCTAssertTrue(found, "no '\(line)' from the locker:\n\(textOfFile(output))\nLodestone's log:\n\(session.log.suffix(3000))")
    }

    /// How many pixels of head `index` are not `color` (the pointer may be over it).
    private func differing(_ shot: Screenshot, head index: Int, from color: UInt32) -> Int {
        shot.countDiffering(from: color, x: index * head.width, y: 0, width: head.width, height: head.height).differing
    }

    /// At most the pointer's pixels (the adaptive pointer is drawn over the lock surface).
    private func assertHead(_ shot: Screenshot, _ index: Int, is color: UInt32, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        let n = differing(shot, head: index, from: color)
        XCTAssertLessThan(n, 2_000, "head \(index + 1) should be \(what) (0x\(String(color, radix: 16))): \(n) pixels differ", file: file, line: line)
    }

    private func type(_ text: String, _ session: Session) throws {
        for c in text {
            guard let key = Self.keys[c] else { return XCTFail("no key for '\(c)'") }
            try session.control.tap(key)
        }
    }

    private static let keys: [Character: UInt32] = {
        var keys: [Character: UInt32] = [" ": 57, "\n": 28, "\u{1b}": 1]
        let rows: [(String, UInt32)] = [("qwertyuiop", 16), ("asdfghjkl", 30), ("zxcvbnm", 44)]
        for (row, first) in rows { for (i, c) in row.enumerated() { keys[c] = first + UInt32(i) } }
        return keys
    }()

    /// foot running `tee typed` in a scratch directory, with the keyboard: every line typed
    /// into it lands in `typed`.
    private func footTyping(_ session: Session) throws -> (window: TestControl.WindowState, typed: String) {
        try requireProgram("foot")
        let directory = NSTemporaryDirectory() + "lodestone-lock-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: directory) }
        try session.launch(["foot", "--override=shell=/bin/sh", "--working-directory=" + directory,
                            "--title=locked-foot", "--override=locked-title=yes"])
        let window = try session.waitForWindow("locked-foot", timeout: 40) { $0.activated }
        // The shell reads once foot has drawn its prompt; `tee typed` echoes each line to the file.
        let typed = directory + "/typed"
        XCTAssertTrue(try session.wait(timeout: 10) {
            try type("tee typed\n", session)
            return try session.wait(timeout: 2) { FileManager.default.fileExists(atPath: typed) }
        }, "foot's shell never ran tee")
        try type("before\n", session)
        XCTAssertTrue(try session.wait { textOfFile(typed) == "before\n" }, "foot got '\(textOfFile(typed))'")
        return (window, typed)
    }

    /// Lock, type and click under it, unlock; kill a locker, a second one unlocks; a head
    /// plugged in while locked is covered. One session, as a user's afternoon.
    func testLockKeepsInputFromFootAndOutlivesItsLocker() throws {
        let session = try twoHeads()
        let (foot, typed) = try footTyping(session)
        var shot = try session.screenshot("before")
        XCTAssertGreaterThan(differing(shot, head: 0, from: lockBlue), head.width * head.height / 2, "foot and the desktop should show before the lock")

        // Locked: both heads show the locker's surfaces, the keyboard and pointer are its.
        let (_, first) = try locker(session, "locker-1")
        try waitForLine("locked", in: first, session)
        try waitForLine("drawn HEADLESS-1", in: first, session)
        try waitForLine("drawn HEADLESS-2", in: first, session)
        try waitForLine("frame HEADLESS-2", in: first, session)
        shot = try session.screenshot("locked")
        assertHead(shot, 0, is: lockBlue, "the lock surface")
        assertHead(shot, 1, is: lockBlue, "the lock surface")
        XCTAssertEqual(try session.control.keyboard().title, "", "a window kept the keyboard under the lock")
        // The keyboard is the locker's once it says so: keys before that reach nobody.
        try waitForLine("keyboard-enter", in: first, session)
        try type("secret\n", session)
        try waitForLine("key 31", in: first, session)  // 's' reached the locker
        _ = try session.control.movePointer(x: Double(foot.x + 40), y: Double(foot.y + 40))
        try session.control.click()
        try waitForLine("button 272", in: first, session)
        XCTAssertEqual(try session.control.pointer().title, "", "the pointer is over foot under the lock")
        // Lodestone's shortcuts do not run either: Super+D (show the desktop) leaves foot where it was.
        _ = try session.control.key(125, pressed: true)
        try session.control.tap(32)
        _ = try session.control.key(125, pressed: false)
        try waitForLine("key 32", in: first, session)  // the locker got the D instead
        try type("\n", session)  // and Enter ends that line, as 'secret' was
        // (Unlocked, the windows would slide off within a few frames.)
        let moved = try session.wait(timeout: 1) { try session.control.windows().map { [$0.x, $0.y] } != [[foot.x, foot.y]] }
        XCTAssertFalse(moved, "Super+D moved the windows under the lock: \((try? session.control.windows()) ?? [])")

        // Unlocked by typing its word: foot is back with the keyboard, and got none of it.
        try type("unlock\n", session)
        try waitForLine("unlocked", in: first, session)
        XCTAssertTrue(try session.wait { try session.control.keyboard().title == "locked-foot" }, "foot did not get the keyboard back")
        shot = try session.screenshot("unlocked")
        XCTAssertGreaterThan(differing(shot, head: 0, from: lockBlue), head.width * head.height / 2, "the desktop did not come back")
        try type("after\n", session)
        XCTAssertTrue(try session.wait { textOfFile(typed) == "before\nafter\n" }, "foot got '\(textOfFile(typed))'")

        // A locker killed mid-lock: the session stays locked behind the fill.
        let (killed, second) = try locker(session, "locker-2")
        try waitForLine("drawn HEADLESS-1", in: second, session)
        try waitForLine("locked", in: second, session)
        kill(killed.processIdentifier, SIGKILL)
        XCTAssertTrue(try session.wait { session.log.contains("went without unlocking") }, session.log.suffix(2000).description)
        XCTAssertTrue(try session.wait {
            let s = try session.screenshot("abandoned")
            return differing(s, head: 0, from: fill) < 2_000 && differing(s, head: 1, from: fill) < 2_000
        }, "the heads do not show the fill after the locker died")
        try type("leak\n", session)
        XCTAssertEqual(try session.control.keyboard().title, "")

        // A head plugged in while locked shows the fill, then the new locker's surface.
        let (_, third) = try locker(session, "locker-3", ["--color", String(lockGreen, radix: 16)])
        try waitForLine("locked", in: third, session)
        try waitForLine("drawn HEADLESS-2", in: third, session)
        _ = try session.control.addOutput("HEADLESS-3", width: Int32(head.width), height: Int32(head.height))
        try waitForLine("configure HEADLESS-3 \(head.width) \(head.height)", in: third, session)
        try waitForLine("drawn HEADLESS-3", in: third, session)
        XCTAssertTrue(try session.wait {
            let s = try session.screenshot("third-head")
            return (0..<3).allSatisfy { differing(s, head: $0, from: lockGreen) < 2_000 }
        }, "the three heads do not all show the new locker's surfaces")

        // The new locker unlocks: foot has the keyboard, and nothing typed under the locks reached it.
        try waitForLine("keyboard-enter", in: third, session)
        try type("unlock\n", session)
        try waitForLine("unlocked", in: third, session)
        XCTAssertTrue(try session.wait { try session.control.keyboard().title == "locked-foot" })
        try type("done\n", session)
        XCTAssertTrue(try session.wait { textOfFile(typed) == "before\nafter\ndone\n" }, "foot got '\(textOfFile(typed))'")
        XCTAssertTrue(session.compositorIsRunning)
    }

    /// A live locker holds the session: a second one hears `finished`. A locker that never
    /// draws still gets `locked` (the heads show the fill, a head plugged in too), and the
    /// session does not hang.
    func testSecondLockerIsRefusedAndANonDrawingLockerLeavesTheFill() throws {
        let session = try twoHeads()
        let (silent, noSurfaces) = try locker(session, "no-surfaces", ["--no-surfaces"])
        try waitForLine("locked", in: noSurfaces, session)
        let shot = try session.screenshot("fill")
        assertHead(shot, 0, is: fill, "the fill")
        assertHead(shot, 1, is: fill, "the fill")
        // A head plugged in now shows the fill too.
        _ = try session.control.addOutput("HEADLESS-3", width: Int32(head.width), height: Int32(head.height))
        XCTAssertTrue(try session.wait { differing(try session.screenshot("third-head"), head: 2, from: fill) == 0 }, "the new head is not the fill")
        let (_, refused) = try locker(session, "refused")
        try waitForLine("finished", in: refused, session)
        // Lodestone still answers, composes and takes input.
        _ = try session.control.movePointer(x: 900, y: 200)
        XCTAssertGreaterThan(try session.control.frameCount(), 0)
        kill(silent.processIdentifier, SIGKILL)
        XCTAssertTrue(try session.wait { session.log.contains("went without unlocking") })
        let (_, rescuer) = try locker(session, "rescuer")
        try waitForLine("locked", in: rescuer, session)
        try waitForLine("drawn HEADLESS-1", in: rescuer, session)
        // Its lock surface takes the keyboard when Lodestone has its commit, after the client
        // printed "drawn": a loaded CI run typed the "u" before that, and it reached nobody.
        try waitForLine("keyboard-enter", in: rescuer, session)
        try type("unlock\n", session)
        try waitForLine("unlocked", in: rescuer, session)
        XCTAssertTrue(try session.wait { differing(try session.screenshot("unlocked"), head: 0, from: fill) > head.width * head.height / 2 })
    }

    /// Each misbehaving locker is disconnected with the error the protocol names; the
    /// session stays locked behind it (a dead locker's lock is not lifted), and a good locker
    /// unlocks at the end. Then random lock request streams (fuzz_client.py --session-lock).
    func testMisbehavingLockersAreDisconnectedAndLeaveTheSessionLocked() throws {
        let session = try twoHeads()
        let errors = [
            // First, while no lock is on: once a locker died, the next one's locked comes at once.
            ("unlock-before-locked", "unlock_and_destroy before the locked event"),
            ("destroy-after-locked", "destroyed after locked"),
            ("role", "already has the role xdg_surface"),
            ("duplicate-output", "already has a lock surface"),
            ("constructed", "already has a buffer attached or committed"),
            ("commit-before-ack", "commit before the first ack_configure"),
            ("null-buffer", "committed with a null buffer"),
            ("wrong-size", "a lock surface of 64×48 committed after acknowledging \(head.width)×\(head.height)"),
            ("bad-serial", "which is no configure awaiting an ack"),
        ]
        for (kind, message) in errors {
            let (status, output) = try run(["python3", repositoryRoot + "/Tests/clients/bad_client.py", "lock-error", kind], environment: session.clientEnvironment)
            XCTAssertEqual(status, 0, output)
            XCTAssertTrue(output.contains("RESULT: protocol-error"), "\(kind): \(output)")
            XCTAssertTrue(session.log.contains(message), "\(kind): no '\(message)' in the log:\n\(session.log.suffix(2000))")
            XCTAssertTrue(session.compositorIsRunning, kind)
        }
        // Still locked: the heads show the fill, no window has the keyboard.
        var shot = try session.screenshot("after-bad-lockers")
        assertHead(shot, 0, is: fill, "the fill")
        assertHead(shot, 1, is: fill, "the fill")

        let corpus = session.runtimeDirectory + "/fuzz-corpus"
        let (status, output) = try run(["timeout", "120", "python3", repositoryRoot + "/Tests/clients/fuzz_client.py", "10",
                                        String(UInt32.random(in: 0...9999)), corpus, "--session-lock"],
                                       environment: session.clientEnvironment.merging(["PYTHONFAULTHANDLER": "1"]) { $1 })
        XCTAssertEqual(status, 0, "the lock fuzzer found a crash (seed in \(corpus)): \(output)")
        XCTAssertTrue(output.contains("crashes 0"), output)

        // A good locker takes the session whatever the streams left, and unlocks it.
        let (_, good) = try locker(session, "good")
        try waitForLine("locked", in: good, session)
        try waitForLine("drawn HEADLESS-2", in: good, session)
        try type("unlock\n", session)
        try waitForLine("unlocked", in: good, session)
        shot = try session.screenshot("unlocked")
        XCTAssertGreaterThan(differing(shot, head: 0, from: fill), head.width * head.height / 2, "still locked after the good locker unlocked")
    }

    /// swaylock 1.7 locks both heads and unlocks with root's password. PAM checks the
    /// password in /etc/shadow; root has none here, so swaylock runs in a mount namespace of
    /// its own (`unshare -m`) where a copy of /etc/shadow with a known password for root is
    /// bound over the real one (nothing of the machine's changes).
    func testSwaylockLocksBothHeadsAndUnlocksWithThePassword() throws {
        try requireProgram("swaylock")
        try requireProgram("unshare")
        try requireProgram("openssl")
        guard getuid() == 0 else {
            if ProcessInfo.processInfo.environment["CI"] != nil { return XCTFail("swaylock's test needs root (to bind a shadow file in a mount namespace)") }
            throw XCTSkip("swaylock's test needs root (to bind a shadow file in a mount namespace)")
        }
        let session = try twoHeads()
        let password = "lodestone"
        let (_, hash) = try run(["openssl", "passwd", "-6", "-salt", "lodestone", password])
        let shadow = session.runtimeDirectory + "/shadow"
        let lines = textOfFile("/etc/shadow").split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            guard line.hasPrefix("root:") else { return String(line) }
            var fields = line.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            fields[1] = hash.trimmingCharacters(in: .whitespacesAndNewlines)
            return fields.joined(separator: ":")
        }
        try lines.joined(separator: "\n").write(toFile: shadow, atomically: true, encoding: .utf8)
        let output = session.runtimeDirectory + "/swaylock.txt"
        let swaylock = try session.launch(["unshare", "-m", "sh", "-c", "mount --bind \(shadow) /etc/shadow && exec swaylock --color 7030a0 -d"], output: output)
        XCTAssertTrue(try session.wait(timeout: 20) {
            let s = try session.screenshot("swaylock")
            return differing(s, head: 0, from: 0x7030a0) < 20_000 && differing(s, head: 1, from: 0x7030a0) < 20_000
        }, "swaylock's colour is not on both heads:\n\(textOfFile(output).suffix(2000))\n\(session.log.suffix(2000))")
        XCTAssertTrue(session.log.contains("session lock: locked by pid"))
        try type("wrong\n", session)
        // PAM's 3 s delay after a wrong password (pam_faildelay); swaylock stays.
        XCTAssertTrue(try session.wait(timeout: 10) { textOfFile(output).contains("pam_authenticate failed") || textOfFile(output).contains("Authentication failed") || textOfFile(output).contains("auth failed") })
        XCTAssertTrue(swaylock.isRunning, "swaylock unlocked with a wrong password")
        // swaylock drops keys while it still checks the last password: until it exits, Escape
        // (which empties what was typed) and the password again.
        XCTAssertTrue(try session.wait(timeout: 30) {
            try type("\u{1b}" + password + "\n", session)
            return try session.wait(timeout: 5) { !swaylock.isRunning }
        }, "swaylock did not unlock:\n\(textOfFile(output).suffix(2000))")
        XCTAssertEqual(swaylock.terminationStatus, 0)
        XCTAssertTrue(session.log.contains("session lock: unlocked by pid"), session.log.suffix(2000).description)
    }
}
