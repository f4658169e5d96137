import CAllocationHook
import Glibc

/// Counts heap allocations with ordo-one's malloc interposer: every `malloc`, `calloc`,
/// `realloc`, `posix_memalign`... of every thread and library (Swift objects, array and
/// string buffers, libwayland's event closures, pixman, cairo). The interposer must be
/// preloaded to replace libc's allocator, so a benchmark re-runs itself in a child with
/// `LD_PRELOAD` set and counts there. Its allocation hook (CAllocationHook) names the library
/// that asked for each one. Benchmarks calibrate it with a loop that allocates, so a broken
/// counter is reported as broken rather than as a meaningless zero.
///
/// `LODESTONE_ALLOCATION_BACKTRACES=FILE` in the benchmark's environment writes the backtrace
/// of every counted allocation to FILE (symbolize the `program(+0x…)` offsets with
/// `addr2line -fCe program`), to find where they come from.
public enum AllocationCounter {
    static let backtraceVariable = "LODESTONE_ALLOCATION_BACKTRACES"

    /// What ran while counting.
    public struct Count: Sendable {
        public var allocations = 0
        public var frees = 0
        /// Allocations by the library that asked (file name without its directory), largest first.
        public var byCaller: [(library: String, allocations: Int)] = []

        /// Allocations asked for by libraries whose name contains `part` ("libwayland").
        public func allocations(from part: String) -> Int {
            byCaller.filter { $0.library.contains(part) }.reduce(0) { $0 + $1.allocations }
        }
    }

    /// The interposer's shared library: SwiftPM builds it beside the benchmarks
    /// (with allocation-counter-check, which `make bench` builds).
    static var libraryPath: String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        let executable = String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let slash = executable.lastIndex(of: "/") else { return nil }
        return executable[..<slash] + "/libMallocInterposerSwift.so"
    }

    /// Parent side: runs this executable again with `flag`, the interposer preloaded; the
    /// child's output is ours. False when the library is missing or the child failed.
    public static func runChild(flag: String) -> Bool {
        guard let library = libraryPath, access(library, R_OK) == 0 else { return false }
        var env = ["LD_PRELOAD=\(library)"]
        for name in ["PATH", backtraceVariable] {
            if let value = getenv(name) { env.append("\(name)=\(String(cString: value))") }
        }
        let args = [CommandLine.arguments[0], flag]
        var cArgs = args.map { strdup($0) } + [nil]
        var cEnv = env.map { strdup($0) } + [nil]
        defer { (cArgs + cEnv).forEach { free($0) } }
        fflush(nil)
        var pid: pid_t = 0
        guard posix_spawn(&pid, "/proc/self/exe", nil, nil, &cArgs, &cEnv) == 0 else { return false }
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        return status == 0
    }

    /// Child side: what `body` allocated and freed, in every thread, or nil when the
    /// interposer does not replace the allocator (not preloaded, or a sanitizer build).
    public static func record(_ body: () -> Void) -> Count? {
        guard lodestone_interposer_loaded() != 0 else { return nil }
        var dump: Int32 = -1
        if let path = getenv(backtraceVariable) {
            dump = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        }
        defer { if dump >= 0 { close(dump) } }
        if dump >= 0 {
            let mark = "== record\n"
            _ = mark.withCString { write(dump, $0, strlen($0)) }
        }
        lodestone_interposer_start(dump)
        body()
        var allocations = 0, frees = 0
        lodestone_interposer_stop(&allocations, &frees)
        var count = Count(allocations: allocations, frees: frees)
        for i in 0..<lodestone_interposer_caller_count() {
            let path = String(cString: lodestone_interposer_caller_name(i))
            let name = path.split(separator: "/").last.map(String.init) ?? path
            count.byCaller.append((name, lodestone_interposer_caller_allocations(i)))
        }
        count.byCaller.sort { $0.allocations > $1.allocations }
        return count
    }
}
