import Foundation
import LodestoneTesting
import XCTest

/// zwlr_output_manager_v1 with the real tools, in headless Lodestone with two 800×600 heads
/// (`--outputs 2`): wlr-randr lists both, moves one and scales it, and what every other
/// client sees follows (wl_output and xdg_output through wayland-info, the composed frame,
/// the pointer's bounds, where a new window maps); kanshi applies the profile that matches
/// the heads. Misbehaving configurations (Tests/clients/output_management_client.py) get
/// the protocol's errors, and Lodestone lives on.
final class OutputManagementTests: XCTestCase {
    private var session: Session!

    override func setUpWithError() throws {
        try requireProgram("wlr-randr")
        try requireProgram("wayland-info")
        session = try Session(size: "800x600", extraArguments: ["--outputs", "2"])
    }

    override func tearDown() {
        session?.stop()
        session = nil
    }

    private func randr(_ arguments: [String] = []) throws -> (status: Int32, output: String) {
        try run(["timeout", "10", "wlr-randr"] + arguments, environment: session.clientEnvironment)
    }

    private func info() throws -> String {
        let (status, text) = try run(["timeout", "10", "wayland-info"], environment: session.clientEnvironment)
        XCTAssertEqual(status, 0, text)
        return text
    }

    private func matches(_ text: String, _ pattern: String) -> Bool { text.range(of: pattern, options: .regularExpression) != nil }

    func testWlrRandrMovesAndScalesAHeadAndEverythingFollows() throws {
        let (listed, before) = try randr()
        XCTAssertEqual(listed, 0, before)
        XCTAssertTrue(matches(before, #"HEADLESS-1 "Lodestone HEADLESS-1"\s+Enabled: yes\s+Modes:\s+800x600 px, 60\.0+ Hz \(preferred, current\)\s+Position: 0,0\s+Transform: normal\s+Scale: 1\.0+"#), before)
        XCTAssertTrue(matches(before, #"HEADLESS-2 "Lodestone HEADLESS-2"\s+Enabled: yes[\s\S]*?Position: 800,0"#), before)

        // HEADLESS-2 below HEADLESS-1, at scale 2: 800×600 pixels are 400×300 logical.
        let (moved, said) = try randr(["--output", "HEADLESS-2", "--pos", "0,600", "--scale", "2"])
        XCTAssertEqual(moved, 0, said)
        let after = try randr().output
        XCTAssertTrue(matches(after, #"HEADLESS-2 "Lodestone HEADLESS-2"[\s\S]*?Position: 0,600\s+Transform: normal\s+Scale: 2\.0+"#), after)
        XCTAssertTrue(matches(after, #"HEADLESS-1 "Lodestone HEADLESS-1"[\s\S]*?Position: 0,0\s+Transform: normal\s+Scale: 1\.0+"#), after)
        let text = try info()
        XCTAssertTrue(matches(text, #"name: HEADLESS-2\s+description: Lodestone HEADLESS-2\s+x: 0, y: 600, scale: 2"#), text)
        XCTAssertTrue(matches(text, #"name: 'HEADLESS-2'[\s\S]*?logical_x: 0, logical_y: 600\s+logical_width: 400, logical_height: 300"#), text)
        XCTAssertTrue(matches(text, #"name: 'HEADLESS-1'[\s\S]*?logical_x: 0, logical_y: 0\s+logical_width: 800, logical_height: 600"#), text)
        // The composed frame spans the new layout: 800 wide, 600 + 300 high.
        let shot = try session.screenshot()
        XCTAssertEqual(shot.width, 800)
        XCTAssertEqual(shot.height, 900)
        // The pointer stays on the heads: right of HEADLESS-2 (x ≥ 400, y ≥ 600) is no head;
        // from (700, 800) the nearest head is HEADLESS-1's bottom edge, 200 above.
        let c = session.control
        let onSecond = try c.movePointer(x: 200, y: 750)
        XCTAssertEqual(onSecond.x, 200); XCTAssertEqual(onSecond.y, 750)
        let pulled = try c.movePointer(x: 700, y: 800)
        XCTAssertEqual(pulled.x, 700, "\(pulled)")
        XCTAssertLessThanOrEqual(pulled.y, 600, "pulled onto HEADLESS-1, not left in the gap right of HEADLESS-2: \(pulled)")
        XCTAssertGreaterThan(pulled.y, 599, "\(pulled)")

        // A window opened with the pointer on HEADLESS-2 maps there.
        try requireProgram("foot")
        try c.movePointer(x: 200, y: 750)
        try session.launch(["foot", "--override=shell=/bin/sh", "--title=placed", "--override=locked-title=yes"])
        let w = try session.waitForWindow("placed", timeout: 40)
        XCTAssertTrue((0..<400).contains(w.x) && (600..<900).contains(w.y), "the window maps on HEADLESS-2 (0,600 400×300): \(w)")

        // Moved back beside HEADLESS-1: the window goes with its head.
        XCTAssertEqual(try randr(["--output", "HEADLESS-2", "--pos", "800,0"]).status, 0)
        let followed = try session.wait {
            let now = try self.session.control.windows().first { $0.title == "placed" }
            return now.map { $0.x == w.x + 800 && $0.y == w.y - 600 } ?? false
        }
        let windows = try session.control.windows()
        XCTAssertTrue(followed, "the window keeps its place on its head: \(windows)")
        XCTAssertTrue(session.compositorIsRunning)
        XCTAssertFalse(session.log.contains("protocol error"), session.log)
    }

    func testKanshiAppliesTheProfileThatMatchesTheHeads() throws {
        try requireProgram("kanshi")
        let config = session.runtimeDirectory + "/kanshi.conf"
        // The first profile names a head there is not: kanshi picks the second.
        try """
        profile absent {
          output HEADLESS-9 position 0,0
        }
        profile swapped {
          output HEADLESS-1 position 600,0 scale 1
          output HEADLESS-2 position 0,0 scale 1.5 transform 90
        }
        """.write(toFile: config, atomically: true, encoding: .utf8)
        let log = session.runtimeDirectory + "/kanshi.log"
        try session.launch(["kanshi", "-c", config], output: log)
        XCTAssertTrue(try session.wait(timeout: 20) { textOfFile(log).contains("configuration for profile 'swapped' applied") }, textOfFile(log))
        let text = try info()
        // 800×600 at 1.5 is 533×400 logical, turned a quarter: 400×533.
        XCTAssertTrue(matches(text, #"name: 'HEADLESS-2'[\s\S]*?logical_x: 0, logical_y: 0\s+logical_width: 400, logical_height: 533"#), text)
        XCTAssertTrue(matches(text, #"name: 'HEADLESS-1'[\s\S]*?logical_x: 600, logical_y: 0\s+logical_width: 800, logical_height: 600"#), text)
        XCTAssertTrue(matches(text, #"name: HEADLESS-2\s+description: Lodestone HEADLESS-2\s+x: 0, y: 0, scale: 2[\s\S]*?output_transform: 90"#), text)
        XCTAssertFalse(textOfFile(log).contains("profile 'absent'"), textOfFile(log))
        XCTAssertTrue(session.compositorIsRunning)
    }

    /// Each bad configuration ends its client with the protocol's error; answers that are
    /// not errors (an old serial, every head off, a head a world away) come as events; the
    /// compositor and its heads are as they were.
    func testBadConfigurationsGetTheProtocolsErrors() throws {
        let client = repositoryRoot + "/Tests/clients/output_management_client.py"
        func result(_ mode: String) throws -> String {
            let (status, output) = try run(["python3", client, mode], environment: session.clientEnvironment)
            XCTAssertEqual(status, 0, "\(mode):\n\(output)")
            let lines = output.split(separator: "\n")
            guard let r = lines.last(where: { $0.hasPrefix("RESULT: ") }) else { return "no result:\n\(output)" }
            if r == "RESULT: protocol-error", let e = lines.first(where: { $0.contains(": error ") && $0.contains("#") }),
               let hash = e.firstIndex(of: "#"), let at = e.range(of: ": error ") {
                return "\(e[..<hash]) \(e[at.upperBound...].prefix { $0.isNumber })"
            }
            return lines.filter { !$0.hasPrefix("RESULT: ") && !$0.contains(": error ") }.joined(separator: " ") + " " + r.dropFirst(8)
        }
        let expected = [
            "head-twice": "zwlr_output_configuration_v1 1", "unconfigured": "zwlr_output_configuration_v1 2",
            "used-twice": "zwlr_output_configuration_v1 3", "mode-twice": "zwlr_output_configuration_head_v1 1",
            "foreign-mode": "zwlr_output_configuration_head_v1 2", "custom-mode-zero": "zwlr_output_configuration_head_v1 3",
            "bad-transform": "zwlr_output_configuration_head_v1 4", "zero-scale": "zwlr_output_configuration_head_v1 5",
            "stale-serial": "cancelled ok", "all-off": "failed ok", "far-away": "failed ok", "test-move": "succeeded position 800 0 ok",
        ]
        for (mode, want) in expected.sorted(by: { $0.key < $1.key }) {
            XCTAssertEqual(try result(mode), want, mode)
            XCTAssertTrue(session.compositorIsRunning, "after \(mode):\n\(session.log)")
        }
        let text = try randr().output
        XCTAssertTrue(matches(text, #"HEADLESS-2[\s\S]*?Position: 800,0\s+Transform: normal\s+Scale: 1\.0+"#), "a test moves nothing:\n\(text)")
        XCTAssertEqual(try session.screenshot().width, 1600)
    }
}
