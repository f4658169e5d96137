import Glibc

/// Counts heap allocations with glibc's own malloc tracer (`mtrace`), so every
/// `malloc`, `calloc`, `realloc` and `memalign` is seen: Swift objects, array
/// and string buffers, C libraries. Since glibc 2.34 the tracer lives in
/// `libc_malloc_debug.so`, which must be preloaded, so a benchmark re-runs
/// itself in a child with `LD_PRELOAD` and `MALLOC_TRACE` set and counts there.
/// Benchmarks calibrate it with a loop that allocates, so a broken tracer is
/// reported as broken rather than as a meaningless zero.
public enum MallocTrace {
    static let candidates = ["/lib/x86_64-linux-gnu/libc_malloc_debug.so.0", "/usr/lib/x86_64-linux-gnu/libc_malloc_debug.so.0",
                             "/lib/aarch64-linux-gnu/libc_malloc_debug.so.0", "/usr/lib/aarch64-linux-gnu/libc_malloc_debug.so.0"]

    /// What ran under the tracer: one caller per allocation record ("+" or, for a
    /// realloc, ">"), as mtrace names it (`/lib/…/libwayland-server.so.0:(…)` or
    /// the program), and the number of frees.
    public struct Trace: Sendable {
        public var allocationCallers: [String] = []
        public var frees = 0
        public var allocations: Int { allocationCallers.count }
    }

    /// The parent names the file; the child (another pid) finds it in `MALLOC_TRACE`.
    static var traceFile: String {
        if let name = getenv("MALLOC_TRACE") { return String(cString: name) }
        return "/tmp/lodestone-mtrace-\(getpid()).trace"
    }

    /// Parent side: runs this executable again with `flag`, under the tracer; the
    /// child's output is ours. False when there is no tracer or the child failed.
    public static func runChild(flag: String) -> Bool {
        guard let library = candidates.first(where: { access($0, R_OK) == 0 }) else { return false }
        let trace = traceFile
        var env = ["LD_PRELOAD=\(library)", "MALLOC_TRACE=\(trace)"]
        if let path = getenv("PATH") { env.append("PATH=\(String(cString: path))") }
        let args = [CommandLine.arguments[0], flag]
        var cArgs = args.map { strdup($0) } + [nil]
        var cEnv = env.map { strdup($0) } + [nil]
        defer { (cArgs + cEnv).forEach { free($0) } }
        fflush(nil)
        var pid: pid_t = 0
        guard posix_spawn(&pid, "/proc/self/exe", nil, nil, &cArgs, &cEnv) == 0 else { return false }
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        unlink(trace)
        return status == 0
    }

    /// Child side: what `body` allocated and freed, or nil without a tracer.
    public static func record(_ body: () -> Void) -> Trace? {
        typealias Toggle = @convention(c) () -> Void
        typealias VersionedLookup = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>,
                                                    UnsafePointer<CChar>) -> UnsafeMutableRawPointer?
        // The debug library exports only `mtrace@GLIBC_2.2.5`; a plain lookup finds libc's
        // do-nothing default, so ask the preloaded library itself (dlvsym is not in the
        // Glibc module, so it is looked up too).
        guard let library = candidates.first(where: { access($0, R_OK) == 0 }),
              let handle = dlopen(library, RTLD_NOW | RTLD_NOLOAD),
              let dlvsymAddress = dlsym(nil, "dlvsym") else { return nil }
        let dlvsym = unsafeBitCast(dlvsymAddress, to: VersionedLookup.self)
        guard let on = dlvsym(handle, "mtrace", "GLIBC_2.2.5"), let off = dlvsym(handle, "muntrace", "GLIBC_2.2.5") else { return nil }
        unlink(traceFile)
        unsafeBitCast(on, to: Toggle.self)()
        body()
        unsafeBitCast(off, to: Toggle.self)()
        return parse(traceFile)
    }

    /// Records look like `@ /lib/…/libwayland-server.so.0:(wl_closure_marshal+0x4f)[0x…] + 0x… 0x30`.
    private static func parse(_ path: String) -> Trace? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            bytes += chunk[0..<n]
        }
        var trace = Trace()
        for line in bytes.split(separator: 10) where line.starts(with: [64, 32]) {  // "@ "
            let fields = line.split(separator: 32)
            guard fields.count >= 3 else { continue }
            switch fields[2] {
            case [43], [62]: trace.allocationCallers.append(String(decoding: fields[1], as: UTF8.self))  // + or >
            case [45]: trace.frees += 1                                                                  // -
            default: break
            }
        }
        return trace
    }
}
