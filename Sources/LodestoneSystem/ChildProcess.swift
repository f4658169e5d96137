import Glibc

/// A command Lodestone runs inside its session (like cage), or Xwayland.
public final class ChildProcess {
    public let pid: pid_t

    /// Starts `arguments` with extra environment variables, searching PATH. `passing` maps
    /// descriptors of ours to the numbers the child finds them under (every other one is
    /// close-on-exec); the numbers must not be among the descriptors passed.
    /// Throws "cannot start 'NAME': REASON" when it cannot.
    public init(_ arguments: [String], environment extra: [String: String], passing descriptors: [(ours: Int32, theirs: Int32)] = []) throws(SystemError) {
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

        // dup2 onto another number clears close-on-exec in the child.
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for d in descriptors { posix_spawn_file_actions_adddup2(&actions, d.ours, d.theirs) }

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
            posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, envp)
        }
        self.pid = pid
    }

    /// The exit status once the process has ended (128+N for signal N), else nil.
    public func reap() -> Int32? {
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
        if status & 0x7f == 0 { return (status >> 8) & 0xff }
        return 128 + (status & 0x7f)
    }

    /// SIGTERM, then SIGKILL if it is still there after two seconds.
    public func terminate() {
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
