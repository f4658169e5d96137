import Foundation
import LodestoneTesting
import XCTest

/// The executable: clear messages for bad flags, the cage-like command mode, clean shutdown.
final class CommandLineTests: XCTestCase {
    private var runtime: String!

    override func setUpWithError() throws {
        runtime = NSTemporaryDirectory() + "lodestone-cli-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        // Private, as Lodestone requires of XDG_RUNTIME_DIR.
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    /// Every exit path removes the socket and its lock file.
    override func tearDownWithError() throws {
        let left = try FileManager.default.contentsOfDirectory(atPath: runtime).filter { !$0.hasSuffix(".png") }
        XCTAssertEqual(left, [], "left behind in XDG_RUNTIME_DIR")
        try? FileManager.default.removeItem(atPath: runtime)
    }

    private func lodestone(_ arguments: [String]) throws -> (status: Int32, output: String) {
        var env = ProcessInfo.processInfo.environment
        env["XDG_RUNTIME_DIR"] = runtime
        env["XDG_CONFIG_HOME"] = runtime + "/no-config"  // never the user's config.toml
        env.removeValue(forKey: "WAYLAND_DISPLAY")
        return try run([Session.executable] + arguments, environment: env)
    }

    // MARK: XDG_RUNTIME_DIR (issue 17: another user's directory put them between us and every app)

    func testRuntimeDirectoryOpenToOthersIsRefused() throws {
        chmod(runtime, 0o777)
        let (status, output) = try lodestone(["--socket", "cli-open", "--", "true"])
        XCTAssertNotEqual(status, 0, "lodestone used a world-writable XDG_RUNTIME_DIR:\n\(output)")
        XCTAssertTrue(output.contains("XDG_RUNTIME_DIR") && output.contains("0700"), output)
        XCTAssertFalse(FileManager.default.fileExists(atPath: runtime + "/cli-open"), "a socket was made there")
    }

    func testRuntimeDirectoryOfAnotherUserIsRefused() throws {
        // Owned by someone else: root's /, seen from here, or any directory not ours.
        let foreign = getuid() == 0 ? runtime + "/foreign" : "/"
        if getuid() == 0 {
            mkdir(foreign, 0o700)
            XCTAssertEqual(chown(foreign, 65534, 65534), 0)
        }
        defer { if getuid() == 0 { rmdir(foreign) } }
        var env = ProcessInfo.processInfo.environment
        env["XDG_RUNTIME_DIR"] = foreign
        env.removeValue(forKey: "WAYLAND_DISPLAY")
        let (status, output) = try run([Session.executable, "--socket", "cli-foreign", "--", "true"], environment: env)
        XCTAssertNotEqual(status, 0, output)
        XCTAssertTrue(output.contains("belongs to uid"), output)
    }

    func testUnsetRuntimeDirectoryGetsAPrivateOneOfItsOwn() throws {
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "XDG_RUNTIME_DIR")
        env.removeValue(forKey: "WAYLAND_DISPLAY")
        // The command prints where it runs; that directory is private and new.
        let (status, output) = try run([Session.executable, "--socket", "cli-unset", "--", "sh", "-c",
                                        #"stat -c '%a %u' "$XDG_RUNTIME_DIR"; echo "dir=$XDG_RUNTIME_DIR""#], environment: env)
        XCTAssertEqual(status, 0, output)
        XCTAssertTrue(output.contains("700 \(getuid())"), output)
        let dir = output.split(separator: "\n").first { $0.hasPrefix("dir=") }.map { String($0.dropFirst(4)) }
        XCTAssertNotNil(dir, output)
        if let dir {
            XCTAssertNotEqual(dir, "/tmp/lodestone-runtime-\(getuid())", "a predictable name another user could take first")
            try? FileManager.default.removeItem(atPath: dir)
        }
    }

    func testBadFlagsGiveAMessageAndANonZeroExit() throws {
        for (arguments, mention) in [(["--size", "12x"], "--size"), (["--scale", "9"], "--scale"), (["--bogus"], "--bogus"),
                                     (["--manual-clock"], "--test-control"), (["--refresh", "0"], "--refresh"),
                                     (["--socket", "a/b"], "--socket"), (["--backend", "drm9"], "--backend"),
                                     (["--pointer-style", "cross"], "--pointer-style"), (["--max-render-time", "soon"], "--max-render-time")] {
            let (status, output) = try lodestone(arguments)
            XCTAssertNotEqual(status, 0, "\(arguments) was accepted")
            XCTAssertTrue(output.contains(mention), "\(arguments): message does not mention \(mention):\n\(output)")
            XCTAssertFalse(output.contains("Fatal error") || output.contains("Backtrace"), "\(arguments) crashed:\n\(output)")
        }
    }

    /// No GPU, no input devices, no seat here: `--backend drm` says what is missing, quickly,
    /// with status 1 and no trace.
    /// A bad config.toml at start-up: the file, line and key, status 1, no trace, and no
    /// socket left behind. A missing --config file is named too.
    func testBadConfigFileStopsStartUpWithKeyAndLine() throws {
        let dir = NSTemporaryDirectory() + "lodestone-cli-config-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: dir + "/lodestone", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/lodestone/config.toml"
        try "[appearance]\nsize = 2\n\n[behaviour]\nreduce-motion = \"yes\"\n".write(toFile: file, atomically: true, encoding: .utf8)
        var env = ProcessInfo.processInfo.environment
        env["XDG_RUNTIME_DIR"] = runtime
        env["XDG_CONFIG_HOME"] = dir
        env.removeValue(forKey: "WAYLAND_DISPLAY")
        let (status, output) = try run([Session.executable, "--socket", "cli-config", "--timeout", "5"], environment: env)
        XCTAssertEqual(status, 1, output)
        XCTAssertTrue(output.contains("\(file):5: behaviour.reduce-motion: must be true or false"), output)
        XCTAssertFalse(output.contains("Fatal error") || output.contains("Backtrace"), "crashed:\n\(output)")

        let (missing, said) = try lodestone(["--socket", "cli-config", "--config", dir + "/nope.toml", "--timeout", "5"])
        XCTAssertEqual(missing, 1, said)
        XCTAssertTrue(said.contains("nope.toml does not exist"), said)
    }

    /// Issue 24's file, which made toml++ abort inside Lodestone at start-up: now the file,
    /// the line and what happened, status 1, no trace (the parser's abort stays in its child).
    func testHalfTypedTableHeaderStopsStartUpWithTheLine() throws {
        let dir = NSTemporaryDirectory() + "lodestone-cli-config-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: dir + "/lodestone", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/lodestone/config.toml"
        try "[appearance]\nsize = 2\n[[[\n".write(toFile: file, atomically: true, encoding: .utf8)
        var env = ProcessInfo.processInfo.environment
        env["XDG_RUNTIME_DIR"] = runtime
        env["XDG_CONFIG_HOME"] = dir
        env.removeValue(forKey: "WAYLAND_DISPLAY")
        let (status, output) = try run([Session.executable, "--socket", "cli-config", "--timeout", "5"], environment: env)
        XCTAssertEqual(status, 1, output)
        XCTAssertTrue(output.contains("\(file):3: "), "names the file and line 3:\n\(output)")
        XCTAssertFalse(["Fatal error", "Backtrace", "Assertion", "toml.hpp"].contains(where: output.contains), "crashed:\n\(output)")
    }

    func testDRMBackendWithoutDevicesFailsCleanlyAndQuickly() throws {
        try XCTSkipIf(FileManager.default.fileExists(atPath: "/dev/dri"), "this machine has a DRM device")
        let start = Date()
        let (status, output) = try lodestone(["--backend", "drm"])
        XCTAssertLessThan(Date().timeIntervalSince(start), 1, "failing must not wait for anything")
        XCTAssertEqual(status, 1)
        XCTAssertTrue(output.contains("no DRM device"), "the message names what is missing:\n\(output)")
        XCTAssertTrue(output.contains("docs/tty.md"), "and says where to read how to run it:\n\(output)")
        XCTAssertFalse(output.contains("Fatal error") || output.contains("Backtrace"), "crashed:\n\(output)")
    }

    /// Root is not a seat: here (root, no VT, no seatd, no logind session) the message says
    /// there is no seat and what to do, also with no XDG_RUNTIME_DIR at all.
    func testDRMBackendAsRootWithoutASeatSaysSo() throws {
        try XCTSkipIf(FileManager.default.fileExists(atPath: "/dev/dri"), "this machine has a DRM device")
        try XCTSkipIf(FileManager.default.fileExists(atPath: "/run/seatd.sock"), "this machine runs seatd")
        for keepsRuntime in [true, false] {
            var env = ProcessInfo.processInfo.environment
            if keepsRuntime { env["XDG_RUNTIME_DIR"] = runtime } else { env.removeValue(forKey: "XDG_RUNTIME_DIR") }
            env["XDG_CONFIG_HOME"] = runtime + "/no-config"
            env.removeValue(forKey: "XDG_SESSION_ID")
            env.removeValue(forKey: "SEATD_SOCK")
            env.removeValue(forKey: "WAYLAND_DISPLAY")
            let start = Date()
            let (status, output) = try run([Session.executable, "--backend", "drm"], environment: env)
            XCTAssertLessThan(Date().timeIntervalSince(start), 1, "failing must not wait for anything")
            XCTAssertEqual(status, 1, output)
            XCTAssertTrue(output.contains("no seat: libseat could not open a session (no logind session or seatd)"), output)
            XCTAssertTrue(output.contains("video/input groups, or start seatd"), output)
            XCTAssertTrue(output.contains("no DRM device"), output)
            XCTAssertFalse(output.contains("Fatal error") || output.contains("Backtrace"), "crashed:\n\(output)")
        }
    }

    func testCommandGetsAnActivationToken() throws {
        // 128 random bits in hex, as xdg_activation_v1 issues them; a launched app activates its first window with it.
        let (status, output) = try lodestone(["--backend", "headless", "--socket", "cli-token", "--", "sh", "-c",
                                              #"echo "token=$XDG_ACTIVATION_TOKEN"; echo "$XDG_ACTIVATION_TOKEN" | grep -qE '^[0-9a-f]{32}$'"#])
        XCTAssertEqual(status, 0, output)
        XCTAssertTrue(output.contains("token="), output)
    }

    func testCommandRunsInsideAndItsStatusIsLodestones() throws {
        let (status, output) = try lodestone(["--socket", "cli-1", "--", "sh", "-c", #"test -S "$XDG_RUNTIME_DIR/$WAYLAND_DISPLAY" && exit 3"#])
        XCTAssertEqual(status, 3, output)
        let (ok, _) = try lodestone(["--socket", "cli-2", "--", "true"])
        XCTAssertEqual(ok, 0)
    }

    func testMissingCommandIsAClearError() throws {
        let (status, output) = try lodestone(["--socket", "cli-3", "--", "no-such-program-here"])
        XCTAssertNotEqual(status, 0)
        XCTAssertTrue(output.contains("no-such-program-here"), output)
        XCTAssertFalse(output.contains("Fatal error"), output)
    }

    func testSigtermShutsDownCleanly() throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Session.executable)
        p.arguments = ["--socket", "cli-4"]
        p.environment = ["XDG_RUNTIME_DIR": runtime]
        p.standardError = FileHandle.nullDevice
        try p.run()
        XCTAssertTrue(try wait(timeout: 5) { FileManager.default.fileExists(atPath: runtime + "/cli-4") }, "no socket")
        p.terminate()  // SIGTERM
        p.waitUntilExit()
        XCTAssertEqual(p.terminationReason, .exit)
        XCTAssertEqual(p.terminationStatus, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: runtime + "/cli-4"), "the socket is removed on shutdown")
    }

    func testScreenshotAfterFrames() throws {
        let path = runtime + "/shot.png"
        let (status, output) = try lodestone(["--socket", "cli-5", "--size", "320x200", "--screenshot", path, "--after-frames", "1"])
        XCTAssertEqual(status, 0, output)
        XCTAssertTrue(output.contains(path))
        let shot = try Screenshot(png: path)
        XCTAssertEqual(shot.width, 320)
        XCTAssertEqual(shot[5, 5], backgroundColor)
    }

    func testTimeoutWithScreenshotExitsCleanly() throws {
        // The deadline comes before the frames asked for: the screenshot is taken as it is.
        let path = runtime + "/late.png"
        let (status, output) = try lodestone(["--socket", "cli-6", "--size", "320x200", "--screenshot", path, "--after-frames", "100000", "--timeout", "0.3"])
        XCTAssertEqual(status, 0, output)
        XCTAssertTrue(FileManager.default.fileExists(atPath: path), output)
        let (plain, _) = try lodestone(["--socket", "cli-7", "--timeout", "0.2"])
        XCTAssertEqual(plain, 0)
    }

    func testStartUpFailureAfterTheSocketExitsCleanly() throws {
        let (status, output) = try lodestone(["--socket", "cli-8", "--keyboard-layout", "no-such-layout"])
        XCTAssertEqual(status, 1, output)
        XCTAssertTrue(output.contains("no-such-layout"), output)
        let (failing, _) = try lodestone(["--socket", "cli-9", "--", "false"])
        XCTAssertEqual(failing, 1)
    }
}
