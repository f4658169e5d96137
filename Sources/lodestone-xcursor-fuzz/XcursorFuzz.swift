import PointerAdaptation
import Glibc
import LodestoneSystem
import Logging

// `lodestone-xcursor-fuzz`: byte strings as an Xcursor file in a theme on disk, read by
// Lodestone's own theme code (`CursorThemeReading`, over CursorThemes), issue 24.
//
// Each input is written as the theme `fuzz`'s `default` cursor (`left_ptr` a link to it) in a
// temporary directory that is XCURSOR_PATH, and the theme is read the two ways a session
// reads it: every image fingerprinted at scales 1 and 2, and every cursor's standard image,
// which must then be recognised (a standard image the fingerprints miss is a finding), and
// at a scale of 2³¹-1, where nothing is read (a nominal size past Int32 trapped). The
// theme inherits `fuzz-b`, which inherits `fuzz`: a cycle every lookup of a missing name walks.
//
// Built by `make fuzz` with `-sanitize=fuzzer` and `-D LODESTONE_LIBFUZZER`, it is a
// coverage-guided libFuzzer target (libXcursor's parsing is C built without coverage: the
// seeds, real Adwaita and DMZ cursors whole and cut short, stand in for its guidance). Built
// plainly (`swift build`), it runs the inputs in the files and directories it is given once
// each: the kept corpus (Tests/fuzz/xcursor-corpus) and every crash found
// (Tests/fuzz/xcursor-crashes) stay regression tests (`XcursorFuzzCorpusTests`).
#if LODESTONE_LIBFUZZER
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    XcursorFuzz.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}
#else
@main
extension XcursorFuzz {
    /// Runs each input in the files and directories named on the command line once.
    static func main() {
        let files = FuzzCorpus.files(under: Array(CommandLine.arguments.dropFirst()))
        var read = CursorThemeReading.Result()
        for file in files {
            guard let bytes = FuzzCorpus.contents(of: file) else { fail("cannot read \(file)") }
            let result = bytes.withUnsafeBytes { XcursorFuzz.run($0) }
            read.fingerprinted += result.fingerprinted
            read.standard += result.standard
        }
        print("ran \(files.count) inputs; \(read.fingerprinted) images fingerprinted, \(read.standard) standard cursors; the theme reader is alive")
    }
}
#endif

enum XcursorFuzz {
    /// The theme directory, made once (libXcursor reads XCURSOR_PATH once per process).
    nonisolated(unsafe) static var cursorFile: String = makeThemes()

    /// One input as the theme's cursor file, read by Lodestone's theme code.
    @discardableResult
    static func run(_ bytes: UnsafeRawBufferPointer) -> CursorThemeReading.Result {
        let file = cursorFile
        let fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { fail("cannot write \(file)") }
        var written = 0
        while written < bytes.count {
            let n = write(fd, bytes.baseAddress! + written, bytes.count - written)
            guard n > 0 else { fail("cannot write \(file)") }
            written += n
        }
        close(fd)
        let result = CursorThemeReading.read(theme: "fuzz", size: "24", scales: [1, 2, Int32.max], log: Logger(label: "xcursor-fuzz") { _ in SwiftLogNoOpLogHandler() })
        if !result.unrecognised.isEmpty { fail("standard cursors the fingerprints do not recognise: \(result.unrecognised)") }
        return result
    }

    /// XCURSOR_PATH=DIR with DIR/fuzz (its cursors, inheriting fuzz-b) and DIR/fuzz-b
    /// (inheriting fuzz); the path of the cursor file each input is written to.
    private static func makeThemes() -> String {
        var template = Array("/tmp/lodestone-xcursor-fuzz.XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { fail("\(SystemError.lastError("mkdtemp failed", call: "mkdtemp"))") }
        let dir = String(cString: made)
        for (theme, inherits) in [("fuzz", "fuzz-b"), ("fuzz-b", "fuzz")] {
            mkdir(dir + "/" + theme, 0o755)
            mkdir(dir + "/" + theme + "/cursors", 0o755)
            let index = "[Icon Theme]\nName=\(theme)\nInherits=\(inherits)\n"
            let fd = open(dir + "/" + theme + "/index.theme", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            _ = index.withCString { write(fd, $0, strlen($0)) }
            close(fd)
        }
        symlink("default", dir + "/fuzz/cursors/left_ptr")
        setenv("XCURSOR_PATH", dir, 1)
        return dir + "/fuzz/cursors/default"
    }

    static func fail(_ message: String) -> Never {
        let line = Array("lodestone-xcursor-fuzz: \(message)\n".utf8)
        _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
        abort()
    }
}
