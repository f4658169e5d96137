import Glibc

/// Runs a computation that may crash, hang or exhaust memory (a C or C++ library reading
/// input Lodestone does not control) in a forked child process, and hands back the bytes
/// it produced, or how it ended.
///
/// Why a child and not a check beforehand: a library's `assert`, an uncaught C++ exception,
/// a stack overflow from deep nesting, an endless loop and a runaway allocation all end or
/// stall the process they run in, and no pre-check can promise to foresee every one of them.
/// A child can die of any of these and the compositor only reads that it did.
///
/// The child: crash signals back to their defaults (no Swift backtrace, no core file),
/// `RLIMIT_CPU`, `RLIMIT_AS` (what the parent had plus `addressSpaceGrowth`), stdout and
/// stderr to /dev/null (a failed `assert` prints there), then `body`, a `write` of what it
/// returned into a socket, and `_exit`, which runs no atexit handler and flushes no stdio
/// buffer of the parent's. `body` is the only code there that is not async-signal-safe: a
/// fork copies one thread, and a lock another thread held (in the Swift runtime, say) stays
/// held in the child. glibc's malloc is made fork-safe by glibc itself; anything else that
/// blocks ends as a timeout, which the parent handles like any other failure.
///
/// The parent: `poll` on the socket until end-of-file or `timeout`, then the child is killed
/// (on a timeout) and always reaped.
public struct ForkedComputation: Sendable {
    /// How the child ended.
    public enum Outcome: Equatable, Sendable {
        /// `body` returned these bytes.
        case finished([UInt8])
        /// Ended by this signal: an abort (6), a trap (4, 5), a stack overflow (11), the
        /// CPU limit (24) or the kernel's refusal to grow its memory.
        case crashed(signal: Int32)
        /// Still running after `timeout` seconds: killed.
        case timedOut
    }

    /// Wall-clock seconds the parent waits for the child's answer.
    public var timeout: Double = 2
    /// The child's CPU time limit (`RLIMIT_CPU`), in seconds.
    public var cpuSeconds = 2
    /// How much address space the child may add to what it had when forked (`RLIMIT_AS`).
    /// Relative, so that a sanitizer's huge shadow mappings do not count against it.
    public var addressSpaceGrowth = 512 << 20
    /// The most bytes the parent reads from the child.
    public var maximumOutput = 64 << 20

    public init() {}

    /// The status `_exit` gives when the child could not set itself up or write its answer.
    private static let childFailed: Int32 = 125

    /// Forks, runs `body` in the child and returns how it ended. Throws when the child cannot
    /// be started or read, or exits without an answer.
    public func run(_ body: () -> [UInt8]) throws(SystemError) -> Outcome {
        // Everything the child needs is made here, before the fork.
        var ends: [Int32] = [-1, -1]
        // A socket pair, not pipe2 (which Swift's Glibc hides behind _GNU_SOURCE): born
        // close-on-exec, so no program another thread starts meanwhile holds it open.
        try syscall("socketpair", what: "cannot make a socket pair for a child process") {
            socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends)
        }
        let (reading, writing) = (ends[0], ends[1])
        defer { close(reading) }
        let null: Int32
        do {
            null = try syscall("open", what: "cannot open /dev/null") { open("/dev/null", O_WRONLY | O_CLOEXEC) }
        } catch {
            close(writing)
            throw error
        }
        let cpu = rlimit(rlim_cur: rlim_t(cpuSeconds), rlim_max: rlim_t(cpuSeconds + 1))
        let memory = Self.addressSpace().map { rlimit(rlim_cur: rlim_t($0 + addressSpaceGrowth), rlim_max: rlim_t($0 + addressSpaceGrowth)) }

        // Looked up before the fork: dlsym takes a lock another thread may hold at that moment.
        let sanitizerReports = Self.sanitizerReportRedirection()
        let pid: pid_t
        do {
            pid = try syscall("fork", what: "cannot start a child process") { fork() }
        } catch {
            close(writing)
            close(null)
            throw error
        }
        if pid == 0 { Self.child(body, answer: writing, null: null, cpu: cpu, memory: memory, sanitizerReports: sanitizerReports) }
        close(writing)
        close(null)

        var reaped = false
        defer { if !reaped { Self.kill(pid); _ = try? Self.wait(pid) } }
        let deadline = Self.now() + timeout
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let left = deadline - Self.now()
            if left <= 0 {
                Self.kill(pid)
                _ = try Self.wait(pid)
                reaped = true
                return .timedOut
            }
            var ready = pollfd(fd: reading, events: Int16(POLLIN), revents: 0)
            guard try syscall("poll", { poll(&ready, 1, Int32(min(left * 1000 + 1, 60_000))) }) > 0 else { continue }
            let n = try syscall("read", what: "cannot read a child process's answer") {
                chunk.withUnsafeMutableBytes { read(reading, $0.baseAddress, $0.count) }
            }
            if n == 0 { break }
            output += chunk[..<n]
            if output.count > maximumOutput {
                throw SystemError("a child process answered with more than \(maximumOutput) bytes")
            }
        }
        // End of file: the child has exited (or is exiting); only it held the other end.
        let status = try Self.wait(pid)
        reaped = true
        let signal = status & 0x7f
        if signal != 0 { return .crashed(signal: signal) }
        let code = (status >> 8) & 0xff
        guard code == 0 else { throw SystemError("a child process exited with status \(code) and no answer") }
        return .finished(output)
    }

    /// The child's whole life; it never returns.
    private static func child(_ body: () -> [UInt8], answer: Int32, null: Int32, cpu: rlimit, memory: rlimit?,
                              sanitizerReports: SanitizerReportRedirection?) -> Never {
        // Crash signals kill at once, quietly: no backtracer, no fuzzer's report, no core file.
        for s in [SIGABRT, SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGSYS, SIGXCPU] { signal(s, SIG_DFL) }
        var none = sigset_t()
        sigemptyset(&none)
        do {
            try syscall("sigprocmask") { sigprocmask(SIG_SETMASK, &none, nil) }
            var noCore = rlimit(rlim_cur: 0, rlim_max: 0), cpu = cpu
            try syscall("setrlimit") { setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &noCore) }
            try syscall("setrlimit") { setrlimit(__rlimit_resource_t(RLIMIT_CPU.rawValue), &cpu) }
            if var memory { try syscall("setrlimit") { setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &memory) } }
            try syscall("dup2") { dup2(null, 1) }
            try syscall("dup2") { dup2(null, 2) }
            // Under `make asan` the library's own findings (toml++ reaches an "unreachable"
            // point on some bad input) are what the child is there to contain: they go to
            // /dev/null with the rest of its output, not into the run's sanitizer reports.
            sanitizerReports?(UnsafeMutableRawPointer(bitPattern: Int(null)))
        } catch {
            _exit(childFailed)
        }
        let bytes = body()
        var written = 0
        while written < bytes.count {
            let result = NonBlocking.run { bytes.withUnsafeBytes { write(answer, $0.baseAddress! + written, $0.count - written) } }
            guard case .done(let n) = result, n > 0 else { _exit(childFailed) }
            written += n
        }
        _exit(0)
    }

    /// `__sanitizer_set_report_fd`, present only in a process built with a sanitizer.
    private typealias SanitizerReportRedirection = @convention(c) (UnsafeMutableRawPointer?) -> Void

    private static func sanitizerReportRedirection() -> SanitizerReportRedirection? {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__sanitizer_set_report_fd") else { return nil }
        return unsafeBitCast(symbol, to: SanitizerReportRedirection.self)
    }

    /// Waits for `pid` and returns its raw wait status.
    private static func wait(_ pid: pid_t) throws(SystemError) -> Int32 {
        var status: Int32 = 0
        try syscall("waitpid", what: "cannot reap a child process") { waitpid(pid, &status, 0) }
        return status
    }

    private static func kill(_ pid: pid_t) {
        _ = try? syscall("kill") { Glibc.kill(pid, SIGKILL) }
    }

    private static func now() -> Double {
        var t = timespec()
        _ = try? syscall("clock_gettime") { clock_gettime(CLOCK_MONOTONIC, &t) }
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    /// This process's address-space size in bytes (`/proc/self/statm`'s first field), or nil.
    private static func addressSpace() -> Int? {
        guard let fd = try? syscall("open", { open("/proc/self/statm", O_RDONLY | O_CLOEXEC) }) else { return nil }
        defer { close(fd) }
        var text = [UInt8](repeating: 0, count: 128)
        guard let n = try? syscall("read", { text.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) } }) else { return nil }
        guard let pages = Int(String(decoding: text[..<n].prefix { $0 != 0x20 }, as: UTF8.self)) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
