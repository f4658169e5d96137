import Foundation
import LodestoneTesting

/// One compositor under test, started on a private runtime directory.
struct Peer {
    enum Kind: String { case lodestone = "Lodestone", weston }
    let kind: Kind
    let process: Process
    let runtimeDirectory: String
    let socket: String
    var pid: Int32 { process.processIdentifier }

    /// Headless, or nested in `parent` (a parent session's runtime dir and socket).
    static func start(_ kind: Kind, lodestone: String, nestedIn parent: (dir: String, socket: String)? = nil,
                      underCallgrind callgrindOut: String? = nil, trace: String? = nil, extraArguments: [String] = []) throws -> Peer {
        let dir = parent?.dir ?? (NSTemporaryDirectory() + "bench-peer-\(kind.rawValue)-\(getpid())")
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let socket = "peer-\(kind.rawValue.lowercased())"
        var arguments: [String]
        switch kind {
        case .weston:
            arguments = ["/usr/bin/weston", parent == nil ? "--backend=headless-backend.so" : "--backend=wayland-backend.so",
                         "--use-pixman", "--width=1280", "--height=800", "--socket=\(socket)", "--idle-time=0", "--no-config"]
        case .lodestone:
            arguments = [lodestone, "--backend", parent == nil ? "headless" : "wayland", "--size", "1280x800", "--socket", socket] + extraArguments
        }
        if let callgrindOut {
            // valgrind 3.19 cannot read Swift's DWARF 5: count a copy without debug info.
            if kind == .lodestone {
                let stripped = dir + "/lodestone-stripped"
                try run(["/usr/bin/objcopy", "--strip-debug", lodestone, stripped])
                arguments[0] = stripped
            }
            arguments = ["/usr/bin/valgrind", "--tool=callgrind", "--instr-atstart=no", "--callgrind-out-file=\(callgrindOut)"] + arguments
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: arguments[0])
        p.arguments = Array(arguments.dropFirst())
        var env = ProcessInfo.processInfo.environment
        env["XDG_RUNTIME_DIR"] = dir
        env["XDG_CONFIG_HOME"] = dir + "/no-config"
        env.removeValue(forKey: "DISPLAY")
        env.removeValue(forKey: "WAYLAND_DEBUG")
        if let parent { env["WAYLAND_DISPLAY"] = parent.socket } else { env.removeValue(forKey: "WAYLAND_DISPLAY") }
        if trace != nil { env["WAYLAND_DEBUG"] = "client" }
        p.environment = env
        let log = FileHandle(forWritingAtPath: trace ?? "/dev/null") ?? FileHandle.nullDevice
        p.standardOutput = log
        p.standardError = log
        try p.run()
        let peer = Peer(kind: kind, process: p, runtimeDirectory: dir, socket: socket)
        guard waitForSocket(dir + "/" + socket, of: p, seconds: callgrindOut == nil ? 10 : 60) else {
            peer.stop()
            throw BenchError("\(kind.rawValue) did not open its socket")
        }
        usleep(callgrindOut == nil ? 500_000 : 3_000_000)  // weston's shell client, Lodestone's first frame
        return peer
    }

    func launch(_ command: [String], trace: String, environment extra: [String: String] = [:]) throws -> Process {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = command
        var env = ProcessInfo.processInfo.environment
        env["XDG_RUNTIME_DIR"] = runtimeDirectory
        env["WAYLAND_DISPLAY"] = socket
        env["WAYLAND_DEBUG"] = "client"  // the client's commits are its frames
        env.removeValue(forKey: "DISPLAY")
        env.merge(extra) { $1 }
        p.environment = env
        try createEmptyFile(atPath: trace)
        let handle = FileHandle(forWritingAtPath: trace)
        p.standardOutput = FileHandle.nullDevice
        p.standardError = handle
        try p.run()
        return p
    }

    func stop() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    /// Nanoseconds this process has run on a CPU.
    var cpuNanoseconds: UInt64 {
        let text = (try? String(contentsOfFile: "/proc/\(pid)/schedstat", encoding: .utf8)) ?? ""
        return UInt64(text.split(separator: " ").first ?? "") ?? 0
    }

    /// A /proc/PID/status figure in KiB: VmRSS (everything resident, shared libraries
    /// included) or RssAnon (the process's own memory).
    func statusKiB(_ key: String) -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix(key + ":") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }
}
