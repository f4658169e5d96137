import Foundation
import LodestoneTesting
import XCTest

/// Xcursor themes on disk and the XCURSOR_* values are inputs too (issue 24): malformed and
/// truncated cursor files, themes that inherit in a cycle, a FIFO where a cursor or an
/// index.theme should be, and sizes, names and paths no one meant. Lodestone reads them when a
/// client sets a cursor shape (the theme's image, with `--pointer client`) and when it
/// attaches a cursor image (fingerprinted against every theme); it must start, keep running
/// and answer, with a warning or the defaults.
final class XcursorRobustnessTests: XCTestCase {
    // MARK: The fuzz corpus

    /// The kept seeds (real cursors, whole and cut short, and files whose headers lie: sizes,
    /// counts, positions, 32767×32767 images with a few bytes, zero images) and every crash
    /// `make fuzz` found, through `lodestone-xcursor-fuzz` built plainly.
    func testXcursorFuzzCorpusReplaysCrashNothing() throws {
        let fuzzer = URL(fileURLWithPath: Session.executable).deletingLastPathComponent().appendingPathComponent("lodestone-xcursor-fuzz").path
        guard FileManager.default.isExecutableFile(atPath: fuzzer) else { return XCTFail("\(fuzzer) is not built") }
        let directories = ["corpus", "crashes"].map { repositoryRoot + "/Tests/fuzz/xcursor-" + $0 }.filter { FileManager.default.fileExists(atPath: $0) }
        let (status, output) = try run([fuzzer] + directories)
        let summary = output.split(separator: "\n").last { $0.hasPrefix("ran ") } ?? "no summary"
        print("lodestone-xcursor-fuzz: \(summary)")
        XCTAssertEqual(status, 0, String(output.suffix(3000)))
        XCTAssertTrue(summary.hasSuffix("the theme reader is alive"), String(output.suffix(3000)))
        // The real cursors are read, not only refused.
        XCTAssertFalse(summary.contains(" 0 standard cursors"), String(summary))
    }

    // MARK: Themes on disk

    /// Every malformed seed as the theme's cursors, in a theme that inherits itself through
    /// another: a real Lodestone reads them all.
    func testMalformedThemeOnDiskKeepsLodestoneRunning() throws {
        let dir = try temporaryDirectory()
        let seeds = try FileManager.default.contentsOfDirectory(atPath: repositoryRoot + "/Tests/fuzz/xcursor-corpus")
            .filter { !$0.hasPrefix("dmz-") && !$0.hasPrefix("adwaita-") }.sorted()
        XCTAssertGreaterThan(seeds.count, 5)
        for (i, seed) in seeds.enumerated() {
            let theme = "bad-\(i)"
            try makeTheme(dir, theme, inherits: "\(theme)-b", cursors: ["text", "xterm", "default", "left_ptr", "ew-resize"],
                          from: repositoryRoot + "/Tests/fuzz/xcursor-corpus/" + seed)
            try makeTheme(dir, "\(theme)-b", inherits: theme, cursors: [], from: nil)
            try assertSurvives(["XCURSOR_PATH": dir, "XCURSOR_THEME": theme], seed)
        }
    }

    /// libXcursor opens a cursor file with fopen, which blocks on a FIFO until something
    /// writes to it: Lodestone hung for good (issue 24). The FIFO is now skipped, with a warning.
    func testFIFOInAThemeDoesNotHang() throws {
        let dir = try temporaryDirectory()
        try makeTheme(dir, "fifo", inherits: nil, cursors: [], from: nil)
        for name in ["text", "xterm", "default", "left_ptr"] { XCTAssertEqual(mkfifo(dir + "/fifo/cursors/" + name, 0o644), 0) }
        try assertSurvives(["XCURSOR_PATH": dir, "XCURSOR_THEME": "fifo"], "cursor files are FIFOs")
        // And an index.theme that is a FIFO (read for Inherits when a name is missing).
        try FileManager.default.createDirectory(atPath: dir + "/fifo-index/cursors", withIntermediateDirectories: true)
        XCTAssertEqual(mkfifo(dir + "/fifo-index/index.theme", 0o644), 0)
        try assertSurvives(["XCURSOR_PATH": dir, "XCURSOR_THEME": "fifo-index"], "index.theme is a FIFO")
    }

    // MARK: XCURSOR_* values

    func testOddXcursorSizesKeepLodestoneRunning() throws {
        for size in ["0", "-24", "2147483647", "-2147483648", "99999999999999999999", "abc", "", "24px", " 24"] {
            try assertSurvives(["XCURSOR_SIZE": size], "XCURSOR_SIZE=\(size)")
        }
    }

    func testOddXcursorThemesKeepLodestoneRunning() throws {
        for theme in ["", "no-such-theme", "../../../../../etc", "/", String(repeating: "x", count: 5000), "Adwaita:DMZ-White", "default"] {
            try assertSurvives(["XCURSOR_THEME": theme], "XCURSOR_THEME=\(theme.prefix(40))")
        }
    }

    func testOddXcursorPathsKeepLodestoneRunning() throws {
        let dir = try temporaryDirectory()
        XCTAssertEqual(mkfifo(dir + "/fifo", 0o644), 0)
        // A directory loop: loop/loop/loop/... and a theme whose cursors directory is its parent.
        try FileManager.default.createDirectory(atPath: dir + "/loop", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: dir + "/loop/loop", withDestinationPath: dir + "/loop")
        try FileManager.default.createSymbolicLink(atPath: dir + "/loop/cursors", withDestinationPath: dir + "/loop")
        try FileManager.default.createSymbolicLink(atPath: dir + "/self", withDestinationPath: dir + "/self")
        for path in ["", ":", String(repeating: ":", count: 5000), "/nonexistent", dir + "/fifo", dir, dir + "/loop", dir + "/self",
                     "~/../../../", "/dev/null", "/proc/self"] {
            try assertSurvives(["XCURSOR_PATH": path, "XCURSOR_THEME": "loop"], "XCURSOR_PATH=\(path.prefix(40))")
        }
    }

    // MARK: Helpers

    /// A Lodestone with `environment` reads the themes both ways (a shape shown with the
    /// theme's image, an image attached and fingerprinted), keeps running and answers.
    /// With `--pointer client` a shape is drawn with the theme's image; in the default mode
    /// an attached image is fingerprinted against the themes: both read every theme.
    private func assertSurvives(_ environment: [String: String], _ what: String, file: StaticString = #filePath, line: UInt = #line) throws {
        for mode in [["--pointer", "client"], []] {
            try assertSurvives(environment, what + " " + mode.joined(separator: " "), arguments: mode, file: file, line: line)
        }
    }

    private func assertSurvives(_ environment: [String: String], _ what: String, arguments: [String], file: StaticString, line: UInt) throws {
        let f = try AdaptiveFixture(extraArguments: arguments, environment: environment)
        let client = try RegionClient(session: f.session, title: "xcursor", background: 0xe0e0e0)
        try f.control.moveWindow("xcursor", x: 100, y: 100)
        try f.move(to: 300, 250)
        try client.sync()
        for shape: UInt32 in [9, 1, 18] {  // text, default, e-resize: each read from the themes
            try client.setCursorShape(shape)
            try f.control.advanceClock(milliseconds: 100)
        }
        // Any image: it is fingerprinted against every theme at this size.
        try client.setCursorImage(width: 24, height: 24, pixels: [UInt32](repeating: 0xff00_0000, count: 24 * 24), hotspot: (1, 1))
        try client.sync()
        try f.control.advanceClock(milliseconds: 100)
        XCTAssertTrue(f.session.compositorIsRunning, "\(what): Lodestone exited:\n\(f.session.log.suffix(3000))", file: file, line: line)
        _ = try f.control.pointer()
    }

    private func temporaryDirectory() throws -> String {
        let dir = NSTemporaryDirectory() + "lodestone-xcursor-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: dir) }
        return dir
    }

    /// DIR/THEME/cursors/NAME for each of `cursors` (copies of `from`), and an index.theme.
    private func makeTheme(_ dir: String, _ theme: String, inherits: String?, cursors: [String], from source: String?) throws {
        try FileManager.default.createDirectory(atPath: dir + "/" + theme + "/cursors", withIntermediateDirectories: true)
        if let inherits {
            try "[Icon Theme]\nName=\(theme)\nInherits=\(inherits)\n".write(toFile: dir + "/" + theme + "/index.theme", atomically: true, encoding: .utf8)
        }
        guard let source else { return }
        for name in cursors { try FileManager.default.copyItem(atPath: source, toPath: dir + "/" + theme + "/cursors/" + name) }
    }
}
