import Foundation
import LodestoneTesting
import XCTest

/// `ext_idle_notifier_v1` (Desktop/IdleNotifier.swift): swayidle's timeouts fire on the real
/// clock and its resume command runs on input injected through the test protocol; on the
/// manual clock a pywayland client (Tests/clients/idle_client.py) checks each timeout to the
/// millisecond, input starting them again, and a visible idle inhibitor holding idle off.
final class IdleNotifyTests: XCTestCase {
    private func requirePywayland() throws {
        let (status, _) = try run(["python3", "-c", "import pywayland.protocol.ext_idle_notify_v1"])
        if status != 0 {
            if ProcessInfo.processInfo.environment["CI"] != nil { XCTFail("pywayland is missing; run make deps") }
            throw XCTSkip("pywayland is missing; run make deps")
        }
    }

    /// `swayidle -w timeout 2 'touch idled' resume 'touch resumed'`, as a user's config runs it.
    func testSwayidleTimeoutAndResumeOnTheRealClock() throws {
        try requireProgram("swayidle")
        let session = try Session()
        defer { session.stop() }
        let directory = session.runtimeDirectory
        let idled = directory + "/idled", resumed = directory + "/resumed"
        let trace = directory + "/swayidle.txt"
        let started = Date()
        try session.launch(["swayidle", "-w", "timeout", "2", "touch \(idled)", "resume", "touch \(resumed)"],
                           environment: ["WAYLAND_DEBUG": "client"], output: trace)
        XCTAssertTrue(try session.wait(timeout: 10) { FileManager.default.fileExists(atPath: idled) },
                      "swayidle's timeout did not fire:\n\(textOfFile(trace).suffix(2000))")
        let waited = Date().timeIntervalSince(started)
        XCTAssertGreaterThanOrEqual(waited, 2, "idled after \(waited) s, before the 2 s timeout")
        XCTAssertTrue(textOfFile(trace).contains("ext_idle_notifier_v1@"), "swayidle did not use ext-idle-notify:\n\(textOfFile(trace).suffix(2000))")
        XCTAssertFalse(FileManager.default.fileExists(atPath: resumed))

        // Input resumes.
        _ = try session.control.movePointer(x: 300, y: 200)
        XCTAssertTrue(try session.wait(timeout: 5) { FileManager.default.fileExists(atPath: resumed) },
                      "no resume after input:\n\(textOfFile(trace).suffix(2000))")

        // Input every half second for 3 s holds idle off; then the timeout runs again.
        try FileManager.default.removeItem(atPath: idled)
        let typing = Date()
        for i in 0..<6 {
            _ = try session.control.movePointer(x: 300 + Double(i * 10), y: 200)
            usleep(500_000)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: idled), "idled while the pointer moved every 0.5 s")
        XCTAssertTrue(try session.wait(timeout: 10) { FileManager.default.fileExists(atPath: idled) })
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(typing), 3 + 2 - 0.6)
        XCTAssertFalse(session.log.contains("protocol error"), session.log)
    }

    /// idle_client.py's output, and a sync: every event sent before it is in the lines returned.
    private final class IdleClient {
        let process: Process, output: String
        private var syncs = 0, seen = 0
        init(_ session: Session, timeouts: [UInt32]) throws {
            output = session.runtimeDirectory + "/idle-client-\(UInt32.random(in: 0...UInt32.max)).txt"
            process = try session.launch(["python3", repositoryRoot + "/Tests/clients/idle_client.py"] + timeouts.map(String.init), output: output)
            guard try session.wait(timeout: 20, for: { textOfFile(self.output).contains("ready\n") }) else {
                throw TestFailure("idle_client.py did not start: \(textOfFile(output))")
            }
            seen = lines.count
        }
        private var lines: [String] { textOfFile(output).split(separator: "\n").map(String.init) }
        /// The events since the last call.
        func events(_ session: Session) throws -> [String] {
            syncs += 1
            kill(process.processIdentifier, SIGUSR1)
            let mark = "synced \(syncs)"
            guard try session.wait(timeout: 10, for: { self.lines.contains(mark) }) else { throw TestFailure("idle_client.py did not sync: \(textOfFile(output))") }
            let all = lines
            let end = all.firstIndex(of: mark)!
            defer { seen = end + 1 }
            return Array(all[seen..<end]).filter { !$0.hasPrefix("synced") }
        }
    }

    /// Each timeout to the millisecond on the manual clock; input of any kind resumes and
    /// starts every timeout again; a visible inhibitor resumes and holds idle off.
    func testTimeoutsInputAndInhibitorsOnTheManualClock() throws {
        try requirePywayland()
        let session = try Session(manualClock: true)
        defer { session.stop() }
        let control = session.control
        let client = try IdleClient(session, timeouts: [1000, 3000])

        _ = try control.advanceClock(milliseconds: 999)
        XCTAssertEqual(try client.events(session), [])
        _ = try control.advanceClock(milliseconds: 1)
        XCTAssertEqual(try client.events(session), ["idled 1000"])
        _ = try control.advanceClock(milliseconds: 1999)
        XCTAssertEqual(try client.events(session), [])
        _ = try control.advanceClock(milliseconds: 1)
        XCTAssertEqual(try client.events(session), ["idled 3000"])

        // Pointer motion resumes both.
        _ = try control.movePointer(x: 100, y: 100)
        XCTAssertEqual(try client.events(session), ["resumed 1000", "resumed 3000"])
        // A key starts the timeouts again: 999 ms after it, not 1998 ms after the motion.
        _ = try control.advanceClock(milliseconds: 999)
        try control.tap(30)
        _ = try control.advanceClock(milliseconds: 999)
        XCTAssertEqual(try client.events(session), [])
        _ = try control.advanceClock(milliseconds: 1)
        XCTAssertEqual(try client.events(session), ["idled 1000"])
        // A button, and scrolling, are input too.
        try control.click()
        XCTAssertEqual(try client.events(session), ["resumed 1000"])
        _ = try control.advanceClock(milliseconds: 1000)
        XCTAssertEqual(try client.events(session), ["idled 1000"])
        _ = try control.axis(value: 10)
        XCTAssertEqual(try client.events(session), ["resumed 1000"])
        _ = try control.advanceClock(milliseconds: 1000)
        XCTAssertEqual(try client.events(session), ["idled 1000"])

        // A window with an idle inhibitor shows: the idled notification resumes, and no
        // timeout fires while it is on screen.
        let inhibitor = try session.launch(["python3", repositoryRoot + "/Tests/clients/surface_client.py", "idle-inhibit"],
                                           output: session.runtimeDirectory + "/inhibitor.txt")
        _ = try session.waitForWindow("idle-inhibit")
        XCTAssertEqual(try client.events(session), ["resumed 1000"])
        _ = try control.advanceClock(milliseconds: 10_000)
        XCTAssertEqual(try client.events(session), [])

        // Gone: the timeouts run from then.
        inhibitor.terminate()
        inhibitor.waitUntilExit()
        XCTAssertTrue(try session.wait { try control.windows().isEmpty })
        _ = try control.advanceClock(milliseconds: 999)
        XCTAssertEqual(try client.events(session), [])
        _ = try control.advanceClock(milliseconds: 1)
        XCTAssertEqual(try client.events(session), ["idled 1000"])
        _ = try control.advanceClock(milliseconds: 2000)
        XCTAssertEqual(try client.events(session), ["idled 3000"])

        // A second client's notification counts from its own creation.
        let late = try IdleClient(session, timeouts: [500])
        _ = try control.advanceClock(milliseconds: 500)
        XCTAssertEqual(try late.events(session), ["idled 500"])
        XCTAssertEqual(try client.events(session), [])
        XCTAssertTrue(session.compositorIsRunning)
    }
}
