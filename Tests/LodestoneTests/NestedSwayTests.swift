import Foundation
import LodestoneTesting
import Rendering
import XCTest

/// Lodestone nested in sway (Debian 12: sway 1.7, headless), which offers
/// zxdg_decoration_manager_v1 and draws the title bar itself: the nested window asks for
/// server-side decorations and draws no bar of its own; all of it is the output.
final class NestedSwayTests: XCTestCase {
    func testInsideSwayTheParentDrawsTheTitleBarAndTheWholeWindowIsTheOutput() throws {
        for program in ["sway", "grim", "setpriv"] { try requireProgram(program) }
        let sway = try Sway()
        defer { sway.stop() }
        // A runtime directory of our own (sway's may belong to another user): the parent by path.
        let home = NSTemporaryDirectory() + "lodestone-in-sway-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let nested = try Session(size: "400x300", nestedIn: Session.Parent(runtimeDirectory: home, socket: sway.socketPath),
                                 environment: ["WAYLAND_DEBUG": "client"])
        defer { nested.stop() }
        XCTAssertTrue(try nested.wait { nested.log.contains("with server-side decorations") }, "no server-side decorations in sway:\n\(nested.log.suffix(3000))")
        XCTAssertFalse(nested.log.contains("Lodestone draws its own"))
        // sway tiles the window: the output takes the whole tile (no bar of ours subtracted).
        var configured: (width: Int32, height: Int32)?
        XCTAssertTrue(try nested.wait {
            let line = nested.log.split(separator: "\n").last { $0.contains("xdg_toplevel@") && $0.contains(".configure(") && !$0.contains(".configure(0, 0") }
            guard let numbers = line?.split(separator: "(").last?.split(separator: ",").prefix(2).compactMap({ Int32($0.trimmingCharacters(in: .whitespaces)) }),
                  numbers.count == 2 else { return false }
            configured = (numbers[0], numbers[1])
            return try nested.captureSize() == Size(width: numbers[0], height: numbers[1])
        }, "the nested output \((try? nested.captureSize())?.description ?? "?") is not sway's tile \(String(describing: configured))")

        // sway's capture (grim): Lodestone's background fills the tile, and above it is
        // sway's title bar, not Lodestone's.
        guard let tile = configured else { return }
        var box: (x: Int, y: Int, width: Int, height: Int)?
        var shot: Screenshot?
        XCTAssertTrue(try nested.wait {
            shot = try sway.screenshot()
            box = shot?.boundingBox(of: backgroundColor)
            return box.map { $0.width == Int(tile.width) && $0.height == Int(tile.height) } ?? false
        }, "sway's capture shows no \(tile.width)×\(tile.height) Lodestone output (found \(String(describing: box)))")
        // (Pixels above the capture's top count as differing.)
        if let shot, let box {
            for activated in [true, false] {
                let bar = Screenshot(TitleBarImage.draw(title: "Lodestone", width: tile.width, scale: 1, activated: activated))
                XCTAssertGreaterThan(shot.countDiffering(from: bar, atX: box.x, y: box.y - Int(TitleBarImage.height)), 1000, "Lodestone drew its own bar in sway")
            }
        }
    }
}

/// Headless sway (wlroots' headless backend, pixman) with a 1280×800 output. sway refuses
/// to run as root: as root it runs as `nobody` (setpriv), in a runtime directory it owns.
/// On an X server instead: wlroots' X11 backend (a 1024×768 window), whose seat is X's
/// keyboard and pointer (headless sway 1.7's seat has no capabilities).
final class Sway {
    let runtimeDirectory: String
    let socket = "wayland-1"
    var socketPath: String { runtimeDirectory + "/" + socket }
    private let process: Process
    private let logPath: String

    init(on x: XServer? = nil) throws {
        let id = "\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        runtimeDirectory = NSTemporaryDirectory() + "lodestone-sway-\(id)"
        try FileManager.default.createDirectory(atPath: runtimeDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let config = runtimeDirectory + "/config"
        try (x == nil ? "output HEADLESS-1 resolution 1280x800\nxwayland disable\n" : "xwayland disable\ndefault_orientation horizontal\n").write(toFile: config, atomically: true, encoding: .utf8)
        logPath = NSTemporaryDirectory() + "lodestone-sway-\(id).log"
        try createEmptyFile(atPath: logPath)
        let asRoot = getuid() == 0
        let nobody: UInt32 = 65534
        if asRoot {
            chown(runtimeDirectory, nobody, nobody)
            chmod(config, 0o644)
        }
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let sway = ["sway", "-c", config]
        process.arguments = asRoot ? ["setpriv", "--reuid=\(nobody)", "--regid=\(nobody)", "--clear-groups"] + sway : sway
        var env = ProcessInfo.processInfo.environment
        env["XDG_RUNTIME_DIR"] = runtimeDirectory
        env["HOME"] = runtimeDirectory
        env["WLR_BACKENDS"] = x == nil ? "headless" : "x11"
        env["WLR_LIBINPUT_NO_DEVICES"] = "1"
        env["WLR_RENDERER"] = "pixman"
        for k in ["WAYLAND_DISPLAY", "DISPLAY", "SWAYSOCK"] { env.removeValue(forKey: k) }
        if let x { env["DISPLAY"] = x.display }
        process.environment = env
        let log = FileHandle(forWritingAtPath: logPath)
        process.standardOutput = log
        process.standardError = log
        try process.run()
        let deadline = Date().addingTimeInterval(20)
        while !FileManager.default.fileExists(atPath: socketPath) {
            guard process.isRunning, Date() < deadline else {
                stop()
                throw NestedFailure("sway did not start:\n\(textOfFile(logPath))")
            }
            usleep(20_000)
        }
    }

    /// grim over sway's wlr-screencopy.
    func screenshot() throws -> Screenshot {
        let path = NSTemporaryDirectory() + "lodestone-sway-shot-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).png"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["grim", path]
        var env = ProcessInfo.processInfo.environment
        env["WAYLAND_DISPLAY"] = socketPath
        p.environment = env
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        return try Screenshot(png: path)
    }

    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }
}
