import Foundation
import LodestoneTesting
import XCTest

/// hosts/kwin: the KWin 5.27 effect (C++, meson, liblodestone-pointer from the wrap) in
/// `kwin_wayland --virtual` (OpenGL on Mesa's llvmpipe), with lodestone-demo in it. KWin's
/// virtual backend has no input device: `fake-pointer` moves the pointer through
/// org_kde_kwin_fake_input; `kwin-screenshot` captures through org.kde.KWin.ScreenShot2. The
/// captures show the highlight platter behind the toolbar's B and the lifted Maps icon where
/// Lodestone's own capture of the same demo, pointer and window position shows them.
final class KWinEffectTests: XCTestCase {
    static let host = repositoryRoot + "/hosts/kwin"
    /// The toolbar's B button in the demo window (ToolbarPanel: 404, 12, 40×36), and the
    /// pointer at its centre; the Maps icon (48, 112, 64×64) and its centre. The window is
    /// at (0, 0) in both compositors (KWin: Placement=ZeroCornered).
    static let button = (x: 404, y: 12, width: 40, height: 36)
    static let pointer = (x: 424, y: 30)
    static let icon = (x: 48, y: 112, width: 64, height: 64)
    static let iconCentre = (x: 80, y: 144)

    private var scratch: String!
    private var processes: [Process] = []

    override func setUpWithError() throws {
        try skipUnderSanitizersForALibraryConsumer()
        var missing: [String] = []
        for tool in ["meson", "ninja", "pkg-config", "dbus-run-session", "wayland-info"] {
            if programPath(tool) == nil { missing.append(tool) }
        }
        for file in ["/usr/bin/kwin_wayland", "/usr/include/kwineffects.h"] where !FileManager.default.fileExists(atPath: file) {
            missing.append(file)
        }
        if !missing.isEmpty {
            let message = "\(missing.joined(separator: ", ")) missing (apt-get install -y kwin-wayland kwin-dev meson ninja-build dbus-daemon wayland-utils; make test-deps)"
            if ProcessInfo.processInfo.environment["CI"] != nil { throw TestFailure(message) }
            throw XCTSkip(message)
        }
        scratch = NSTemporaryDirectory() + "lodestone-kwin-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        for dir in ["/run", "/bin", "/plugins/kwin/effects/plugins", "/config", "/data/applications", "/cache"] {
            try FileManager.default.createDirectory(atPath: scratch + dir, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        }
    }

    override func tearDown() {
        // KWin itself first: dbus-run-session (the process started) does not pass SIGTERM on.
        if let scratch, let pid = Int32(textOfFile(scratch + "/run/kwin.pid").trimmingCharacters(in: .whitespacesAndNewlines)) {
            kill(pid, SIGTERM)
            // Not our child (dbus-run-session's): gone when kill(pid, 0) fails; else, after 5 s, killed.
            let deadline = Date().addingTimeInterval(5)
            while kill(pid, 0) == 0 && Date() < deadline { usleep(20_000) }
            if kill(pid, 0) == 0 { kill(pid, SIGKILL) }
        }
        for p in processes.reversed() { stopProcess(p) }
        if let scratch { try? FileManager.default.removeItem(atPath: scratch) }
    }

    @discardableResult
    private func step(_ arguments: [String], environment: [String: String]? = nil) throws -> String {
        let (status, output) = try run(arguments, environment: environment)
        guard status == 0 else { throw TestFailure("\(arguments.joined(separator: " ")) failed (\(status)):\n\(output)") }
        return output
    }

    private var demo: String { URL(fileURLWithPath: Session.executable).deletingLastPathComponent().path + "/lodestone-demo" }

    /// Lodestone's own pictures: the demo at (0, 0), the pointer settled on B, then on Maps.
    private func lodestoneCaptures() throws -> (button: Screenshot, icon: Screenshot) {
        let f = try AdaptiveFixture(extraArguments: ["--pointer", "adaptive"])
        try f.session.launch([demo])
        _ = try f.session.waitForWindow("Lodestone demo")
        try f.control.moveWindow("Lodestone demo", x: 0, y: 0)
        let onButton = try f.session.wait {
            try f.move(to: Double(Self.pointer.x - 60), Double(Self.pointer.y))
            return try f.move(to: Double(Self.pointer.x), Double(Self.pointer.y)).targeted
        }
        XCTAssertTrue(onButton, "Lodestone: B does not capture the pointer")
        let button = try f.screenshot()
        try f.move(to: 200, 200)
        try f.move(to: 120, 160)
        XCTAssertTrue(try f.move(to: Double(Self.iconCentre.x), Double(Self.iconCentre.y)).targeted, "Lodestone: Maps does not capture the pointer")
        return (button, try f.screenshot())
    }

    /// Builds the effect and the two test clients, and starts KWin with the effect enabled;
    /// returns the build folder, the clients' environment (Wayland and D-Bus) and KWin's output.
    private func startKWin() throws -> (build: String, env: [String: String], log: () -> String) {
        let build = scratch + "/build"
        let setup = try step(["meson", "setup", "--wrap-mode=nodownload", "-Dlodestone-pointer:swiftpm_libdir=" + PointerLibraryTests.libraryDirectory,
                              build, Self.host])
        XCTAssertTrue(setup.contains("Executing subproject lodestone-pointer"), setup)
        try step(["ninja", "-C", build, "lodestone_pointer.so", "fake-pointer", "kwin-screenshot"])

        // /usr/bin/kwin_wayland carries a file capability (cap_sys_resource=ep, to raise its
        // RLIMIT) that an unprivileged container cannot grant, so exec fails with "Operation not
        // permitted"; a copy has no capability and runs. It must keep the name kwin_wayland:
        // KWin's own Qt platform plugin refuses to start in an executable of another name.
        let kwin = scratch + "/bin/kwin_wayland"
        try FileManager.default.copyItem(atPath: "/usr/bin/kwin_wayland", toPath: kwin)
        // Qt's plugin path: <dir>/kwin/effects/plugins/ is where KWin looks for binary effects.
        try FileManager.default.createSymbolicLink(atPath: scratch + "/plugins/kwin/effects/plugins/lodestone_pointer.so",
                                                   withDestinationPath: build + "/lodestone_pointer.so")
        // Enabled as a user enables it (docs/kwin.md); windows open at (0, 0), as in Lodestone.
        try "[Plugins]\nlodestone_pointerEnabled=true\n\n[Windows]\nPlacement=ZeroCornered\n"
            .write(toFile: scratch + "/config/kwinrc", atomically: true, encoding: .utf8)
        // KWin answers org.kde.KWin.ScreenShot2 only for executables a desktop file grants it to
        // (read through KService's cache: a fresh XDG_CACHE_HOME, so a stale cache cannot hide it).
        try """
            [Desktop Entry]
            Type=Application
            Name=Lodestone KWin test capture
            Exec=\(build)/kwin-screenshot
            NoDisplay=true
            X-KDE-DBUS-Restricted-Interfaces=org.kde.KWin.ScreenShot2

            """.write(toFile: scratch + "/data/applications/lodestone-kwin-screenshot.desktop", atomically: true, encoding: .utf8)

        let log = scratch + "/kwin.log"
        try createEmptyFile(atPath: log)
        var env = ProcessInfo.processInfo.environment
        env["XDG_RUNTIME_DIR"] = scratch + "/run"
        env["XDG_CONFIG_HOME"] = scratch + "/config"
        env["XDG_DATA_HOME"] = scratch + "/data"
        env["XDG_CACHE_HOME"] = scratch + "/cache"
        env["QT_PLUGIN_PATH"] = scratch + "/plugins"
        // org_kde_kwin_fake_input is a restricted interface: without this KWin offers it only to
        // executables whose desktop file lists it in X-KDE-Wayland-Interfaces.
        env["KWIN_WAYLAND_NO_PERMISSION_CHECKS"] = "1"
        env.removeValue(forKey: "WAYLAND_DISPLAY")
        env.removeValue(forKey: "DISPLAY")
        env.removeValue(forKey: "DBUS_SESSION_BUS_ADDRESS")
        let compositor = Process()
        compositor.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // A session bus of its own (KWin's D-Bus interfaces, the screenshot's); its address is
        // written where the clients read it.
        compositor.arguments = ["dbus-run-session", "--", "sh", "-c",
                                "echo $$ > \"$XDG_RUNTIME_DIR/kwin.pid\"; echo \"$DBUS_SESSION_BUS_ADDRESS\" > \"$XDG_RUNTIME_DIR/bus\"; exec \"$0\" --virtual --socket kwin-test --width 1280 --height 800",
                                kwin]
        compositor.environment = env
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        compositor.standardOutput = handle
        compositor.standardError = handle
        try compositor.run()
        processes.append(compositor)
        let printed = { textOfFile(log) }
        let socket = scratch + "/run/kwin-test", bus = scratch + "/run/bus"
        let started = try wait(timeout: 30) {
            FileManager.default.fileExists(atPath: socket) && !textOfFile(bus).isEmpty || !compositor.isRunning
        }
        guard started, compositor.isRunning else { throw TestFailure("KWin did not start:\n\(printed())") }
        env["WAYLAND_DISPLAY"] = "kwin-test"
        env["DBUS_SESSION_BUS_ADDRESS"] = textOfFile(bus).trimmingCharacters(in: .whitespacesAndNewlines)
        return (build, env, printed)
    }

    /// A capture of KWin's whole output.
    private func kwinCapture(_ build: String, _ env: [String: String]) throws -> Screenshot {
        let shot = scratch + "/kwin-\(UInt32.random(in: 0...UInt32.max)).png"
        try step([build + "/kwin-screenshot", shot, "0", "0", "1280", "800"], environment: env)
        return try Screenshot(png: shot)
    }

    /// Mean channel distance and the share of pixels off by more than 30, over a rectangle.
    private func compare(_ a: Screenshot, _ b: Screenshot, x: Range<Int>, y: Range<Int>) -> (mean: Double, off: Double, worst: Int) {
        var total = 0, worst = 0, count = 0, off = 0
        for py in y {
            for px in x {
                let d = distance(a[px, py], b[px, py])
                total += d
                worst = max(worst, d)
                if d > 30 { off += 1 }
                count += 1
            }
        }
        return (Double(total) / Double(count), Double(off) / Double(count), worst)
    }

    func testDemoInKWinShowsTheHighlightAndTheLiftWhereLodestoneDoes() throws {
        let reference = try lodestoneCaptures()
        let (build, env, printed) = try startKWin()

        // The effect loaded: adaptive_pointer_manager_v1 is on KWin's display.
        let globals = try wait(timeout: 10) {
            (try? self.run(["wayland-info"], environment: env).output.contains("adaptive_pointer_manager_v1")) ?? false
        }
        XCTAssertTrue(globals, "no adaptive_pointer_manager_v1 global: the effect did not load\n\(printed())")

        let demo = Process()
        demo.executableURL = URL(fileURLWithPath: self.demo)
        demo.environment = env
        demo.standardOutput = FileHandle.nullDevice
        demo.standardError = FileHandle.nullDevice
        try demo.run()
        processes.append(demo)
        // The demo maps its window (its toolbar, not KWin's black) and declares its regions.
        let shown = try wait(timeout: 30) {
            ((try? self.kwinCapture(build, env)).map { brightness($0[5, 5]) > 600 }) ?? false
        }
        XCTAssertTrue(shown, "the demo never showed up:\n\(printed())")

        // Onto B, as the wlroots example's test does; the morph settles in real time here.
        try step([build + "/fake-pointer", "\(Self.pointer.x - 60)", "\(Self.pointer.y)", "\(Self.pointer.x - 20)", "\(Self.pointer.y)",
                  "\(Self.pointer.x)", "\(Self.pointer.y)"], environment: env)
        usleep(1_500_000)
        let onButton = try kwinCapture(build, env)

        // The platter: 4 points around B, drawn by the library in both compositors.
        let b = Self.button
        let platterLeft = (x: b.x - 1, y: b.y + b.height / 2), platterBelow = (x: b.x + b.width / 2, y: b.y + b.height + 1)
        for (name, shot) in [("Lodestone", reference.button), ("KWin", onButton)] {
            let toolbar = shot[b.x + b.width / 2, 57]  // the bar below the platter
            XCTAssertGreaterThan(distance(shot[platterLeft.x, platterLeft.y], toolbar), 12, "\(name): no platter left of B\n\(printed())")
            XCTAssertGreaterThan(distance(shot[platterBelow.x, platterBelow.y], toolbar), 12, "\(name): no platter below B")
            XCTAssertLessThan(distance(shot[b.x - 12, b.y + b.height / 2], toolbar), 12, "\(name): the platter spills beyond B")
        }
        let platter = compare(reference.button, onButton, x: (b.x - 20)..<(b.x + b.width + 20), y: 0..<60)
        print("KWin effect vs Lodestone around B: mean channel distance \(platter.mean), worst \(platter.worst), \(platter.off * 100)% of the pixels off by > 30")
        XCTAssertLessThan(platter.mean, 4, "the platter differs from Lodestone's")
        XCTAssertLessThan(platter.off, 0.02, "more than 2% of the pixels around B differ")

        // Onto Maps: the icon lifts (scaled up, with its shadow) as in Lodestone.
        try step([build + "/fake-pointer", "200", "200", "120", "160", "\(Self.iconCentre.x)", "\(Self.iconCentre.y)"], environment: env)
        usleep(1_500_000)
        let onIcon = try kwinCapture(build, env)
        let i = Self.icon
        for (name, shot) in [("Lodestone", reference.icon), ("KWin", onIcon)] {
            // Just outside the icon's resting frame, its green now: it grew.
            let card = shot[i.x + i.width / 2, i.y - 14]
            XCTAssertGreaterThan(distance(shot[i.x + i.width / 2, i.y - 2], card), 40, "\(name): Maps did not grow above its frame")
            XCTAssertGreaterThan(distance(shot[i.x - 2, i.y + i.height / 2], card), 40, "\(name): Maps did not grow left of its frame")
        }
        let lift = compare(reference.icon, onIcon, x: (i.x - 20)..<(i.x + i.width + 20), y: (i.y - 20)..<(i.y + i.height + 30))
        print("KWin effect vs Lodestone around Maps: mean channel distance \(lift.mean), worst \(lift.worst), \(lift.off * 100)% of the pixels off by > 30")
        XCTAssertLessThan(lift.mean, 4, "the lift differs from Lodestone's")
        XCTAssertLessThan(lift.off, 0.02, "more than 2% of the pixels around Maps differ")
        XCTAssertTrue(processes[0].isRunning, "KWin died:\n\(printed())")
    }

    /// gtk4-widget-factory, which declares no regions, in KWin: the library's adapter (told the
    /// window's pid and rectangle by the effect) walks its AT-SPI tree over KWin's session bus,
    /// and the pointer over a toggle button becomes the highlight platter over the box GTK
    /// publishes for it. Where: the first page's third toggle button, drawn at 430…557 × 146…178
    /// in KWin's 1280×800 output (GTK 4.8, the window at (0, 0), 1351 wide), its published box
    /// 93×24 around the label; the platter is that box grown by 2, so inside the drawn button a
    /// point just left of the label is darkened while one nearer the button's edge is not (a
    /// circle at the label's centre reaches neither, and GTK's hover shades both alike).
    func testGtkButtonTakesTheHighlightFromAtSpiInKWin() throws {
        try requireProgram("gtk4-widget-factory")
        try requireAccessibilityBus()
        let (build, env, printed) = try startKWin()
        let app = Process()
        app.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        app.arguments = ["gtk4-widget-factory"]
        app.environment = env.merging(AccessibleAppTests.gtkEnvironment) { $1 }
        app.standardOutput = FileHandle.nullDevice
        app.standardError = FileHandle.nullDevice
        try app.run()
        processes.append(app)
        let edge = (x: 436, y: 152), platterLeft = (x: 449, y: 152), platterRight = (x: 538, y: 152), edgeRight = (x: 550, y: 152)
        let shown = try wait(timeout: 30) {
            ((try? self.kwinCapture(build, env)).map { brightness($0[edge.x, edge.y]) > 500 }) ?? false
        }
        XCTAssertTrue(shown, "gtk4-widget-factory never showed up:\n\(printed())")

        var shot: Screenshot?
        let platter = try wait(timeout: 15) {
            _ = try? self.run([build + "/fake-pointer", "470", "200", "480", "161", "492", "161"], environment: env)
            usleep(500_000)
            guard let s = try? self.kwinCapture(build, env) else { return false }
            shot = s
            return distance(s[platterLeft.x, platterLeft.y], s[edge.x, edge.y]) > 20
                && distance(s[platterRight.x, platterRight.y], s[edgeRight.x, edgeRight.y]) > 20
        }
        let s = try XCTUnwrap(shot, printed())
        XCTAssertTrue(platter, "no platter over the toggle button's published box: left \(String(s[platterLeft.x, platterLeft.y], radix: 16)) vs edge \(String(s[edge.x, edge.y], radix: 16)), right \(String(s[platterRight.x, platterRight.y], radix: 16)) vs edge \(String(s[edgeRight.x, edgeRight.y], radix: 16))\n\(printed())")
        XCTAssertLessThan(distance(s[edge.x, edge.y], s[edgeRight.x, edgeRight.y]), 12, "the button's two ends differ: the platter is not where GTK published the button")
        XCTAssertTrue(processes[0].isRunning, "KWin died:\n\(printed())")
    }

    /// The helper inside KWin: a client sending five accessories gets the protocol error
    /// Lodestone sends and is disconnected; KWin and a good client carry on.
    func testBadRegionClientIsDisconnectedAndKWinCarriesOn() throws {
        guard Process.canRun("python3", ["-c", "import pywayland"]) else {
            if ProcessInfo.processInfo.environment["CI"] != nil { throw TestFailure("pywayland is not installed (make test-deps)") }
            throw XCTSkip("pywayland is not installed (make test-deps)")
        }
        let (build, env, printed) = try startKWin()
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

        // Into the region (the window is at (0, 0)), until the client hears it.
        var entered = false
        for _ in 0..<60 where !entered {
            usleep(250_000)
            _ = try? run([build + "/fake-pointer", "20", "20", "140", "120"], environment: env)
            entered = heard().contains("entered 9")
        }
        XCTAssertTrue(entered, "no entered event through the helper in KWin:\n\(heard())\n\(printed())")

        let (status, output) = try run(["python3", script, "--title", "py-bad"] + Array(repeating: ["--accessory", "arrow@0"], count: 5).flatMap { $0 },
                                       environment: env)
        XCTAssertNotEqual(status, 0, output)
        XCTAssertTrue(output.contains("too many accessories: at most 4"), output)
        XCTAssertTrue(processes[0].isRunning, "KWin died:\n\(printed())")
        XCTAssertTrue(client.isRunning, "the good client was disconnected too:\n\(heard())")
        try step([build + "/fake-pointer", "600", "250", "140", "120"], environment: env)
        let again = try wait(timeout: 5) { heard().components(separatedBy: "entered 9").count > 2 }
        XCTAssertTrue(again, "the good client's region stopped working:\n\(heard())")
    }
}
