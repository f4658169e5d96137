import Glibc
import LodestoneSystem
import Logging
import WaylandServer

/// Rootless Xwayland, started on the first X11 connection (wlroots' `xwayland/server.c`).
///
/// Lodestone takes a free display number at once: the lock file `/tmp/.X<n>-lock` and the
/// two listening sockets (`/tmp/.X11-unix/X<n>` and the abstract one). Nothing runs until
/// an X11 client connects; then Xwayland starts with those sockets (`-listenfd`), a
/// Wayland connection of its own (`WAYLAND_SOCKET`) and one for our window manager
/// (`-wm`), and accepts the waiting client itself. When it exits (`-terminate`: after its
/// last client) everything it had is cleaned up and the sockets wait again.
/// All on the event loop; the owner calls `reap()` on SIGCHLD.
public final class XwaylandServer {
    /// `:n`, for DISPLAY.
    public let displayName: String
    private let number: Int
    private unowned let compositor: any XwaylandHost
    private var log: Logger { compositor.log }
    /// The listening sockets: the path one and the abstract one.
    private let listeners: [Int32]
    private var listenWatches: [EventSource] = []
    private var process: ChildProcess?
    /// Our end of the readiness pipe (`-displayfd`) and its watch.
    private var readyPipe: Int32 = -1
    private var readyWatch: EventSource?
    /// Our end of the window manager's connection until Xwayland is ready.
    private var wmSocket: Int32 = -1
    private(set) var wm: XWM?
    /// Xwayland's own Wayland connection; nil once libwayland has destroyed it.
    private(set) var client: Client?
    private var clientDestroyed: Listener?
    /// How many times Xwayland started (the log and tests tell restarts apart).
    public private(set) var starts = 0

    /// Takes a display number and listens; throws when none of :0…:32 is free.
    public init(compositor: Compositor) throws(SystemError) {
        self.compositor = compositor
        mkdir("/tmp/.X11-unix", 0o1777)
        for n in 0...32 {
            guard Self.lock(n) else { continue }
            if let fds = Self.listen(n) {
                number = n
                displayName = ":\(n)"
                listeners = fds
                try watchListeners()
                return
            }
            unlink(Self.lockPath(n))
        }
        throw SystemError("no free X11 display number in :0…:32 for Xwayland (see /tmp/.X*-lock)")
    }

    deinit {
        stop()
        for fd in listeners { close(fd) }
        unlink(Self.socketPath(number))
        unlink(Self.lockPath(number))
    }

    public var isRunning: Bool { process != nil }

    // MARK: Display number

    private static func lockPath(_ n: Int) -> String { "/tmp/.X\(n)-lock" }
    private static func socketPath(_ n: Int) -> String { "/tmp/.X11-unix/X\(n)" }

    /// Creates the lock file with our pid, taking over one whose owner is gone.
    private static func lock(_ n: Int) -> Bool {
        for _ in 0..<2 {
            let fd = open(lockPath(n), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o444)
            if fd >= 0 {
                // The format X servers use: the pid right-aligned in ten columns.
                let pid = String(getpid())
                let text = Array((String(repeating: " ", count: max(0, 10 - pid.count)) + pid + "\n").utf8)
                let written = text.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count) }
                close(fd)
                if written != text.count { unlink(lockPath(n)); return false }
                return true
            }
            guard lastErrno == EEXIST else { return false }
            // Stale: its server is gone (X servers write their pid in ASCII).
            guard let contents = try? readSmallFile(lockPath(n)), let pid = Int32(contents.trimmingCharacters(in: " \n")),
                  kill(pid, 0) != 0, lastErrno == ESRCH else { return false }
            unlink(lockPath(n))
            unlink(socketPath(n))
        }
        return false
    }

    private static func readSmallFile(_ path: String) throws -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 32)
        let n = buffer.withUnsafeMutableBufferPointer { read(fd, $0.baseAddress, $0.count) }
        return n > 0 ? String(decoding: buffer[0..<n], as: UTF8.self) : nil
    }

    /// The abstract socket and the path socket of display `n`, listening; nil if either is taken.
    private static func listen(_ n: Int) -> [Int32]? {
        let path = socketPath(n)
        guard let abstract = listeningSocket(name: Array(path.utf8), abstract: true) else { return nil }
        unlink(path)
        guard let file = listeningSocket(name: Array(path.utf8), abstract: false) else { close(abstract); return nil }
        return [file, abstract]
    }

    private static func listeningSocket(name: [UInt8], abstract: Bool) -> Int32? {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let offset = abstract ? 1 : 0
        let length = withUnsafeMutableBytes(of: &address.sun_path) { raw -> Int in
            for (i, byte) in name.enumerated() where i + offset < raw.count - 1 { raw[i + offset] = byte }
            return min(name.count + offset, raw.count - 1)
        }
        let size = socklen_t(MemoryLayout<sa_family_t>.size + length + (abstract ? 0 : 1))
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, size) } }
        guard bound == 0, Glibc.listen(fd, 1) == 0 else { close(fd); return nil }
        return fd
    }

    // MARK: Starting lazily

    private func watchListeners() throws(SystemError) {
        listenWatches = try listeners.map { fd throws(SystemError) in
            try compositor.eventLoop.addFileDescriptor(fd) { [unowned self] _ in self.start() }
        }
    }

    /// An X11 client is waiting: start Xwayland, which accepts it.
    private func start() {
        // Xwayland listens now. (Removed from the loop, released later: this is their handler.)
        for watch in listenWatches { watch.remove() }
        do {
            try spawn()
        } catch {
            log.error("Xwayland could not start: \(error)")
            stop()
        }
    }

    private func spawn() throws(SystemError) {
        let wayland = try socketPair(), wmPair = try socketPair()
        var pipeFDs: [Int32] = [-1, -1]
        try check("pipe", what: "cannot make Xwayland's readiness pipe") { pipe(&pipeFDs) == 0 }
        for fd in pipeFDs { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        // The child's numbers 3…7 must not be any of the descriptors passed: move ours above them.
        let passed = try [listeners[0], listeners[1], wayland.theirs, wmPair.theirs, pipeFDs[1]].map { fd throws(SystemError) in
            try call("fcntl", what: "cannot pass a descriptor to Xwayland") { () -> Int32? in
                let d = fcntl(fd, F_DUPFD_CLOEXEC, 64)
                return d >= 0 ? d : nil
            }
        }
        defer { for fd in passed { close(fd) } }
        for fd in [wayland.theirs, wmPair.theirs, pipeFDs[1]] { close(fd) }
        // No -core: Xwayland aborts when its Wayland connection goes first, and a core
        // file would land in whatever directory Lodestone was started from.
        let arguments = ["Xwayland", displayName, "-rootless", "-terminate",
                         "-listenfd", "3", "-listenfd", "4", "-wm", "6", "-displayfd", "7"]
        let child: ChildProcess
        do {
            child = try ChildProcess(arguments, environment: ["WAYLAND_SOCKET": "5"],
                                     passing: passed.enumerated().map { ($0.element, Int32(3 + $0.offset)) })
        } catch {
            for fd in [wayland.ours, wmPair.ours, pipeFDs[0]] { close(fd) }
            throw error
        }
        process = child
        starts += 1
        guard let created = compositor.createClient(fd: wayland.ours) else {
            close(wayland.ours)
            throw SystemError("cannot make Xwayland's Wayland client")
        }
        client = created
        clientDestroyed = created.onDestroy { [unowned self] in self.client = nil }
        wmSocket = wmPair.ours
        readyPipe = pipeFDs[0]
        readyWatch = try compositor.eventLoop.addFileDescriptor(readyPipe) { [unowned self] _ in self.ready() }
        log.info("Xwayland started for DISPLAY=\(displayName) (pid \(child.pid)): an X11 client connected")
    }

    private func socketPair() throws(SystemError) -> (ours: Int32, theirs: Int32) {
        var fds: [Int32] = [-1, -1]
        try check("socketpair", what: "cannot connect to Xwayland") {
            socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0
        }
        return (fds[0], fds[1])
    }

    /// What Xwayland wrote to the readiness pipe so far.
    private var readyText: [UInt8] = []

    /// Xwayland wrote its display number and a newline: it accepts X11 requests now, so
    /// the window manager connects. The pipe stays open until the newline has come (Xwayland
    /// writes the number and the newline separately, and dies if the second write fails).
    private func ready() {
        var buffer = [UInt8](repeating: 0, count: 16)
        let result = NonBlocking.run { buffer.withUnsafeMutableBufferPointer { read(readyPipe, $0.baseAddress, $0.count) } }
        if case .done(let n) = result, n > 0 { readyText += buffer[0..<n] }
        if result == .wouldBlock { return }
        if case .done(let n) = result, n > 0, !readyText.contains(UInt8(ascii: "\n")) { return }
        // Removed from the loop, released later: this is its own handler.
        readyWatch?.remove()
        close(readyPipe); readyPipe = -1
        defer { readyText = [] }
        guard readyText.contains(UInt8(ascii: "\n")), client != nil else {
            log.error("Xwayland closed its readiness pipe without starting")
            return
        }
        do {
            wm = try XWM(compositor: compositor, fd: wmSocket, xwaylandClient: { [unowned self] in self.client }) { [unowned self] in
                // It is inert now; dropped when Xwayland exits.
                log.notice("Xwayland's window manager connection closed")
            }
            wmSocket = -1
            log.info("Xwayland ready on DISPLAY=\(displayName); window manager running")
        } catch {
            log.error("Xwayland's window manager could not start: \(error)")
        }
    }

    // MARK: Ending

    /// Call on SIGCHLD: when Xwayland has exited, cleans up and listens again.
    public func reap() {
        guard let process, let status = process.reap() else { return }
        log.notice("Xwayland exited with status \(status); the next X11 client starts it again")
        self.process = nil
        stop()
        do { try watchListeners() } catch { log.error("X11 clients can no longer start Xwayland: \(error)") }
    }

    /// Drops everything of a running (or dead) Xwayland: a running one is stopped first
    /// (SIGTERM), so it never sees its Wayland connection vanish under it.
    private func stop() {
        if let process { process.terminate(); self.process = nil }
        wm?.shutdown()
        wm = nil
        readyWatch = nil
        if readyPipe >= 0 { close(readyPipe); readyPipe = -1 }
        if wmSocket >= 0 { close(wmSocket); wmSocket = -1 }
        let client = self.client
        self.client = nil
        clientDestroyed = nil
        client?.destroy()
    }

    /// Ends Xwayland with the session (before the display goes).
    public func shutdown() {
        listenWatches.removeAll()
        stop()
    }
}

private extension String {
    func trimmingCharacters(in set: String) -> String {
        var s = Substring(self)
        while let c = s.first, set.contains(c) { s.removeFirst() }
        while let c = s.last, set.contains(c) { s.removeLast() }
        return String(s)
    }
}
