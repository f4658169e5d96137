import Foundation
import LodestoneTesting
import XCTest

/// Nested Lodestone under a parent that says odd things (issue 24): `lodestone-odd-parent`, a
/// tiny libwayland-server compositor, sends configures of 0×0, 2³¹-1 and negative sizes,
/// wl_output scales of 0 and 2³¹-1, fractional scales of 0 and 2³²-1, and keymaps that do not
/// compile, cannot be mapped, or claim more bytes than their file has. Each is said at the
/// start and again every 300 ms. Lodestone must keep running and answering, with the size or
/// scale clamped or the event ignored, and say so in its log.
final class NestedOddParentTests: XCTestCase {
    // MARK: Configures

    func testZeroByZeroConfigureKeepsTheOutputSize() throws {
        let (nested, parent) = try nest(in: ["--configure", "0", "0"])
        defer { stop(nested, parent) }
        try assertAlive(nested)
        let size = try nested.control.capturePNG(to: nested.runtimeDirectory + "/odd-\(nested.socket).png")
        XCTAssertEqual(size.width, 400)
        XCTAssertEqual(size.height, 300)
    }

    /// The first configure smaller than --size: the damage of the 400×300 mode was filled
    /// into the 300×200 image, past its end (a segfault in pixman).
    func testFirstConfigureSmallerThanTheOutputSize() throws {
        let (nested, parent) = try nest(in: ["--configure", "300", "200"])
        defer { stop(nested, parent) }
        try assertAlive(nested)
        let size = try nested.control.capturePNG(to: nested.runtimeDirectory + "/odd-\(nested.socket).png")
        XCTAssertEqual(size.width, 300)
        XCTAssertEqual(size.height, 200)
    }

    func testHugeConfigureIsClamped() throws {
        let (nested, parent) = try nest(in: ["--configure", "2147483647", "2147483647"])
        defer { stop(nested, parent) }
        try assertAlive(nested)
        XCTAssertTrue(nested.log.contains("larger than Lodestone draws"), String(nested.log.suffix(3000)))
    }

    func testNegativeConfigureIsIgnored() throws {
        let (nested, parent) = try nest(in: ["--configure", "-5", "-2147483648"])
        defer { stop(nested, parent) }
        try assertAlive(nested)
        let size = try nested.control.capturePNG(to: nested.runtimeDirectory + "/odd-\(nested.socket).png")
        XCTAssertEqual(size.width, 400)
        XCTAssertEqual(size.height, 300)
    }

    // MARK: Scales

    func testOutputScaleZeroIsOne() throws {
        let (nested, parent) = try nest(in: ["--scale", "0"])
        defer { stop(nested, parent) }
        try assertAlive(nested)
    }

    func testHugeOutputScaleIsClamped() throws {
        let (nested, parent) = try nest(in: ["--scale", "2147483647"])
        defer { stop(nested, parent) }
        try assertAlive(nested)
        XCTAssertTrue(nested.log.contains("scale 2147483647 is more than"), String(nested.log.suffix(3000)))
    }

    func testNegativeOutputScaleIsOne() throws {
        let (nested, parent) = try nest(in: ["--scale", "-3"])
        defer { stop(nested, parent) }
        try assertAlive(nested)
    }

    func testFractionalScaleZeroAndHugeAreIgnored() throws {
        for v120 in ["0", "4294967295", "2147483648"] {
            let (nested, parent) = try nest(in: ["--fractional", v120, "--configure", "300", "200"])
            defer { stop(nested, parent) }
            try assertAlive(nested)
            XCTAssertTrue(nested.log.contains("preferred fractional scale \(v120)/120"), String(nested.log.suffix(3000)))
        }
    }

    /// A 1×1 window at a fractional scale of 1/120 had no output pixel: the output's image
    /// trapped on its precondition (found by the random parent). It is one pixel now.
    func testOneByOneWindowAtTheSmallestFractionalScale() throws {
        let (nested, parent) = try nest(in: ["--fractional", "1", "--configure", "1", "1"])
        defer { stop(nested, parent) }
        try assertAlive(nested)
        let size = try nested.control.capturePNG(to: nested.runtimeDirectory + "/odd-\(nested.socket).png")
        XCTAssertGreaterThanOrEqual(min(size.width, size.height), 1)
    }

    // MARK: Keymaps

    func testKeymapThatDoesNotCompileKeepsTheDefaultLayout() throws {
        let (nested, parent) = try nest(in: ["--keymap", "garbage"])
        defer { stop(nested, parent) }
        try assertAlive(nested)
        XCTAssertTrue(nested.log.contains("keymap does not compile"), String(nested.log.suffix(3000)))
    }

    /// A size past the end of the keymap's file: reading the mapping there was SIGBUS.
    func testKeymapSizeLargerThanItsFileIsRefused() throws {
        for kind in ["oversize", "huge"] {
            let (nested, parent) = try nest(in: ["--keymap", kind])
            defer { stop(nested, parent) }
            try assertAlive(nested)
            XCTAssertTrue(nested.log.contains("keymap claims"), "\(kind): " + String(nested.log.suffix(3000)))
        }
    }

    func testKeymapOnAPipeOrEmptyIsRefused() throws {
        for kind in ["pipe", "empty"] {
            let (nested, parent) = try nest(in: ["--keymap", kind])
            defer { stop(nested, parent) }
            try assertAlive(nested)
        }
    }

    // MARK: Input

    /// Pointer positions and scrolls at the ends of wl_fixed's range, buttons and key codes of
    /// 0xffffffff, button and key states that are neither pressed nor released, held keys on
    /// enter, every modifier mask bit set, and repeat rates of -1 and 2³¹-1, every 300 ms.
    func testInputAtTheEndsOfEveryRange() throws {
        let (nested, parent) = try nest(in: ["--input"])
        defer { stop(nested, parent) }
        try assertAlive(nested)
        usleep(1_000_000)
        try assertAlive(nested)
    }

    // MARK: The parent's input method

    /// `--text-input`: every 300 ms the parent's input method says odd things to Lodestone's
    /// text input while a pywayland text field inside is enabled (`ParentTextInput`). The field
    /// gets what is within the protocol (the "odd" preedit, its cursor -1…99 kept within its
    /// 3 bytes; deletions as sent; text that was not UTF-8, repaired) and none of the text over 4000 bytes; it
    /// stays connected and Lodestone keeps running.
    func testOddInputMethodEventsReachTheFieldOnlyWithinTheProtocol() throws {
        let (status, _) = try run(["python3", "-c", "import pywayland"])
        if status != 0 {
            if ProcessInfo.processInfo.environment["CI"] != nil { XCTFail("pywayland is missing; run make deps") }
            throw XCTSkip("pywayland is missing; run make deps")
        }
        let (nested, parent) = try nest(in: ["--text-input", "--subcompositor"])
        defer { stop(nested, parent) }
        let field = nested.runtimeDirectory + "/odd-field-\(nested.socket).txt"
        try nested.launch(["python3", repositoryRoot + "/Tests/clients/input_method_client.py", "text-field"], output: field)
        func lines() -> [String] { textOfFile(field).split(separator: "\n").map(String.init) }
        XCTAssertTrue(try nested.wait(timeout: 20) { lines().filter { $0.hasPrefix("done ") }.count >= 6 }, "field:\n\(textOfFile(field).prefix(3000))\n\(nested.log.suffix(3000))")
        try assertAlive(nested)
        let seen = lines()
        XCTAssertTrue(seen.contains("preedit odd 0 3"), "\(seen.prefix(40))")
        XCTAssertTrue(seen.contains("delete 4294967295 4294967295"), "\(seen.prefix(40))")
        XCTAssertTrue(seen.contains("commit \u{FFFD}\u{FFFD} not UTF-8"), "\(seen.prefix(40))")
        XCTAssertFalse(seen.contains { $0.count > 4000 }, "text over the protocol's limit reached the field")
        XCTAssertFalse(seen.contains("disconnected"), "the field was disconnected:\n\(nested.log.suffix(3000))")
    }

    // MARK: A random parent

    /// `lodestone-odd-parent --random`: every 100 ms a configure, a wl_output scale, a
    /// fractional scale, an output entered or left and a round of odd input, each value at or
    /// near the ends of its range, for LODESTONE_ODD_PARENT_SECONDS (default 3) per seed, over
    /// the seeds 1...LODESTONE_ODD_PARENT_SEEDS (default 4) and one from the clock. The seed of
    /// a failure is in its message: `lodestone-odd-parent SOCKET --random SEED` tells it again.
    func testRandomParentLeavesLodestoneRunning() throws {
        let env = ProcessInfo.processInfo.environment
        let seconds = env["LODESTONE_ODD_PARENT_SECONDS"].flatMap(Double.init) ?? 3
        let count = env["LODESTONE_ODD_PARENT_SEEDS"].flatMap(UInt32.init) ?? 4
        for seed in Array(1...max(1, count)) + [UInt32(truncatingIfNeeded: time(nil))] {
            let (nested, parent) = try nest(in: ["--random", "\(seed)"])
            defer { stop(nested, parent) }
            usleep(UInt32(seconds * 1_000_000))
            XCTAssertTrue(nested.compositorIsRunning, "seed \(seed): nested Lodestone exited:\n\(nested.log.suffix(3000))")
            guard nested.compositorIsRunning else { continue }
            _ = try nested.control.movePointer(x: 10, y: 10)
        }
    }

    // MARK: The parent's cursor over Lodestone's own title bar

    /// A parent without cursor-shape: over the bar Lodestone shows its Xcursor theme's arrow,
    /// at XCURSOR_SIZE times the scale. XCURSOR_SIZE=2147483647 at scale 2 trapped (SIGILL).
    func testOddXcursorSizeOverTheTitleBar() throws {
        for size in ["2147483647", "-2147483648", "0", "abc"] {
            let (nested, parent) = try nest(in: ["--subcompositor", "--scale", "2"], environment: ["XCURSOR_SIZE": size])
            defer { stop(nested, parent) }
            try assertAlive(nested)
            XCTAssertTrue(nested.log.contains("draws its own"), "no title bar of Lodestone's own:\n\(nested.log.suffix(3000))")
        }
    }

    /// A FIFO as the theme's arrow: libXcursor's fopen would wait for a writer for good.
    func testFIFOCursorOverTheTitleBarDoesNotHang() throws {
        let dir = NSTemporaryDirectory() + "lodestone-odd-cursor-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: dir + "/fifo/cursors", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        XCTAssertEqual(mkfifo(dir + "/fifo/cursors/left_ptr", 0o644), 0)
        let (nested, parent) = try nest(in: ["--subcompositor"], environment: ["XCURSOR_PATH": dir, "XCURSOR_THEME": "fifo"])
        defer { stop(nested, parent) }
        try assertAlive(nested)
    }

    // MARK: Helpers

    /// Starts lodestone-odd-parent with `arguments` and a 400×300 Lodestone nested in it.
    // MARK: linux-dmabuf

    /// The parent's zwp_linux_dmabuf_v1 (issue 37): nested Lodestone reads its feedback (a
    /// table with a tiled and a YUV pair, a duplicate, an index past its end, a scan-out
    /// tranche on another device) and offers its clients the parent's main device, with the
    /// pairs it reads itself (what parent planes cannot yet take over).
    func testParentsDmabufMainDeviceIsOffered() throws {
        let (nested, parent) = try nest(in: ["--dmabuf", "226:7"])
        defer { stop(nested, parent) }
        try assertAlive(nested)
        let (status, output) = try run(["python3", repositoryRoot + "/Tests/clients/dmabuf_client.py", "feedback"], environment: nested.clientEnvironment)
        XCTAssertEqual(status, 0, output)
        XCTAssertTrue(output.contains("default main_device 226:7\n"), output)
        XCTAssertTrue(output.contains("default table XR24:0x0 AR24:0x0\n"), output)
        XCTAssertTrue(output.contains("default tranche 226:7 flags 0 formats XR24:0x0 AR24:0x0\ndefault done"), output)
        XCTAssertTrue(nested.log.contains("the parent's linux-dmabuf: main device 226:7, 4 format and modifier pairs in 2 tranches"),
                      String(nested.log.suffix(3000)))
    }

    /// The parent's feedback changes (its main device, as when its GPU changes): the clients'
    /// feedback objects hear it again, whole.
    func testParentsDmabufFeedbackChangeReachesTheClients() throws {
        let (nested, parent) = try nest(in: ["--dmabuf", "226:7", "--dmabuf-changing"])
        defer { stop(nested, parent) }
        try assertAlive(nested)
        let (status, output) = try run(["python3", repositoryRoot + "/Tests/clients/dmabuf_client.py", "feedback-watch", "2"], environment: nested.clientEnvironment)
        XCTAssertEqual(status, 0, output)
        XCTAssertTrue(output.contains("main_device 226:7\n") && output.contains("main_device 226:8\n"), output)
    }

    private func nest(in arguments: [String], environment: [String: String] = [:]) throws -> (Session, Process) {
        let program = URL(fileURLWithPath: Session.executable).deletingLastPathComponent().appendingPathComponent("lodestone-odd-parent").path
        guard FileManager.default.isExecutableFile(atPath: program) else { throw XCTSkip("\(program) is not built") }
        let runtime = NSTemporaryDirectory() + "lodestone-odd-parent-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let socket = "odd-parent"
        let parent = Process()
        parent.executableURL = URL(fileURLWithPath: program)
        parent.arguments = [socket] + arguments
        parent.environment = ProcessInfo.processInfo.environment.merging(["XDG_RUNTIME_DIR": runtime]) { $1 }
        parent.standardOutput = FileHandle.nullDevice
        parent.standardError = FileHandle.nullDevice
        try parent.run()
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: runtime + "/" + socket) {
            guard parent.isRunning, Date() < deadline else { parent.terminate(); throw XCTSkip("lodestone-odd-parent did not start") }
            usleep(10_000)
        }
        do {
            let nested = try Session(size: "400x300", nestedIn: Session.Parent(runtimeDirectory: runtime, socket: socket), environment: environment)
            return (nested, parent)
        } catch {
            parent.terminate()
            parent.waitUntilExit()
            throw error
        }
    }

    /// Lodestone runs after the parent has repeated its odd events a few times, and answers.
    private func assertAlive(_ nested: Session, file: StaticString = #filePath, line: UInt = #line) throws {
        usleep(1_200_000)
        XCTAssertTrue(nested.compositorIsRunning, "nested Lodestone exited:\n\(nested.log.suffix(3000))", file: file, line: line)
        guard nested.compositorIsRunning else { return }
        _ = try nested.control.movePointer(x: 10, y: 10)
        XCTAssertTrue(nested.compositorIsRunning, "nested Lodestone exited:\n\(nested.log.suffix(3000))", file: file, line: line)
    }

    private func stop(_ nested: Session, _ parent: Process) {
        nested.stop()
        if parent.isRunning { parent.terminate() }
        parent.waitUntilExit()
    }
}
