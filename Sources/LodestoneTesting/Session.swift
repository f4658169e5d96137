import Foundation
import LodestoneSystem
import WaylandClient

/// A Lodestone with test control on its own socket — headless, or nested in a
/// parent Wayland session — plus the clients a test starts inside it.
/// Everything is torn down by `stop()`.
public final class Session {
    public let socket: String
    public let runtimeDirectory: String
    public let control: TestControl
    private let compositor: Process
    private var clients: [Process] = []
    public let logPath: String

    /// The lodestone executable built beside the test bundle.
    public static var executable: String {
        let argv0 = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for dir in [argv0, argv0.deletingLastPathComponent()] {
            let candidate = dir.appendingPathComponent("lodestone").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        if let env = ProcessInfo.processInfo.environment["LODESTONE"] { return env }
        return ".build/debug/lodestone"
    }

    /// A parent session to nest in: its XDG_RUNTIME_DIR and socket name.
    public struct Parent: Sendable {
        public var runtimeDirectory: String, socket: String
        public init(runtimeDirectory: String, socket: String) { self.runtimeDirectory = runtimeDirectory; self.socket = socket }
    }

    /// Starts Lodestone headless, or nested in `parent` (then without --scale:
    /// the parent's output scale applies). `environment` adds to Lodestone's own.
    public init(size: String = "1280x800", scale: Double = 1, manualClock: Bool = false, extraArguments: [String] = [],
                nestedIn parent: Parent? = nil, environment extra: [String: String] = [:]) throws {
        let id = "\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        if let parent {
            runtimeDirectory = parent.runtimeDirectory
            socket = "nested-\(id)"
        } else {
            runtimeDirectory = NSTemporaryDirectory() + "lodestone-test-\(id)"
            try FileManager.default.createDirectory(atPath: runtimeDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            socket = "lodestone-test-\(id)"
        }
        // Named after the socket: a nested session shares its parent's directory.
        logPath = runtimeDirectory + "/\(socket).log"
        try createEmptyFile(atPath: logPath)
        compositor = Process()
        compositor.executableURL = URL(fileURLWithPath: Session.executable)
        // No --backend when nested: with WAYLAND_DISPLAY set, Lodestone runs nested by default.
        let backend = parent == nil ? ["--backend", "headless", "--scale", scale.rounded() == scale ? "\(Int(scale))" : "\(scale)"] : []
        compositor.arguments = backend + ["--size", size, "--socket", socket, "--test-control", "--log-level", "debug"]
            + (manualClock ? ["--manual-clock"] : []) + extraArguments
        var env = ProcessInfo.processInfo.environment
        env["XDG_RUNTIME_DIR"] = runtimeDirectory
        // Never the user's config.toml: a test that wants one passes XDG_CONFIG_HOME or --config.
        env["XDG_CONFIG_HOME"] = runtimeDirectory + "/no-config"
        env.removeValue(forKey: "DISPLAY")
        if let parent { env["WAYLAND_DISPLAY"] = parent.socket } else { env.removeValue(forKey: "WAYLAND_DISPLAY") }
        compositor.environment = env.merging(extra) { $1 }
        let log = FileHandle(forWritingAtPath: logPath)
        compositor.standardOutput = log
        compositor.standardError = log
        try compositor.run()

        let socketPath = runtimeDirectory + "/" + socket
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: socketPath) {
            guard compositor.isRunning, Date() < deadline else {
                throw SystemError("lodestone did not start: \(textOfFile(logPath))")
            }
            usleep(10_000)
        }
        setenv("XDG_RUNTIME_DIR", runtimeDirectory, 1)
        control = try TestControl(connection: try Session.connect(socketPath, until: deadline, while: compositor))
    }

    deinit { stop() }

    /// Connects to a compositor that is starting. Its socket file appears at
    /// bind(), a moment before listen(): until then connect() is refused.
    public static func connect(_ socketPath: String, until deadline: Date, while process: Process) throws -> Connection {
        while true {
            do {
                return try Connection(name: socketPath)
            } catch {
                guard process.isRunning, Date() < deadline else { throw error }
                usleep(10_000)
            }
        }
    }

    /// The environment a client inside this session needs.
    public var clientEnvironment: [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["XDG_RUNTIME_DIR"] = runtimeDirectory
        env["WAYLAND_DISPLAY"] = socket
        env.removeValue(forKey: "DISPLAY")
        env.removeValue(forKey: "WAYLAND_DEBUG")  // a trace meant for Lodestone, not its clients
        return env
    }

    /// A new connection to this session (for test-written clients).
    public func connect() throws -> Connection { try Connection(name: runtimeDirectory + "/" + socket) }

    /// Starts a client; its output goes to `output` (a file path) if given.
    @discardableResult
    public func launch(_ arguments: [String], environment extra: [String: String] = [:], output: String? = nil) throws -> Process {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = arguments
        p.environment = clientEnvironment.merging(extra) { $1 }
        if let output {
            try createEmptyFile(atPath: output)
            let handle = FileHandle(forWritingAtPath: output)
            p.standardOutput = handle
            p.standardError = handle
        } else {
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
        }
        try p.run()
        clients.append(p)
        return p
    }

    /// Waits (wall time, for another process to start) until a window with
    /// this title or app_id (nil: any window) that meets `condition` is mapped.
    public func waitForWindow(_ name: String?, timeout: TimeInterval = 20, where condition: (TestControl.WindowState) -> Bool = { _ in true }) throws -> TestControl.WindowState {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let w = try control.windows().first(where: { (name == nil || $0.title == name || $0.appID == name) && condition($0) }) { return w }
            usleep(50_000)
        }
        throw SystemError("no window '\(name ?? "any")' appeared within \(timeout) s; windows: \((try? control.windows()) ?? [])")
    }

    /// Polls `condition` with round trips until it holds or `timeout` passes.
    public func wait(timeout: TimeInterval = 10, for condition: () throws -> Bool) throws -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if try condition() { return true }
            usleep(50_000)
        }
        return try condition()
    }

    /// Captures the output and loads it.
    public func screenshot(_ name: String = "capture") throws -> Screenshot {
        let path = runtimeDirectory + "/\(socket)-\(name).png"
        try control.capturePNG(to: path)
        return try Screenshot(png: path)
    }

    public var compositorIsRunning: Bool { compositor.isRunning }

    /// Waits (for another process) until Lodestone exits; its termination reason and status.
    public func waitForExit(timeout: TimeInterval = 10) throws -> (reason: Process.TerminationReason, code: Int32) {
        let deadline = Date().addingTimeInterval(timeout)
        while compositor.isRunning {
            guard Date() < deadline else { throw SystemError("lodestone did not exit:\n\(log.suffix(2000))") }
            usleep(20_000)
        }
        return (compositor.terminationReason, compositor.terminationStatus)
    }
    public var compositorPID: Int32 { compositor.processIdentifier }

    /// The X11 display Lodestone offers (":N", from its log line), or nil when it offers none.
    public var x11Display: String? {
        guard let line = log.split(separator: "\n").first(where: { $0.contains("X11 apps connect to DISPLAY=") }),
              let start = line.range(of: "DISPLAY=")?.upperBound else { return nil }
        return String(line[start...].prefix { $0 != ";" && $0 != " " })
    }
    public var log: String { textOfFile(logPath) }

    public func stop() {
        for c in clients where c.isRunning { c.terminate() }
        for c in clients { stopProcess(c) }
        clients = []
        // Also when it exited on its own (waitForExit): until waitUntilExit has run, Foundation's
        // run loop source for the process keeps the Process (LeakSanitizer); stopProcess runs it.
        stopProcess(compositor)
    }
}

/// Ends `process` and waits for it: SIGTERM, `seconds` for it to go, then SIGKILL. Foundation's
/// `waitUntilExit` waits for its own notice of the exit, which once never came in a loaded CI
/// run (dbus-run-session a zombie for ten minutes, KWinEffectTests hung in its tearDown): when
/// the notice does not come, the child is reaped here instead.
public func stopProcess(_ process: Process, within seconds: Double = 10) {
    if process.isRunning { process.terminate() }
    let deadline = Date().addingTimeInterval(seconds)
    while process.isRunning && Date() < deadline { usleep(20_000) }
    if process.isRunning {
        kill(process.processIdentifier, SIGKILL)
        let killed = Date().addingTimeInterval(2)
        while process.isRunning && Date() < killed { usleep(20_000) }
    }
    if process.isRunning {
        var status: Int32 = 0
        _ = waitpid(process.processIdentifier, &status, WNOHANG)
    } else {
        process.waitUntilExit()
    }
}

/// A file's text, "" when it cannot be read (a client's output not written yet). Read with
/// read(2): Foundation's String(contentsOfFile:encoding:) and FileManager.contents(atPath:)
/// leaked their buffer when the tests polled a file another process was writing
/// (LeakSanitizer, `make asan`).
public func textOfFile(_ path: String) -> String {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return "" }
    defer { close(fd) }
    var bytes: [UInt8] = [], chunk = [UInt8](repeating: 0, count: 65536)
    while case let n = read(fd, &chunk, chunk.count), n > 0 { bytes += chunk[..<n] }
    return String(decoding: bytes, as: UTF8.self)
}

/// Creates (or empties) the file at `path` for a process's log: a log that cannot be made
/// fails here, with the path, rather than later as an empty read.
public func createEmptyFile(atPath path: String) throws(SystemError) {
    guard FileManager.default.createFile(atPath: path, contents: nil) else {
        throw SystemError("cannot create \(path)")
    }
}

/// Where `name` is on PATH (or `name` itself when it is an absolute path to an executable);
/// nil when it is not installed.
public func programPath(_ name: String) -> String? {
    if name.hasPrefix("/") { return FileManager.default.isExecutableFile(atPath: name) ? name : nil }
    for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
        let path = "\(directory)/\(name)"
        if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    return nil
}
