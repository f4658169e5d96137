import Foundation
import LodestoneTesting
import XCTest

/// config.toml's `[keyboard]` key repeat reaches clients as wl_keyboard.repeat_info, at start
/// and when the file is saved while they run (the pywayland client in
/// Tests/clients/surface_client.py prints each one it gets). Without the keys, 25 a second
/// after 600 ms. (The VM's scenarios type through QMP with repeat off: under emulation on a
/// loaded machine a key's release can reach a client after the delay, which repeats it.)
final class KeyRepeatTests: XCTestCase {
    private let client = repositoryRoot + "/Tests/clients/surface_client.py"
    private func read(_ path: String) -> [String] {
        textOfFile(path).split(separator: "\n").map(String.init)
    }

    func testConfiguredRepeatReachesClientsAndAnEditReachesThemAtOnce() throws {
        let directory = NSTemporaryDirectory() + "lodestone-repeat-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let config = directory + "/config.toml"
        try "[keyboard]\nrepeat-rate = 0\nrepeat-delay = 250\n".write(toFile: config, atomically: true, encoding: .utf8)
        let session = try Session(extraArguments: ["--config", config])
        defer { session.stop() }
        let log = session.runtimeDirectory + "/repeat.txt"
        try session.launch(["python3", client, "shortcuts", "off"], output: log)
        XCTAssertTrue(try session.wait(timeout: 20) { self.read(log).contains("mapped") }, "\(read(log))")
        XCTAssertEqual(read(log).filter { $0.hasPrefix("repeat_info") }, ["repeat_info 0 250"], "repeat off, as the file says")

        // Saved while the client runs: the delay goes back to the default.
        try "[keyboard]\nrepeat-rate = 40\n".write(toFile: config, atomically: true, encoding: .utf8)
        XCTAssertTrue(try session.wait { self.read(log).contains("repeat_info 40 600") }, "\(read(log))\n\(session.log.suffix(2000))")

        // No keys in the file any more: the defaults again.
        try "\n".write(toFile: config, atomically: true, encoding: .utf8)
        XCTAssertTrue(try session.wait { self.read(log).contains("repeat_info 25 600") }, "\(read(log))")
    }
}
