import Foundation
import LodestoneTesting
import XCTest

/// The config loader's fuzz corpus (issue 24): the kept seeds, every crash `make fuzz` found
/// (minimized) and the toml-test suite run through `lodestone-config-fuzz`, built plainly,
/// which checks that each ends as a message naming the file, never a crash or a hang.
final class ConfigFuzzCorpusTests: XCTestCase {
    static let tomlTest = "/usr/share/gocode/src/github.com/BurntSushi/toml/internal/toml-test/tests"

    func testConfigFuzzCorpusReplaysCrashNothing() throws {
        let fuzzer = URL(fileURLWithPath: Session.executable).deletingLastPathComponent().appendingPathComponent("lodestone-config-fuzz").path
        guard FileManager.default.isExecutableFile(atPath: fuzzer) else { return XCTFail("\(fuzzer) is not built") }
        XCTAssertTrue(FileManager.default.fileExists(atPath: Self.tomlTest), "make deps installs golang-github-burntsushi-toml-dev")
        let directories = (["corpus", "crashes"].map { repositoryRoot + "/Tests/fuzz/config-" + $0 } + [Self.tomlTest])
            .filter { FileManager.default.fileExists(atPath: $0) }
        let (status, output) = try run([fuzzer] + directories)
        let summary = output.split(separator: "\n").last { $0.hasPrefix("ran ") } ?? "no summary"
        print("lodestone-config-fuzz: \(summary)")
        XCTAssertEqual(status, 0, String(output.suffix(3000)))
        XCTAssertTrue(summary.hasSuffix("the loader is alive"), String(output.suffix(3000)))
    }
}
