import Foundation
import LodestoneTesting
import XCTest

/// lodestone_pointer_engine_load_settings and lodestone_pointer_adapter_load_settings, from C
/// (c-api/tests/settings-test.c built with meson against this build's library): Lodestone's
/// config.toml applied to a host's engine and adapter, refused with Lodestone's message, or absent.
final class PointerSettingsFileTests: XCTestCase {
    private var scratch: String!

    override func setUpWithError() throws {
        try skipUnderSanitizersForALibraryConsumer()
        try requireProgram("meson")
        try requireProgram("ninja")
        scratch = NSTemporaryDirectory() + "lodestone-settings-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    }

    override func tearDown() {
        if let scratch { try? FileManager.default.removeItem(atPath: scratch) }
    }

    private func settingsTest() throws -> String {
        let build = scratch + "/build"
        for arguments in [["meson", "setup", "-Dswiftpm_libdir=" + PointerLibraryTests.libraryDirectory, build, PointerLibraryTests.project],
                          ["ninja", "-C", build, "settings-test"]] {
            let (status, output) = try run(arguments)
            guard status == 0 else { throw TestFailure("\(arguments.joined(separator: " ")) failed:\n\(output)") }
        }
        return build + "/settings-test"
    }

    /// Runs it on a file with `text` (nil: no file); the lines it printed, by their first word.
    private func load(_ text: String?, program: String) throws -> [String: String] {
        let path = scratch + "/config-\(UInt32.random(in: 0...UInt32.max)).toml"
        if let text { try text.write(toFile: path, atomically: true, encoding: .utf8) }
        let (status, output) = try run([program, path])
        XCTAssertEqual(status, 0, output)
        var lines: [String: String] = [:]
        for line in output.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1)
            if parts.count == 2 { lines[String(parts[0])] = String(parts[1]) }
        }
        return lines
    }

    func testConfigFileIsAppliedRefusedWithLodestonesMessageOrAbsent() throws {
        let program = try settingsTest()
        let none = try load(nil, program: program)
        XCTAssertEqual(none["result"], "0", "\(none)")
        let defaultWidth = try XCTUnwrap(Double(none["width"] ?? ""))

        let doubled = try load("[appearance]\nsize = 2\n", program: program)
        XCTAssertEqual(doubled["result"], "1", "\(doubled)")
        XCTAssertEqual(try XCTUnwrap(Double(doubled["width"] ?? "")), defaultWidth * 2, accuracy: 0.5, "appearance.size = 2 doubles the circle")

        let bad = try load("[appearance]\nsize = 7\n", program: program)
        XCTAssertEqual(bad["result"], "-1", "\(bad)")
        XCTAssertTrue(bad["error"]?.contains(":2: appearance.size: ") == true, "Lodestone's message, file:line: key: reason: \(bad)")
        XCTAssertEqual(bad["width"], none["width"], "a refused file changes nothing")

        // legacy-apps for the adapter: applied, or refused with the key named.
        XCTAssertEqual(try load("legacy-apps = \"off\"\n", program: program)["adapter"], "1")
        XCTAssertEqual(try load(nil, program: program)["adapter"], "0")
        let badMode = try load("legacy-apps = \"sometimes\"\n", program: program)
        XCTAssertEqual(badMode["adapter"], "-1", "\(badMode)")
        XCTAssertTrue(badMode["error"]?.contains("legacy-apps") == true, "\(badMode)")

        let unknown = try load("[behaviour]\nmagnetic = true\n", program: program)
        XCTAssertEqual(unknown["result"], "-1")
        XCTAssertTrue(unknown["error"]?.contains("behaviour.magnetic: unknown key") == true, "\(unknown)")
    }
}
