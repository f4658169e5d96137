import Foundation
import Glibc
import LodestoneConfig
import LodestoneSystem
import XCTest

/// No byte sequence and no kind of file at config.toml's path can crash or hang Lodestone
/// (issue 24): each gives a message naming the file, and the line where there is one.
final class ConfigurationRobustnessTests: XCTestCase {
    private var directory: String!

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "lodestone-config-robust-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: directory) }

    private func refusal(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) -> ConfigurationError? {
        do {
            _ = try ConfigurationFile.parse(bytes: bytes, file: "config.toml")
            XCTFail("accepted: \(String(decoding: bytes, as: UTF8.self))", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }

    private func loadRefusal(_ path: String, file: StaticString = #filePath, line: UInt = #line) -> ConfigurationError? {
        do {
            let c = try ConfigurationFile.load(path)
            XCTFail("accepted: \(String(describing: c))", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }

    // MARK: What toml++ aborts on

    /// The file from issue 24, which made toml++ abort (`parse_key()`'s assertion) in the
    /// compositor: now a message naming line 3.
    func testAHalfTypedTableHeaderIsAMessageNotACrash() throws {
        let error = try XCTUnwrap(refusal(Array("[appearance]\nsize = 2\n[[[\n".utf8)))
        print("[[[: \(error)")
        XCTAssertEqual(error.line, 3, error.description)
        XCTAssertTrue(error.description == "config.toml:3: the TOML parser crashed reading this line (signal 6)"
                      || error.description.hasPrefix("config.toml:3:"), error.description)
    }

    /// The line is found by parsing ever longer beginnings of the file, each in a child: the
    /// first beginning that crashes toml++ ends at the line to blame, wherever it is.
    func testACrashNamesItsLineAnywhereInTheFile() throws {
        for (text, line) in [("[[[\nsize = 2\n", 1), ("a = 1\n[\nb = 2\n", 2), ("[appearance]\nsize = 2\n[[[\n# trailing\n\n", 3)] {
            let error = try XCTUnwrap(refusal(Array(text.utf8)))
            guard error.reason.contains("crashed") else { continue }  // a toml++ that no longer aborts here
            XCTAssertEqual(error.line, line, "\(text.debugDescription): \(error)")
        }
    }

    /// Nested far deeper than toml++'s limit or ours: a message, no stack overflow.
    func testDeepNestingIsAMessage() throws {
        for text in [String(repeating: "[", count: 100_000), "a = " + String(repeating: "[", count: 100_000),
                     "a = " + String(repeating: "{b=", count: 50_000), "a = " + String(repeating: "[", count: 200) + String(repeating: "]", count: 200),
                     "[" + (0..<20_000).map { "k\($0)" }.joined(separator: ".") + "]\n"] {
            let error = try XCTUnwrap(refusal(Array(text.utf8)))
            XCTAssertFalse(error.reason.contains("did not finish"), "\(text.prefix(40)): \(error)")
        }
    }

    func testNotUTF8AndNULBytesNameTheLine() throws {
        let utf8 = try XCTUnwrap(refusal([0x61, 0x3d, 0x31, 0x0a, 0x62, 0x3d, 0x22, 0xff, 0x22, 0x0a]))
        XCTAssertEqual(utf8.description, "config.toml:2: is not UTF-8 text")
        let nul = try XCTUnwrap(refusal(Array("[appearance]\nsize = 2\n\0\n".utf8)))
        XCTAssertEqual(nul.description, "config.toml:3: contains a NUL byte")
    }

    // MARK: The child process

    func testAChildThatAbortsTrapsOrOverflowsItsStackIsReportedBySignal() throws {
        let fork = ForkedComputation()
        XCTAssertEqual(try fork.run { abort() }, .crashed(signal: SIGABRT))
        XCTAssertEqual(try fork.run { fatalError("a trap in the child") }.isCrash, true)
        func deeper(_ n: Int) -> Int { n == Int.max ? 0 : deeper(n + 1) + 1 }
        XCTAssertEqual(try fork.run { [UInt8(truncatingIfNeeded: deeper(0))] }, .crashed(signal: SIGSEGV))
        XCTAssertEqual(try fork.run { Array("fine".utf8) }, .finished(Array("fine".utf8)))
    }

    func testAChildThatLoopsIsKilledAtTheTimeout() throws {
        var fork = ForkedComputation()
        fork.timeout = 0.3
        let start = Date()
        XCTAssertEqual(try fork.run { while true { sched_yield() } }, .timedOut)
        XCTAssertLessThan(Date().timeIntervalSince(start), 2)
    }

    func testAChildThatEatsMemoryIsStoppedByItsLimit() throws {
        var fork = ForkedComputation()
        fork.addressSpaceGrowth = 64 << 20
        // Under `make asan` a failed malloc does not return nil: AddressSanitizer's allocator
        // ends the child with status 1 (allocator_may_return_null=0), which the parent reports
        // as an error. Stopped by its limit all the same.
        if ProcessInfo.processInfo.environment["LODESTONE_SANITIZED"] != nil {
            XCTAssertThrowsError(try fork.run { Self.eatMemory() })
            return
        }
        let outcome = try fork.run { Self.eatMemory() }
        XCTAssertTrue(outcome == .finished(Array("refused".utf8)) || outcome.isCrash, "\(outcome)")
    }

    /// A gigabyte, a megabyte at a time (kept, never freed: the child ends).
    private static func eatMemory() -> [UInt8] {
        var blocks: [UnsafeMutableRawPointer] = []
        for _ in 0..<1024 {
            guard let p = malloc(1 << 20) else { return Array("refused".utf8) }
            memset(p, 1, 1 << 20)
            blocks.append(p)
        }
        return Array("all of it".utf8)
    }

    /// A large answer is read while the child writes it (more than a socket buffer holds).
    func testALargeAnswerArrivesWhole() throws {
        let big = (0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 * 7) }
        XCTAssertEqual(try ForkedComputation().run { big }, .finished(big))
    }

    // MARK: The toml-test suite (Debian's golang-github-burntsushi-toml-dev carries it)

    static let tomlTest = "/usr/share/gocode/src/github.com/BurntSushi/toml/internal/toml-test/tests"

    private func cases(_ kind: String) throws -> [String] {
        let root = Self.tomlTest + "/" + kind
        guard let walk = FileManager.default.enumerator(atPath: root) else {
            XCTFail("\(root) is missing: `make deps` installs golang-github-burntsushi-toml-dev")
            return []
        }
        return walk.compactMap { $0 as? String }.filter { $0.hasSuffix(".toml") }.sorted().map { root + "/" + $0 }
    }

    /// Every invalid case is refused with a message naming the file; none crashes the test
    /// process (toml++ runs in a child), and what toml++ itself dies on is listed.
    func testEveryTomlTestInvalidCaseGivesAMessage() throws {
        let files = try cases("invalid")
        XCTAssertGreaterThan(files.count, 200)
        var crashed: [String] = []
        for path in files {
            guard let error = loadRefusal(path) else { continue }
            XCTAssertTrue(error.description.hasPrefix(path + ":"), error.description)
            XCTAssertFalse(error.reason.isEmpty)
            XCTAssertFalse(error.reason.contains("did not finish"), error.description)
            if error.reason.contains("crashed") { crashed.append(error.description) }
        }
        print("toml-test: \(files.count) invalid cases refused; toml++ crashed on \(crashed.count):\n" + crashed.joined(separator: "\n"))
    }

    /// The valid cases are not Lodestone's keys, so they are refused too, but by the key
    /// checks: toml++ parses each in the child and never crashes. The one exception is
    /// TOML 1.1's `\e` escape, which toml++ (TOML 1.0) calls a syntax error.
    func testEveryTomlTestValidCaseParses() throws {
        let files = try cases("valid")
        XCTAssertGreaterThan(files.count, 90)
        let toml11 = ["string/escape-esc.toml"]
        for path in files {
            do {
                _ = try ConfigurationFile.load(path)
            } catch {
                XCTAssertFalse(error.reason.contains("crashed") || error.reason.contains("did not finish"), error.description)
                if !toml11.contains(where: path.hasSuffix) { XCTAssertFalse(error.reason.contains("syntax error"), error.description) }
            }
        }
    }

    // MARK: Special files

    func testAFIFOIsRefusedWithoutBlocking() throws {
        let path = directory + "/config.toml"
        XCTAssertEqual(mkfifo(path, 0o600), 0)
        let start = Date()
        let error = try XCTUnwrap(loadRefusal(path))
        XCTAssertLessThan(Date().timeIntervalSince(start), 1)
        XCTAssertEqual(error.description, "\(path): is a named pipe (FIFO), not a regular file")
    }

    func testADirectoryIsRefused() throws {
        let path = directory + "/config.toml"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        XCTAssertEqual(try XCTUnwrap(loadRefusal(path)).description, "\(path): is a directory, not a regular file")
    }

    func testADeviceIsRefused() throws {
        let path = directory + "/config.toml"
        XCTAssertEqual(symlink("/dev/zero", path), 0)
        XCTAssertEqual(try XCTUnwrap(loadRefusal(path)).description, "\(path): is a character device, not a regular file")
    }

    /// Root reads any file whatever its mode, so as root the file is a link to one the
    /// kernel refuses even root: /proc/sys/vm/compact_memory (mode 0200).
    func testAnUnreadableFileSaysPermissionDenied() throws {
        let path = directory + "/config.toml"
        if getuid() == 0 {
            let writeOnly = "/proc/sys/vm/compact_memory"
            try XCTSkipUnless(access(writeOnly, F_OK) == 0 && open(writeOnly, O_RDONLY) < 0 && errno == EACCES,
                              "running as root, and \(writeOnly) (which root cannot read either) is not here")
            XCTAssertEqual(symlink(writeOnly, path), 0)
        } else {
            try "pointer = \"client\"\n".write(toFile: path, atomically: false, encoding: .utf8)
            XCTAssertEqual(chmod(path, 0), 0)
        }
        XCTAssertEqual(try XCTUnwrap(loadRefusal(path)).description, "\(path): cannot be read: Permission denied")
    }

    func testABrokenSymlinkNamesItsTarget() throws {
        let path = directory + "/config.toml"
        XCTAssertEqual(symlink(directory + "/dotfiles/lodestone.toml", path), 0)
        XCTAssertEqual(try XCTUnwrap(loadRefusal(path)).description,
                       "\(path): is a symbolic link to \(directory!)/dotfiles/lodestone.toml, which does not exist")
        // A link to a file that is there reads that file.
        try FileManager.default.createDirectory(atPath: directory + "/dotfiles", withIntermediateDirectories: false)
        try "pointer = \"client\"\n".write(toFile: directory + "/dotfiles/lodestone.toml", atomically: false, encoding: .utf8)
        XCTAssertEqual(try ConfigurationFile.load(path)?.pointerMode, .client)
    }

    func testAHugeFileIsRefusedBeforeItIsRead() throws {
        let path = directory + "/config.toml"
        XCTAssertEqual(truncate(path, 0), -1)  // not there yet
        let fd = open(path, O_CREAT | O_WRONLY, 0o600)
        XCTAssertGreaterThanOrEqual(fd, 0)
        XCTAssertEqual(ftruncate(fd, 1 << 40), 0)  // a sparse terabyte
        close(fd)
        let start = Date()
        XCTAssertEqual(try XCTUnwrap(loadRefusal(path)).description, "\(path): is larger than 1 MiB: that is not a configuration file")
        XCTAssertLessThan(Date().timeIntervalSince(start), 1)
        // Just under the limit: read and parsed (a comment), in good time.
        let comment = "#" + String(repeating: "x", count: ConfigurationFile.maximumSize - 2) + "\n"
        try comment.write(toFile: path, atomically: false, encoding: .utf8)
        XCTAssertEqual(try ConfigurationFile.load(path), Configuration())
    }
}

extension ForkedComputation.Outcome {
    var isCrash: Bool { if case .crashed = self { true } else { false } }
}
