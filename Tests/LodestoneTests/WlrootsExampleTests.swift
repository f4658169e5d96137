import Foundation
import LodestoneTesting
import XCTest

/// Examples/wlroots-tinywl-adaptive: a wlroots 0.15 compositor (C, meson, liblodestone-pointer
/// from the wrap) serves adaptive-pointer-v1 through the library's server helper and draws the
/// adaptive pointer. lodestone-demo runs in it headless, a virtual-pointer client moves onto
/// the toolbar's B button, and grim's capture shows the highlight platter where Lodestone's
/// own capture of the same demo, pointer and window position shows it.
final class WlrootsExampleTests: XCTestCase {
    static let example = repositoryRoot + "/Examples/wlroots-tinywl-adaptive"
    /// The toolbar's B button in the demo window (ToolbarPanel: 404, 12, 40×36), and the
    /// pointer at its centre, with the window at (0, 0) in both compositors.
    static let button = (x: 404, y: 12, width: 40, height: 36)
    static let pointer = (x: 424, y: 30)

    private var scratch: String!
    private var processes: [Process] = []

    override func setUpWithError() throws {
        try requireTools(["meson", "ninja", "grim", "pkg-config"], install: "apt-get install -y meson ninja-build grim libwlroots-dev; make deps")
        guard (try? run(["pkg-config", "--exists", "wlroots"]).status) == 0 else {
            let message = "libwlroots-dev is not installed (make deps)"
            if ProcessInfo.processInfo.environment["CI"] != nil { throw TestFailure(message) }
            throw XCTSkip(message)
        }
        scratch = NSTemporaryDirectory() + "lodestone-wlroots-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: scratch + "/run", withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
    }

    override func tearDown() {
        for p in processes where p.isRunning { p.terminate(); p.waitUntilExit() }
        if let scratch { try? FileManager.default.removeItem(atPath: scratch) }
    }

    @discardableResult
    private func step(_ arguments: [String], environment: [String: String]? = nil) throws -> String {
        let (status, output) = try run(arguments, environment: environment)
        guard status == 0 else { throw TestFailure("\(arguments.joined(separator: " ")) failed (\(status)):\n\(output)") }
        return output
    }

    private var demo: String { URL(fileURLWithPath: Session.executable).deletingLastPathComponent().path + "/lodestone-demo" }

    /// Lodestone's own picture: the demo at (0, 0), the pointer settled on B (manual clock).
    private func lodestoneCapture() throws -> Screenshot {
        // As the demo tour runs it (LodestoneTour.Tour).
        let f = try AdaptiveFixture(extraArguments: ["--pointer", "adaptive"])
        try f.session.launch([demo])
        _ = try f.session.waitForWindow("Lodestone demo")
        try f.control.moveWindow("Lodestone demo", x: 0, y: 0)
        // The demo declares its regions with its first frames.
        let captured = try f.session.wait {
            try f.move(to: Double(Self.pointer.x - 60), Double(Self.pointer.y))
            return try f.move(to: Double(Self.pointer.x), Double(Self.pointer.y)).targeted
        }
        XCTAssertTrue(captured, "Lodestone: B does not capture the pointer")
        return try f.screenshot()
    }

    /// Builds the example and starts it headless with lodestone-demo; returns the build folder,
    /// the clients' environment and the compositor's output so far.
    private func startExample() throws -> (build: String, env: [String: String], log: () -> String) {
        let build = scratch + "/build"
        let setup = try step(["meson", "setup", "--wrap-mode=nodownload", "-Dlodestone-pointer:swiftpm_libdir=" + PointerLibraryTests.libraryDirectory,
                              build, Self.example])
        XCTAssertTrue(setup.contains("Executing subproject lodestone-pointer"), setup)
        try step(["ninja", "-C", build, "tinywl-adaptive", "virtual-pointer"])

        let log = scratch + "/compositor.log"
        try createEmptyFile(atPath: log)
        let compositor = Process()
        compositor.executableURL = URL(fileURLWithPath: build + "/tinywl-adaptive")
        compositor.arguments = ["-s", demo]
        var env = ProcessInfo.processInfo.environment
        env["XDG_RUNTIME_DIR"] = scratch + "/run"
        env["WLR_BACKENDS"] = "headless"
        env["WLR_RENDERER"] = "pixman"
        env["WLR_LIBINPUT_NO_DEVICES"] = "1"
        env.removeValue(forKey: "WAYLAND_DISPLAY")
        env.removeValue(forKey: "DISPLAY")
        compositor.environment = env
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        compositor.standardOutput = handle
        compositor.standardError = handle
        try compositor.run()
        processes.append(compositor)
        let printed = { textOfFile(log) }
        let deadline = Date().addingTimeInterval(20)
        while !printed().contains("socket "), Date() < deadline, compositor.isRunning { usleep(50_000) }
        guard let line = printed().split(separator: "\n").first(where: { $0.hasPrefix("socket ") }) else {
            throw TestFailure("tinywl-adaptive did not start:\n\(printed())")
        }
        env["WAYLAND_DISPLAY"] = String(line.dropFirst("socket ".count))
        return (build, env, printed)
    }

    /// The wlroots example's picture, through grim.
    private func wlrootsCapture() throws -> (Screenshot, String) {
        let (build, env, printed) = try startExample()
        let compositor = processes[0]

        // The demo maps its window and declares its regions; then the pointer slides onto B.
        let shot = scratch + "/grim.png"
        var moved = ""
        for _ in 0..<40 {
            usleep(250_000)
            guard (try? run(["grim", shot], environment: env).status) == 0,
                  let s = try? Screenshot(png: shot), s.width == 1280, brightness(s[5, 5]) > 600 else { continue }  // the demo's toolbar, not the clear grey
            moved = try step([build + "/virtual-pointer", "\(Self.pointer.x - 60)", "\(Self.pointer.y)",
                              "\(Self.pointer.x - 20)", "\(Self.pointer.y)", "\(Self.pointer.x)", "\(Self.pointer.y)"], environment: env)
            break
        }
        XCTAssertEqual(moved, "moved\n", "the demo never showed up:\n\(printed())")
        usleep(1_500_000)  // the morph settles (real time here)
        try step(["grim", shot], environment: env)
        XCTAssertTrue(compositor.isRunning, printed())
        return (try Screenshot(png: shot), printed())
    }

    func testDemoInTinywlShowsTheHighlightPlatterWhereLodestoneDoes() throws {
        try skipUnderSanitizersForALibraryConsumer()
        let reference = try lodestoneCapture()
        let (capture, log) = try wlrootsCapture()
        XCTAssertEqual([capture.width, capture.height], [1280, 800])

        // The platter: 4 points around B, drawn by the library in both compositors.
        let b = Self.button
        let platterLeft = (x: b.x - 1, y: b.y + b.height / 2), platterBelow = (x: b.x + b.width / 2, y: b.y + b.height + 1)
        for (name, shot) in [("Lodestone", reference), ("tinywl-adaptive", capture)] {
            let toolbar = shot[b.x + b.width / 2, 57]  // the bar below the platter
            XCTAssertGreaterThan(distance(shot[platterLeft.x, platterLeft.y], toolbar), 12, "\(name): no platter left of B\n\(log)")
            XCTAssertGreaterThan(distance(shot[platterBelow.x, platterBelow.y], toolbar), 12, "\(name): no platter below B")
            XCTAssertLessThan(distance(shot[b.x - 12, b.y + b.height / 2], toolbar), 12, "\(name): the platter spills beyond B")
        }

        // Pixel for pixel around the button, within a tolerance: the same platter, same place.
        var total = 0, worst = 0, count = 0, off = 0
        for y in 0..<60 {
            for x in (b.x - 20)..<(b.x + b.width + 20) {
                let d = distance(reference[x, y], capture[x, y])
                total += d
                worst = max(worst, d)
                if d > 30 { off += 1 }
                count += 1
            }
        }
        let mean = Double(total) / Double(count)
        print("wlroots example vs Lodestone around B: mean channel distance \(mean), worst \(worst), \(off) of \(count) pixels off by > 30")
        XCTAssertLessThan(mean, 4, "the platter differs from Lodestone's")
        XCTAssertLessThan(Double(off) / Double(count), 0.02, "more than 2% of the pixels around B differ")
    }

    /// The helper with other clients: a pywayland window's region (stacked over the demo)
    /// hears entered and left through the helper; a client sending five accessories gets the
    /// protocol error Lodestone sends, and only it is disconnected.
    func testHelperSendsRegionEventsAndDisconnectsOnlyTheBadClient() throws {
        try skipUnderSanitizersForALibraryConsumer()
        guard Process.canRun("python3", ["-c", "import pywayland"]) else { throw XCTSkip("pywayland is not installed (make deps)") }
        let (build, env, printed) = try startExample()
        let script = repositoryRoot + "/Examples/python/adaptive_pointer_client.py"
        let good = scratch + "/good.out"
        try createEmptyFile(atPath: good)
        let client = Process()
        client.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        client.arguments = ["python3", script, "--title", "py-good", "--effect", "highlight", "--frame", "100,100,80,40", "--identifier", "9"]
        client.environment = env
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: good))
        client.standardOutput = out
        client.standardError = out
        try client.run()
        processes.append(client)
        let heard = { textOfFile(good) }

        // Into the region (the window is at (0, 0), on top), until the client hears it.
        var entered = false
        for _ in 0..<60 where !entered {
            usleep(250_000)
            _ = try? run([build + "/virtual-pointer", "20", "20", "140", "120"], environment: env)
            entered = heard().contains("entered 9")
        }
        XCTAssertTrue(entered, "no entered event through the helper:\n\(heard())\n\(printed())")
        try step([build + "/virtual-pointer", "600", "250"], environment: env)
        var left = false
        for _ in 0..<20 where !left { usleep(100_000); left = heard().contains("left 9") }
        XCTAssertTrue(left, "no left event:\n\(heard())")

        // Five accessories: too_many_accessories, that client alone disconnected.
        let (status, output) = try run(["python3", script, "--title", "py-bad"] + Array(repeating: ["--accessory", "arrow@0"], count: 5).flatMap { $0 },
                                       environment: env)
        XCTAssertNotEqual(status, 0, output)
        XCTAssertTrue(output.contains("too many accessories: at most 4"), output)
        XCTAssertTrue(processes[0].isRunning, "the compositor died:\n\(printed())")
        XCTAssertTrue(client.isRunning, "the good client was disconnected too:\n\(heard())")
        try step([build + "/virtual-pointer", "140", "120"], environment: env)
        var again = false
        for _ in 0..<20 where !again { usleep(100_000); again = heard().components(separatedBy: "entered 9").count > 2 }
        XCTAssertTrue(again, "the good client's region stopped working:\n\(heard())")
    }
}
