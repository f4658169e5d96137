import Glibc

/// A process and its ancestors, nearest first, read from the `ppid` field of
/// `/proc/PID/stat` (proc(5)). The focus rule (`NewWindowFocus`) asks whether the user
/// started a window's program from the window they are using, or through Lodestone.
struct ProcessLineage: Equatable {
    /// The process first, then its parent, up to (not including) pid 1 or a process
    /// that is gone; empty when the process itself is gone or unknown.
    let pids: [Int32]

    init(pids: [Int32]) { self.pids = pids }

    /// Reads the chain now. At most 64 steps: a chain is short, and /proc can change
    /// under the walk.
    init(of pid: Int32) {
        var chain: [Int32] = []
        var current = pid
        while current > 1, chain.count < 64, !chain.contains(current), let parent = Self.parent(of: current) {
            chain.append(current)
            current = parent
        }
        pids = chain
    }

    /// Whether `pid` is one of this process's ancestors. Not the process itself: a
    /// second connection of the same program, or a client inside Lodestone's own process
    /// (wlcs, the unit tests), was not started by it.
    func descends(from pid: Int32) -> Bool { pid > 1 && pids.dropFirst().contains(pid) }

    /// The fourth field of `/proc/PID/stat`: "PID (COMM) STATE PPID …". COMM may hold
    /// spaces and parentheses, so the fields are counted after its last ')'.
    private static func parent(of pid: Int32) -> Int32? {
        let fd = open("/proc/\(pid)/stat", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 512)
        let n = read(fd, &bytes, bytes.count)
        guard n > 0 else { return nil }
        let text = bytes[..<n]
        guard let close = text.lastIndex(of: UInt8(ascii: ")")) else { return nil }
        let fields = text[(close + 1)...].split(separator: UInt8(ascii: " "))
        guard fields.count > 1 else { return nil }
        return Int32(String(decoding: fields[1], as: UTF8.self))
    }
}
