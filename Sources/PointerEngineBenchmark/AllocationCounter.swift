import Glibc

/// Counts heap allocations with glibc's own malloc tracer (`mtrace`), so every `malloc`,
/// `calloc`, `realloc` and `memalign` is seen — Swift objects, array and string buffers and
/// anything else. Since glibc 2.34 the tracer lives in `libc_malloc_debug.so`, which has to be
/// preloaded, so the benchmark re-runs itself in a child process with `LD_PRELOAD` and
/// `MALLOC_TRACE` set; the child counts the "+" (allocate) and ">" (reallocate) records.
/// A deliberately allocating loop is counted first: if it does not show up, the counter is
/// declared broken instead of reporting a meaningless zero.
enum AllocationCounter {
    static let childFlag = "--count-allocations"
    static let candidates = ["/lib/x86_64-linux-gnu/libc_malloc_debug.so.0",
                             "/usr/lib/x86_64-linux-gnu/libc_malloc_debug.so.0",
                             "/lib/aarch64-linux-gnu/libc_malloc_debug.so.0",
                             "/usr/lib/aarch64-linux-gnu/libc_malloc_debug.so.0"]

    static var isChild: Bool { CommandLine.arguments.contains(childFlag) }

    /// The parent names the file; the child (another pid) finds it in `MALLOC_TRACE`.
    static var traceFile: String {
        if let name = getenv("MALLOC_TRACE") { return String(cString: name) }
        return "/tmp/pointer-engine-benchmark-\(getpid()).mtrace"
    }

    /// Parent side: runs this executable again under the tracer. False if it could not.
    static func runChild() -> Bool {
        guard let library = candidates.first(where: { access($0, R_OK) == 0 }) else { return false }
        let args = [CommandLine.arguments[0], childFlag]
        let trace = traceFile
        var env = ["LD_PRELOAD=\(library)", "MALLOC_TRACE=\(trace)"]
        if let path = getenv("PATH") { env.append("PATH=\(String(cString: path))") }
        var cArgs = args.map { strdup($0) } + [nil]
        var cEnv = env.map { strdup($0) } + [nil]
        defer { (cArgs + cEnv).forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, "/proc/self/exe", nil, nil, &cArgs, &cEnv) == 0 else { return false }
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        unlink(trace)
        return status == 0
    }

    /// Child side: allocations and frees made while `body` runs, or nil without a tracer.
    static func count(_ body: () -> Void) -> (allocations: Int, frees: Int)? {
        typealias Toggle = @convention(c) () -> Void
        // The debug library exports only the old symbol version (`mtrace@GLIBC_2.2.5`); a plain
        // lookup would find libc's do-nothing default, so ask the preloaded library itself.
        // `dlvsym` is not in the Glibc module either, so it is looked up too.
        typealias VersionedLookup = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>,
                                                    UnsafePointer<CChar>) -> UnsafeMutableRawPointer?
        guard let library = candidates.first(where: { access($0, R_OK) == 0 }),
              let handle = dlopen(library, RTLD_NOW | RTLD_NOLOAD),
              let dlvsymAddress = dlsym(nil, "dlvsym") else { return nil }
        let dlvsym = unsafeBitCast(dlvsymAddress, to: VersionedLookup.self)
        guard let on = dlvsym(handle, "mtrace", "GLIBC_2.2.5"),
              let off = dlvsym(handle, "muntrace", "GLIBC_2.2.5") else { return nil }
        unlink(traceFile)
        unsafeBitCast(on, to: Toggle.self)()
        body()
        unsafeBitCast(off, to: Toggle.self)()
        return parse(traceFile)
    }

    /// Counts records in an mtrace file: lines like `@ prog:[0x…] + 0x… 0x10`.
    private static func parse(_ path: String) -> (allocations: Int, frees: Int)? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var allocations = 0, frees = 0
        var previous: UInt8 = 10, current: UInt8 = 0
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            // A record's kind is a lone "+", "-", "<" or ">" between spaces (or at line start).
            for i in 0..<n {
                let next = buffer[i]
                if (previous == 32 || previous == 10) && (next == 32 || next == 10) {
                    if current == 43 || current == 62 { allocations += 1 }   // + or >
                    if current == 45 { frees += 1 }                          // -
                }
                previous = current
                current = next
            }
        }
        return (allocations, frees)
    }
}
