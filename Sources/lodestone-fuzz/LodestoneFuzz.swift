import Glibc
import LodestoneSystem
import Logging

// `lodestone-fuzz`: Wayland wire messages into an in-process Lodestone (`WireFuzzer`).
//
// Built by `make fuzz` with `-sanitize=fuzzer` and `-D LODESTONE_LIBFUZZER`, it is a
// coverage-guided libFuzzer target (libFuzzer's main) and takes libFuzzer's flags (a corpus
// directory, `-max_total_time=N`). Built plainly (`swift build`), it runs the inputs in the files and
// directories it is given once each, which is how the kept corpus and every crash found
// stay regression tests (`AbuseTests.testFuzzCorpusReplaysCrashNothing`).
#if LODESTONE_LIBFUZZER
/// libFuzzer's main calls this with each input; the one compositor is made on the first
/// (the callback carries no context).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    if LodestoneFuzz.fuzzer == nil { LodestoneFuzz.start() }
    LodestoneFuzz.fuzzer.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

enum LodestoneFuzz {
    nonisolated(unsafe) static var fuzzer: WireFuzzer!
}
#else
@main
enum LodestoneFuzz {
    nonisolated(unsafe) static var fuzzer: WireFuzzer!

    /// Runs each input in the files and directories named on the command line once.
    static func main() {
        start()
        let files = FuzzCorpus.files(under: Array(CommandLine.arguments.dropFirst()))
        var ran = 0
        for file in files {
            guard let bytes = FuzzCorpus.contents(of: file) else { fail("cannot read \(file)") }
            bytes.withUnsafeBytes { fuzzer.run($0) }
            ran += 1
        }
        print("ran \(ran) inputs; the compositor is alive")
    }
}
#endif

extension LodestoneFuzz {
    static func start() {
        // Most inputs end in a protocol error, each logged as a warning: keep only the critical.
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = .critical
            return handler
        }
        do {
            fuzzer = try WireFuzzer()
        } catch {
            fail("\(error)")
        }
    }

    static func fail(_ message: String) -> Never {
        let line = Array("lodestone-fuzz: \(message)\n".utf8)
        _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
        exit(1)
    }
}
