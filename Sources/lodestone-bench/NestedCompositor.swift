import Foundation
import Glibc
import LodestoneTesting

// The nested setups of NestedClientsBench.swift, and the compositor each one starts.

/// One nested setup of the bench.
enum NestedSetup: CaseIterable {
    case parentsOwn, planes, composed, weston, sway

    var label: String {
        switch self {
        case .parentsOwn: "parent's own"
        case .planes: "Lodestone planes"
        case .composed: "Lodestone composed"
        case .weston: "weston 10"
        case .sway: "sway 1.7"
        }
    }
}

/// A nested compositor under test: its process, where its clients connect, and as whom.
final class NestedCompositor {
    let process: Process
    let runtimeDirectory: String
    let socket: String
    /// Clients run as this uid (sway's, when it runs as nobody), else as the bench.
    let clientUser: UInt32?

    init(process: Process, runtimeDirectory: String, socket: String, clientUser: UInt32?) {
        self.process = process
        self.runtimeDirectory = runtimeDirectory
        self.socket = socket
        self.clientUser = clientUser
    }

    var pid: Int32 { process.processIdentifier }

    func stop() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    /// Starts `setup` nested in `parent`; nil for the parent's own clients. `trace`: its
    /// WAYLAND_DEBUG=client trace (only where bytes are counted: the trace costs it CPU).
    static func start(_ setup: NestedSetup, lodestone: String, parent: Session, trace: String?, scratch: String) throws -> NestedCompositor? {
        let p = Process()
        var env = ProcessInfo.processInfo.environment
        for k in ["DISPLAY", "WAYLAND_DEBUG", "SWAYSOCK"] { env.removeValue(forKey: k) }
        if trace != nil { env["WAYLAND_DEBUG"] = "client" }
        var dir = parent.runtimeDirectory, socket = "nested-bench", user: UInt32?
        switch setup {
        case .parentsOwn:
            return nil
        case .planes, .composed:
            p.executableURL = URL(fileURLWithPath: lodestone)
            p.arguments = ["--size", "1280x800", "--socket", socket] + (setup == .composed ? ["--parent-planes", "off"] : [])
            env["XDG_CONFIG_HOME"] = dir + "/no-config"
        case .weston:
            p.executableURL = URL(fileURLWithPath: "/usr/bin/weston")
            p.arguments = ["--backend=wayland-backend.so", "--use-pixman", "--width=1280", "--height=800", "--socket=\(socket)", "--idle-time=0", "--no-config"]
        case .sway:
            // sway refuses root: as nobody, in a runtime directory of its own, the parent's
            // socket (by its path) opened to it.
            dir = scratch + "/sway-\(UInt32.random(in: 0...UInt32.max))"
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let config = dir + "/config"
            // Windows float at their own size, as in the other compositors (tiled, simple-shm
            // is resized and aborts: "Both buffers busy at redraw()").
            try "output WL-1 resolution 1280x800\nxwayland disable\ndefault_border none\nfor_window [title=\".*\"] floating enable\n"
                .write(toFile: config, atomically: true, encoding: .utf8)
            socket = "wayland-1"
            var command = ["/usr/bin/sway", "-c", config]
            if getuid() == 0 {
                user = 65534
                chown(dir, 65534, 65534)
                chmod(config, 0o644)
                chmod(parent.runtimeDirectory, 0o711)
                chmod(parent.runtimeDirectory + "/" + parent.socket, 0o777)
                command = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] + command
            }
            p.executableURL = URL(fileURLWithPath: command[0])
            p.arguments = Array(command.dropFirst())
            env["HOME"] = dir
            env["WLR_BACKENDS"] = "wayland"
            env["WLR_RENDERER"] = "pixman"
            env["WLR_LIBINPUT_NO_DEVICES"] = "1"
            env["WAYLAND_DISPLAY"] = parent.runtimeDirectory + "/" + parent.socket
        }
        env["XDG_RUNTIME_DIR"] = dir
        if setup != .sway { env["WAYLAND_DISPLAY"] = parent.socket }
        p.environment = env
        let log = FileHandle(forWritingAtPath: trace ?? "/dev/null") ?? FileHandle.nullDevice
        p.standardOutput = log
        p.standardError = log
        try p.run()
        let nested = NestedCompositor(process: p, runtimeDirectory: dir, socket: socket, clientUser: user)
        guard waitForSocket(dir + "/" + socket, of: p, seconds: 15) else { nested.stop(); throw BenchError("\(setup.label) did not open its socket") }
        usleep(1_000_000)  // its window mapped in the parent, its first frames
        return nested
    }
}
