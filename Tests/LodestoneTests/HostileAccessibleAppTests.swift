import Foundation
import LodestoneTesting
import XCTest

/// An app on the AT-SPI bus that lies (issue 24): Tests/clients/hostile_atspi_app.py registers
/// as a real app does, maps a window whose cursor is the text shape, and answers Lodestone's
/// walk with wrong types, absurd extents, a cycle, a million children, stalls, a disconnect or
/// a flood of signals. In each case Lodestone stays up, each walk ends within its bounds
/// (`AccessibleWalk`: 3,000 nodes, 4 s and a call's 1 s timeout), frames keep the pace they
/// had before the app came (weston-simple-shm animates throughout, on the real clock), and
/// the pointer over the window is the beam its cursor name asks for.
///
/// What they found (debug build, two shared cores, weston-simple-shm at 62-63 fps throughout):
/// - absurd extents (a button INT32_MAX wide) and a frame at INT32_MIN: Lodestone aborted in
///   `DrawnOutline` (Double to Int32 past Int32.max) within a second of the walk: the whole
///   session gone. Short of that, a 200,000 px "button" captured the pointer. Now: extents past
///   65,536 px, elements outside their window and lines no font has are dropped.
/// - a cycle: every walk visited 3,000 nodes (the node limit) in about 2 s; now 3, in 4 ms.
/// - stalls: no walk ended within 12 s (5,000 texts, two 1 s timeouts each, 64 at a time);
///   now each ends at the 4 s limit.
/// - a million children: the reply was read whole on the loop: 48.7 fps, a round trip of
///   817 ms, 24% CPU; now no more are read than nodes are left: 61.6 fps, 56 ms, 16%.
/// - a million frames at the app's root: each was asked its name and size at once, 2,000,000
///   calls: 7.3 fps, a round trip of 19.7 s, no walk; now 64 of the app's own: 62.0 fps, 61 ms.
/// - wrong types, a disconnect and a flood of signals did no harm before either.
final class HostileAccessibleAppTests: XCTestCase {
    private var bus: PrivateSessionBus!
    private var session: Session!
    private var probe: PointerShapeProbe!
    static let app = repositoryRoot + "/Tests/clients/hostile_atspi_app.py"
    /// The hostile window, moved here: 400×300.
    static let (wx, wy) = (60.0, 80.0)

    /// Under `make asan` times are AddressSanitizer's: the pace is not asserted there.
    private var sanitized: Bool { ProcessInfo.processInfo.environment["LODESTONE_SANITIZED"] != nil }

    override func setUpWithError() throws {
        try requireProgram("dbus-daemon")
        try requireProgram("weston-simple-shm")
        for (ok, what) in [(FileManager.default.isExecutableFile(atPath: "/usr/libexec/at-spi-bus-launcher"), "at-spi2-core"),
                           (Process.canRun("/usr/bin/python3", ["-c", "import gi"]), "python3-gi"),
                           (Process.canRun("python3", ["-c", "import pywayland"]), "pywayland")] where !ok {
            if ProcessInfo.processInfo.environment["CI"] != nil { XCTFail("\(what) is not installed; run make deps") }
            throw XCTSkip("\(what) is not installed; run make deps")
        }
        bus = try PrivateSessionBus()
        session = try Session(size: "1280x800", environment: bus.environment)
        probe = try PointerShapeProbe(session: session)
        try session.launch(["weston-simple-shm"])
        _ = try session.waitForWindow("simple-shm")
        try session.control.moveWindow("simple-shm", x: 700, y: 100)
    }

    override func tearDown() {
        session?.stop()
        bus?.stop()
        session = nil
        bus = nil
        probe = nil
    }

    /// Frames per second and the slowest round trip (s) over `seconds`, the pointer moving
    /// about (x, y) all the while, so that the window under it is walked again and again.
    private func pace(seconds: Double, x: Double, y: Double) throws -> (fps: Double, worst: Double, overASecond: Int, cpu: Double) {
        let start = Date(), first = try session.control.frameCount(), cpu = compositorCPU()
        var worst = 0.0, k = 0, overASecond = 0
        while Date().timeIntervalSince(start) < seconds {
            let t = Date()
            try session.control.movePointer(x: x + Double(k % 7) * 3, y: y + Double(k % 5) * 3)
            _ = try session.control.frameCount()
            let roundTrip = Date().timeIntervalSince(t)
            worst = max(worst, roundTrip)
            if roundTrip >= 1 { overASecond += 1 }
            k += 1
            usleep(10_000)
        }
        let frames = Double(try session.control.frameCount() &- first)
        let elapsed = Date().timeIntervalSince(start)
        return (frames / elapsed, worst, overASecond, (compositorCPU() - cpu) / elapsed)
    }

    /// Lodestone's user and system CPU time so far, in seconds.
    private func compositorCPU() -> Double {
        let stat = textOfFile("/proc/\(session.compositorPID)/stat")
        guard let close = stat.range(of: ")") else { return 0 }
        let fields = stat[close.upperBound...].split(separator: " ")
        return Double((Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// The walks of the hostile window the log tells of: nodes and milliseconds each, and the
    /// longest wake-up of Lodestone's loop for the accessibility bus since the walk before
    /// (milliseconds, wall and CPU: what the walk could delay a frame by).
    private func walks() -> [(nodes: Int, ms: Int, wakeUpWall: Double, wakeUpCPU: Double, line: String)] {
        session.log.split(separator: "\n").filter { $0.contains("accessibility: walked 'hostile-a11y'") }.map { line in
            let numbers = line.split(separator: ":").last!.split(separator: ",").map { Int($0.split(separator: " ").first ?? "") ?? -1 }
            func figure(after label: String) -> Double {
                line.range(of: label).flatMap { Double(line[$0.upperBound...].prefix { $0 == "." || $0.isNumber }) } ?? -1
            }
            return (numbers[0], numbers.count > 2 ? numbers[2] : -1, figure(after: "longest wake-up "), figure(after: " ms wall, "), String(line))
        }
    }

    /// Starts the app in `mode`, measures the pace without and with it, and checks the rest.
    @discardableResult
    /// `wakeUpCPU`: the most CPU milliseconds one wake-up of the loop for the accessibility
    /// bus may take.
    private func misbehave(_ mode: String, seconds: Double = 9, wakeUpCPU: Double = 50, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let baseline = try pace(seconds: 2, x: Self.wx + 150, y: Self.wy + 150)
        let output = session.runtimeDirectory + "/hostile-\(mode).out"
        let app = try session.launch(["/usr/bin/python3", Self.app, mode], environment: bus.environment, output: output)
        _ = try session.waitForWindow("hostile-a11y", timeout: 60)
        let w = try session.control.moveWindow("hostile-a11y", x: Int32(Self.wx), y: Int32(Self.wy))
        print("the window: \(w)")
        let during = try pace(seconds: seconds, x: Self.wx + 150, y: Self.wy + 150)
        let said = textOfFile(output)
        print("\(mode): \(String(format: "%.1f", baseline.fps)) fps before, \(String(format: "%.1f", during.fps)) with the app; worst round trip \(Int(baseline.worst * 1000)) ms before, \(Int(during.worst * 1000)) ms with it; Lodestone's CPU \(Int(baseline.cpu * 100))% before, \(Int(during.cpu * 100))% with it; walks (nodes/ms, the longest wake-up's CPU ms) \(walks().map { "\($0.nodes)/\($0.ms)ms/\($0.wakeUpCPU)" })")
        XCTAssertTrue(session.compositorIsRunning, "Lodestone died:\n\(session.log.suffix(3000))", file: file, line: line)
        XCTAssertTrue(said.contains("registered"), "the app did not register: \(said)", file: file, line: line)
        XCTAssertTrue(app.isRunning, "the app is gone: \(said)", file: file, line: line)
        if !sanitized {
            // Frames keep coming; their rate beside the app is the machine's as much as
            // Lodestone's (the app takes CPU too: on two cores also busy with two loops and
            // other tests, the stall mode's 37.3 fps against 62.8 before missed the 0.6 this
            // used to ask for). What the walks cost the loop is asserted below, as Lodestone
            // measures it; the rates are printed above.
            XCTAssertGreaterThan(during.fps, baseline.fps * 0.1, "frames stopped", file: file, line: line)
            // A loop that waited on the app would wait a D-Bus call's timeout (1 s,
            // DBusConnection.callTimeout) at every call it made to the app: round trips over
            // a second, again and again. One alone is the machine's: on two cores busy with
            // other tests one took 509 ms, and in a loaded CI run beside a million children
            // one took 1.30 s, while Lodestone's own longest wake-up for the walks was tens of
            // milliseconds (asserted below).
            XCTAssertLessThanOrEqual(during.overASecond, 1, "\(during.overASecond) round trips over a second (the worst \(during.worst) s): the loop waited on the app", file: file, line: line)
            XCTAssertLessThan(during.worst, 2, "a round trip took \(during.worst) s: the loop waited on the app twice", file: file, line: line)
        }
        for walk in walks() {
            XCTAssertLessThanOrEqual(walk.nodes, 3000, walk.line, file: file, line: line)
            // The walk's time limit is 4 s; it is checked between wake-ups, so a walk may
            // overrun it by the wake-up in progress (under make asan and two busy loops one
            // wake-up decoding the million frames took 9.1 s wall, 3.9 s CPU: a walk of 9.9 s).
            XCTAssertLessThan(Double(walk.ms), 6000 + max(0, walk.wakeUpWall), walk.line, file: file, line: line)
            // What a walk itself held the loop for, as Lodestone measures it: wall time (which
            // counts the loop descheduled too), and CPU time, a few frames at most (16.5 ms was
            // the most seen, a million children in the debug build).
            if !sanitized {
                XCTAssertLessThan(walk.wakeUpWall, 500, walk.line, file: file, line: line)
                XCTAssertLessThan(walk.wakeUpCPU, wakeUpCPU, walk.line, file: file, line: line)
            }
        }
        // The cursor name still decides: the text shape is the beam.
        let beam = try session.wait(timeout: 10) {
            try session.control.movePointer(x: Self.wx + 300 + Double.random(in: -1...1), y: Self.wy + 250)
            return try probe.shape().kind == .verticalBeam
        }
        let shape = try probe.shape()
        XCTAssertTrue(beam, "not the beam over the text cursor: \(shape)\n\(session.log.suffix(2000))", file: file, line: line)
        return said
    }

    /// The well-behaved app: its button is highlighted, so the hostile modes are walked too.
    func testTheAppIsWalkedWhenItTellsTheTruth() throws {
        try misbehave("good", seconds: 4)
        let highlighted = try session.wait(timeout: 10) {
            try session.control.movePointer(x: Self.wx + 80 + Double.random(in: -1...1), y: Self.wy + 40)
            return try probe.shape().effect == .highlight
        }
        let shape = try probe.shape()
        XCTAssertTrue(highlighted, "the button at 20,20 is not highlighted: \(shape)\n\(session.log.suffix(3000))")
        XCTAssertFalse(walks().isEmpty, "no walk of the window:\n\(session.log.suffix(3000))")
    }

    func testWrongTypes() throws {
        try misbehave("wrong-types")
        XCTAssertFalse(walks().isEmpty, "no walk of the window")
    }

    /// The root and the frame lie too (a different wrong signature each second): no frame, no walk.
    func testWrongTypesAtTheRoot() throws {
        try misbehave("wrong-root")
        XCTAssertFalse(try probe.shape().targeted)
    }

    func testAbsurdExtentsAndLines() throws {
        try misbehave("absurd")
        XCTAssertFalse(walks().isEmpty, "no walk of the window")
        // Extents that lie are not kept: the window is read again (issue 27).
        XCTAssertTrue(walks().contains { $0.line.contains("extents that lie") }, "\(walks().map(\.line))")
    }

    func testAbsurdFrame() throws {
        try misbehave("absurd-frame")
        XCTAssertFalse(try probe.shape().targeted, "a region from a frame at INT32_MIN")
    }

    func testCycleIsWalkedOnce() throws {
        try misbehave("cycle")
        let all = walks()
        XCTAssertFalse(all.isEmpty, "no walk of the window")
        for walk in all { XCTAssertLessThanOrEqual(walk.nodes, 3, "the frame and two labels: \(walk.line)") }
    }

    func testAMillionChildren() throws {
        try misbehave("million", seconds: 12)
        XCTAssertFalse(walks().isEmpty, "no walk of the window")
    }

    /// A million frames at the root: no more than 64 are asked their name and size. The root's
    /// answer is one message of about 50 MB, which sd-bus reads and checks whole before
    /// Lodestone sees it: the pages it grows into are that wake-up's CPU time too (4-12 ms
    /// alone here; 93 ms in a loaded CI run, where faulting in 50 MB costs more), so the
    /// wake-up may take longer than a walk's own, though still not a D-Bus timeout.
    func testAMillionFrames() throws {
        try misbehave("frames", seconds: 12, wakeUpCPU: 250)
    }

    /// The root never answers: the pointer has its cursor names, the frame is asked again.
    func testStalledRoot() throws {
        try misbehave("stall-root")
    }

    func testStalls() throws {
        try misbehave("stall", seconds: 12)
        let all = walks()
        XCTAssertFalse(all.isEmpty, "no walk of the window")
        for walk in all { XCTAssertLessThan(walk.ms, 5500, "4 s and a call's timeout: \(walk.line)") }
        // The stalling app holds each walk until its time limit ends it. A walk may also end
        // sooner, when one of the app's stalled replies outlasts a call's timeout (1 s): the
        // sanitized run's third walk took the root and nothing more in 2295 ms.
        XCTAssertTrue(all.contains { $0.line.contains("time limit (4.0 s)") }, "no walk was ended by its time limit: \(all.map(\.line))")
    }

    func testDisconnectMidWalk() throws {
        let said = try misbehave("disconnect")
        XCTAssertTrue(said.contains("left the bus"), said)
    }

    func testFloodOfEvents() throws {
        try misbehave("flood", seconds: 12)
    }
}
