import Glibc
import LodestoneSystem

/// A command Lodestone runs inside its session (like cage).
final class ChildProcess {
    let pid: pid_t

    /// Starts `arguments` with extra environment variables, searching PATH.
    /// Throws "cannot start 'NAME': REASON" when it cannot.
    init(_ arguments: [String], environment extra: [String: String]) throws(SystemError) {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // libwayland blocks the signals it reads through signalfd; the child
        // must start with them unblocked and default.
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for s in [SIGINT, SIGTERM, SIGCHLD, SIGPIPE] { sigaddset(&defaults, s) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var env: [String] = []
        var index = 0
        while let entry = environ[index] {
            let s = String(cString: entry)
            if let key = s.split(separator: "=", maxSplits: 1).first, extra[String(key)] != nil {} else { env.append(s) }
            index += 1
        }
        env += extra.map { "\($0.key)=\($0.value)" }

        let argv = arguments.map { strdup($0) } + [nil]
        let envp = env.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        try callReturningErrno("posix_spawnp", what: "cannot start '\(arguments[0])'") {
            posix_spawnp(&pid, arguments[0], nil, &attributes, argv, envp)
        }
        self.pid = pid
    }

    /// The exit status once the process has ended (128+N for signal N), else nil.
    func reap() -> Int32? {
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
        if status & 0x7f == 0 { return (status >> 8) & 0xff }
        return 128 + (status & 0x7f)
    }

    /// SIGTERM, then SIGKILL if it is still there after two seconds.
    func terminate() {
        kill(pid, SIGTERM)
        for _ in 0..<200 {
            if reap() != nil { return }
            usleep(10_000)
        }
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }
}
