import Glibc
import LodestoneConfig
import LodestoneSystem

// `lodestone-config-fuzz`: byte strings into the config loader, `ConfigurationFile.parse(bytes:)`,
// the same door config.toml takes at start-up and on every save (issue 24).
//
// Built by `make fuzz` with `-sanitize=fuzzer` and `-D LODESTONE_LIBFUZZER`, it is a
// coverage-guided libFuzzer target. It fuzzes the loader as Lodestone runs it, TOMLKit in a
// forked child included: an abort in toml++ must end as a message here, not as a crash of
// this process, and that is what is checked. (libFuzzer sees coverage of this process only:
// the UTF-8 and NUL checks, the child's answer being read, every key's checks; toml++'s own
// branches run in the child, where the toml-test seeds stand in for that guidance.)
//
// Built plainly (`swift build`), it runs the inputs in the files and directories it is given
// once each, which is how the kept corpus (Tests/fuzz/config-corpus) and every crash found
// (Tests/fuzz/config-crashes) stay regression tests (`ConfigFuzzCorpusTests`).
#if LODESTONE_LIBFUZZER
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    _ = ConfigFuzz.run(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
#else
@main
extension ConfigFuzz {
    /// Runs each input in the files and directories named on the command line once.
    static func main() {
        let files = FuzzCorpus.files(under: Array(CommandLine.arguments.dropFirst()))
        var parserFailures = 0
        for file in files {
            guard let bytes = FuzzCorpus.contents(of: file) else { fail("cannot read \(file)") }
            if ConfigFuzz.run(bytes) == .parserFailed { parserFailures += 1 }
        }
        print("ran \(files.count) inputs; toml++ crashed or hung in its child on \(parserFailures); the loader is alive")
    }
}
#endif

enum ConfigFuzz {
    enum Result { case accepted, refused, parserFailed }

    /// One input through the loader. It must return or throw a `ConfigurationError` that
    /// names the file, and a line inside it when it names one; anything else is a finding
    /// (abort, which libFuzzer keeps as a crash input).
    static func run(_ bytes: [UInt8]) -> Result {
        do {
            _ = try ConfigurationFile.parse(bytes: bytes, file: "fuzz.toml")
            return .accepted
        } catch {
            let lines = bytes.count { $0 == 0x0a } + 1
            guard error.description.hasPrefix("fuzz.toml"), !error.reason.isEmpty else { fail("a message without the file: \(error)") }
            if let line = error.line, !(1...lines).contains(line) { fail("line \(line) of a file of \(lines): \(error)") }
            // A crash or a hang of toml++ in its child is what the loader is for: counted, not a finding.
            return error.reason.contains("crashed") || error.reason.contains("did not finish") ? .parserFailed : .refused
        }
    }

    static func fail(_ message: String) -> Never {
        let line = Array("lodestone-config-fuzz: \(message)\n".utf8)
        _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
        abort()
    }
}
