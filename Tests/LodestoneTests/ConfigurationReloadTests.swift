import Foundation
import LodestoneTesting
import XCTest

/// config.toml reaching a running Lodestone: read at start, picked up again when an editor
/// saves it (a temporary file renamed over it), a bad save changing nothing; flags win.
final class ConfigurationReloadTests: XCTestCase {
    private var configHome: String!
    private var file: String { configHome + "/lodestone/config.toml" }

    override func setUpWithError() throws {
        configHome = NSTemporaryDirectory() + "lodestone-config-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: configHome + "/lodestone", withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: configHome) }

    /// Saves the way editors do: write a temporary file beside it, then rename it into place.
    private func save(_ text: String) throws {
        let temporary = configHome + "/lodestone/.config.toml.swp"
        try text.write(toFile: temporary, atomically: false, encoding: .utf8)
        XCTAssertEqual(rename(temporary, file), 0)
    }

    private func start(_ text: String, extraArguments: [String] = []) throws -> (Session, PointerShapeProbe) {
        try text.write(toFile: file, atomically: false, encoding: .utf8)
        let session = try Session(manualClock: true, extraArguments: extraArguments, environment: ["XDG_CONFIG_HOME": configHome])
        let probe = try PointerShapeProbe(session: session)
        try session.control.movePointer(x: 400, y: 300)
        return (session, probe)
    }

    /// The circle's width once its animations settle (19 pt at size 1).
    private func settledWidth(_ session: Session, _ probe: PointerShapeProbe) throws -> Double {
        try session.control.advanceClock(milliseconds: 1000)
        return try probe.shape().width
    }

    /// Waits for the compositor to read the saved file: it does so on its own loop.
    private func waitForWidth(_ expected: Double, _ session: Session, _ probe: PointerShapeProbe) throws -> Double {
        var width = 0.0
        _ = try session.wait(timeout: 5) {
            width = try settledWidth(session, probe)
            return abs(width - expected) < 0.5
        }
        return width
    }

    func testSizeFromTheFileAndLiveReload() throws {
        let (session, probe) = try start("[appearance]\nsize = 2\n")
        defer { session.stop() }
        XCTAssertEqual(try settledWidth(session, probe), 38, accuracy: 0.5, "size 2 from the file at start-up")

        try save("[appearance]\nsize = 3\n")
        XCTAssertEqual(try waitForWidth(57, session, probe), 57, accuracy: 0.5, "the saved size reaches the running pointer:\n\(String(session.log.suffix(1500)))")
        XCTAssertTrue(session.log.contains("reloaded"), String(session.log.suffix(1500)))

        // Written in place (`echo ... > config.toml`): seen when the file is closed.
        try "[appearance]\nsize = 1\n".write(toFile: file, atomically: false, encoding: .utf8)
        XCTAssertEqual(try waitForWidth(19, session, probe), 19, accuracy: 0.5, "an in-place write applies too")
    }

    /// A bad save is refused with its key and line, and the pointer keeps its size.
    func testABadSaveChangesNothingAndSaysWhy() throws {
        let (session, probe) = try start("[appearance]\nsize = 2\n")
        defer { session.stop() }
        XCTAssertEqual(try settledWidth(session, probe), 38, accuracy: 0.5)

        try save("[appearance]\nborder = true\nsize = 9\n")
        XCTAssertTrue(try session.wait(timeout: 5) { session.log.contains("config.toml:3: appearance.size: 9 is out of range") },
                      "no message naming the key and line:\n\(String(session.log.suffix(1500)))")
        XCTAssertEqual(try settledWidth(session, probe), 38, accuracy: 0.5, "the previous settings stay")

        // A good save afterwards still applies.
        try save("[appearance]\nsize = 1\n")
        XCTAssertEqual(try waitForWidth(19, session, probe), 19, accuracy: 0.5)
    }

    /// Issue 24: this save made toml++ abort inside the running compositor, and every app
    /// died with it. Now: a warning naming line 3, the session and its client stay, the
    /// size in force stays, and the next good save applies.
    func testAHalfTypedTableHeaderSavedLiveIsAWarning() throws {
        let (session, probe) = try start("[appearance]\nsize = 3\n")
        defer { session.stop() }
        let app = try RegionClient(session: session, title: "app")
        try app.sync()
        XCTAssertEqual(try settledWidth(session, probe), 57, accuracy: 0.5)

        try save("[appearance]\nsize = 2\n[[[\n")
        XCTAssertTrue(try session.wait(timeout: 5) { session.log.contains("config.toml:3: ") && session.log.contains("the settings stay as they were") },
                      "no warning naming line 3:\n\(String(session.log.suffix(1500)))")
        let warning = session.log.split(separator: "\n").first { $0.contains("config.toml:3: ") } ?? ""
        XCTAssertTrue(warning.contains("warning"), "logged as a warning: \(warning)")
        XCTAssertTrue(session.compositorIsRunning, "the session is up:\n\(String(session.log.suffix(1500)))")
        XCTAssertEqual(try settledWidth(session, probe), 57, accuracy: 0.5, "the size in force stays")
        XCTAssertNoThrow(try app.sync(), "the app is still connected and served")

        try save("[appearance]\nsize = 1\n")
        XCTAssertEqual(try waitForWidth(19, session, probe), 19, accuracy: 0.5, "a later good save applies")
    }

    /// Saved by deleting the file and writing a new one (a new inode): the watch is on the
    /// directory, so this save and every later one apply.
    func testDeletedAndRecreatedFileIsStillWatched() throws {
        let (session, probe) = try start("[appearance]\nsize = 2\n")
        defer { session.stop() }
        XCTAssertEqual(try settledWidth(session, probe), 38, accuracy: 0.5)
        XCTAssertEqual(unlink(file), 0)
        try "[appearance]\nsize = 3\n".write(toFile: file, atomically: false, encoding: .utf8)
        XCTAssertEqual(try waitForWidth(57, session, probe), 57, accuracy: 0.5, "the re-created file applies")
        XCTAssertEqual(unlink(file), 0)
        try save("[appearance]\nsize = 1\n")
        XCTAssertEqual(try waitForWidth(19, session, probe), 19, accuracy: 0.5, "and a later save too")
    }

    /// Special files put in config.toml's place while running: a FIFO (never waited on), a
    /// directory, a broken symlink. Each is a warning; the settings stay; a good save applies.
    func testSpecialFilesSavedLiveAreWarnings() throws {
        let (session, probe) = try start("[appearance]\nsize = 2\n")
        defer { session.stop() }
        XCTAssertEqual(try settledWidth(session, probe), 38, accuracy: 0.5)
        let temporary = configHome + "/lodestone/.config.toml.new"
        let cases: [(String, () -> Int32)] = [
            ("is a named pipe (FIFO)", { mkfifo(temporary, 0o600) }),
            ("is a directory", { mkdir(temporary, 0o700) }),
            ("is a symbolic link to", { symlink(self.configHome + "/nowhere.toml", temporary) }),
        ]
        for (message, make) in cases {
            _ = try? FileManager.default.removeItem(atPath: file)
            XCTAssertEqual(make(), 0, message)
            XCTAssertEqual(rename(temporary, file), 0, message)
            XCTAssertTrue(try session.wait(timeout: 5) { session.log.contains(message) }, "\(message):\n\(String(session.log.suffix(1500)))")
            XCTAssertTrue(session.compositorIsRunning)
            XCTAssertEqual(try settledWidth(session, probe), 38, accuracy: 0.5, message)
        }
        _ = try? FileManager.default.removeItem(atPath: file)
        try save("[appearance]\nsize = 3\n")
        XCTAssertEqual(try waitForWidth(57, session, probe), 57, accuracy: 0.5)
    }

    /// --pointer-size wins over the file, at start and after every save.
    func testFlagsWinOverTheFile() throws {
        let (session, probe) = try start("[appearance]\nsize = 2\n", extraArguments: ["--pointer-size", "3"])
        defer { session.stop() }
        XCTAssertEqual(try settledWidth(session, probe), 57, accuracy: 0.5)
        try save("[appearance]\nsize = 4\nborder = true\n")
        XCTAssertTrue(try session.wait(timeout: 5) { session.log.contains("reloaded") }, String(session.log.suffix(1500)))
        XCTAssertEqual(try settledWidth(session, probe), 57, accuracy: 0.5)
    }

    /// `pointer` changes while running: over an app asking for the text cursor, the adaptive
    /// beam, then (pointer = "client") the theme's cursor, then the beam again.
    func testPointerModeFollowsTheFile() throws {
        try "pointer = \"adaptive\"\n".write(toFile: file, atomically: false, encoding: .utf8)
        let f = try AdaptiveFixture(environment: ["XDG_CONFIG_HOME": configHome])
        let client = try RegionClient(session: f.session, title: "mode")
        try f.control.moveWindow("mode", x: 100, y: 100)
        try f.move(to: 300, 250)
        try client.sync()
        try client.setCursorShape(9)  // text
        func kind() throws -> PointerShape.Kind {
            try f.control.movePointer(dx: 0.5, dy: 0)
            try f.control.advanceClock(milliseconds: 600)
            return try f.probe.shape().kind
        }
        XCTAssertEqual(try kind(), .verticalBeam)
        try save("pointer = \"client\"\n")
        XCTAssertTrue(try f.session.wait(timeout: 5) { try kind() == .clientCursor }, String(f.session.log.suffix(1500)))
        try save("pointer = \"adaptive\"\n")
        XCTAssertTrue(try f.session.wait(timeout: 5) { try kind() == .verticalBeam }, String(f.session.log.suffix(1500)))
    }

    /// `appearance.style` while running: the circle, then (saved) the arrow, then the circle
    /// again; `--pointer-style` wins over the file.
    func testStyleFollowsTheFileAndTheFlagWins() throws {
        let (session, probe) = try start("[appearance]\nstyle = \"circle\"\n")
        defer { session.stop() }
        func kind() throws -> PointerShape.Kind {
            try session.control.advanceClock(milliseconds: 1000)
            return try probe.shape().kind
        }
        XCTAssertEqual(try kind(), .circle)
        try save("[appearance]\nstyle = \"arrow\"\n")
        XCTAssertTrue(try session.wait(timeout: 5) { try kind() == .arrow }, "the saved style reaches the pointer:\n\(String(session.log.suffix(1500)))")
        let arrow = try probe.shape()
        XCTAssertEqual(arrow.y, 300, accuracy: 0.01, "the arrow's tip at the pointer")
        try save("[appearance]\nstyle = \"circle\"\n")
        XCTAssertTrue(try session.wait(timeout: 5) { try kind() == .circle }, String(session.log.suffix(1500)))

        let (flagged, flaggedProbe) = try start("[appearance]\nstyle = \"circle\"\n", extraArguments: ["--pointer-style", "arrow"])
        defer { flagged.stop() }
        try flagged.control.advanceClock(milliseconds: 1000)
        XCTAssertEqual(try flaggedProbe.shape().kind, .arrow, "--pointer-style arrow over the file's circle")
    }
}
