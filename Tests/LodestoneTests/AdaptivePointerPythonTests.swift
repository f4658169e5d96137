import Foundation
import LodestoneTesting
import XCTest

/// The end-to-end scenarios again, with the region declared by the pywayland example client
/// (Examples/python/adaptive_pointer_client.py, bindings generated from the XML at start-up).
final class AdaptivePointerPythonTests: XCTestCase {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples/python/adaptive_pointer_client.py").path
    static let blue: UInt32 = 0x2060d0
    static let background: UInt32 = 0xe0e0e0

    private var fixture: AdaptiveFixture!
    private var output = ""

    override func setUpWithError() throws {
        guard Process.canRun("python3", ["-c", "import pywayland"]) else {
            throw XCTSkip("pywayland is not installed (pip install pywayland)")
        }
        fixture = try AdaptiveFixture()
    }

    override func tearDown() { fixture = nil }

    /// Starts the client with `arguments` and places its window at (100, 100).
    private func launch(_ title: String, _ arguments: [String]) throws {
        output = fixture.session.runtimeDirectory + "/\(title).out"
        try fixture.session.launch(["python3", Self.script, "--title", title] + arguments, output: output)
        _ = try fixture.session.waitForWindow(title, timeout: 30)
        try fixture.control.moveWindow(title, x: 100, y: 100)
    }

    /// Complete lines only: the client may be mid-write, and a line is whole once its newline is.
    private func lines() -> [String] {
        var parts = (textOfFile(output)).split(separator: "\n", omittingEmptySubsequences: false)
        parts.removeLast()
        return parts.filter { !$0.isEmpty }.map(String.init)
    }

    /// Waits (wall time: the client is another process) for a line starting with `prefix`.
    private func waitForLine(_ prefix: String) throws -> String? {
        var found: String?
        _ = try fixture.session.wait(timeout: 10) {
            found = lines().first { $0.hasPrefix(prefix) }
            return found != nil
        }
        return found
    }

    func testCircleOverPlainContent() throws {
        try launch("py-circle", ["--effect", "highlight"])
        let s = try fixture.move(to: 100 + 300, 100 + 250)
        XCTAssertEqual(s.kind, .circle)
        XCTAssertFalse(s.targeted)
        XCTAssertGreaterThan(distance(try fixture.screenshot()[400, 350], Self.background), 60)
    }

    func testBeamOverText() throws {
        try launch("py-beam", ["--frame", "20,150,300,100", "--effect", "none", "--beam", "30", "--identifier", "7"])
        let s = try fixture.move(to: 100 + 100, 100 + 200)
        XCTAssertEqual(s.kind, .verticalBeam)
        XCTAssertEqual(s.height, 30, accuracy: 2)
        XCTAssertEqual(s.identifier, 7)
    }

    func testHighlightAndClickWhileCaptured() throws {
        try launch("py-highlight", ["--effect", "highlight", "--identifier", "1"])
        let s = try fixture.move(to: 100 + 140, 100 + 94)  // in the hit padding, above the element
        XCTAssertEqual(s.effect, .highlight)
        XCTAssertTrue(s.targeted)
        XCTAssertEqual(s.identifier, 1)
        // The platter slides beneath the element (its pixels stay), drawn around it: here above
        // it, where the parallax moved it toward the pointer.
        let shot = try fixture.screenshot()
        XCTAssertLessThan(distance(shot[204, 204], Self.blue), 24, "the element stays over the platter")
        XCTAssertGreaterThan(distance(shot[240, 196], Self.background), 20, "the platter's tint")
        try fixture.control.click()
        XCTAssertNotNil(try waitForLine("entered 1"))
        let press = try XCTUnwrap(try waitForLine("button pressed")).split(separator: " ").compactMap { Double($0) }
        guard press.count == 2 else { return XCTFail("no coordinates in the press line: \(press)") }
        XCTAssertTrue((100..<180).contains(press[0]) && (100..<140).contains(press[1]), "click at \(press) lands on the element")
    }

    func testLift() throws {
        try launch("py-lift", ["--effect", "lift", "--identifier", "2"])
        let s = try fixture.move(to: 100 + 140, 100 + 120)
        XCTAssertEqual(s.effect, .lift)
        XCTAssertGreaterThan(s.effectScale, 1.05)
        XCTAssertLessThan(s.alpha, 0.1)
        let shot = try fixture.screenshot()
        // No pointer over the lifted element: its blue, lit by the specular (at most +24 a channel).
        let centre = channels(shot[240, 220]), blue = channels(Self.blue)
        XCTAssertTrue([(centre.r, blue.r), (centre.g, blue.g), (centre.b, blue.b)].allSatisfy { $0.0 >= $0.1 - 2 && $0.0 <= $0.1 + 24 },
                      "no pointer over the lifted element: \(centre)")
        XCTAssertLessThan(distance(shot[198, 220], Self.blue), 60, "its edge moved outward")
        XCTAssertLessThan(brightness(shot[240, 248]), brightness(Self.background) - 15, "its shadow")
    }

    /// Frames and paddings at the edge of int32 and wl_fixed (issue 17): the engine and the
    /// renderer work them out wide or clamped; a lift over the whole output draws, nothing traps.
    func testRegionFramesAndPaddingsAtTheLimits() throws {
        let frames = ["-2147483648,-2147483648,2147483647,2147483647", "2147483547,2147483547,2147483647,2147483647",
                      "-100,-100,2147483647,2147483647", "100,100,0,0"]
        for (k, frame) in frames.enumerated() {
            for effect in ["lift", "hover", "highlight"] {
                let title = "py-extreme-\(k)-\(effect)"
                let client = try fixture.session.launch(["python3", Self.script, "--title", title, "--effect", effect, "--frame=\(frame)",
                                                         "--padding", "8388607", "--beam", "0.00390625"],
                                                        output: fixture.session.runtimeDirectory + "/\(title).out")
                _ = try fixture.session.waitForWindow(title, timeout: 30)
                try fixture.control.moveWindow(title, x: 100, y: 100)
                let over = try fixture.move(to: 100 + 140, 100 + 120)
                // The first ends at x = -1, its padding reaches the pointer; the second begins
                // beyond the farthest padding wl_fixed carries; the third covers the window; the
                // fourth is empty, its padding covers everything.
                XCTAssertEqual(over.targeted, k != 1, "frame \(frame), \(effect)")
                _ = try fixture.move(to: 100 + 10, 100 + 290)
                _ = try fixture.screenshot()
                XCTAssertTrue(fixture.session.compositorIsRunning, "the compositor died with frame \(frame), \(effect):\n\(fixture.session.log)")
                client.terminate()
                client.waitUntilExit()
            }
        }
    }

    func testHover() throws {
        try launch("py-hover", ["--effect", "hover", "--identifier", "3"])
        let s = try fixture.move(to: 100 + 140, 100 + 120)
        XCTAssertEqual(s.effect, .hover)
        XCTAssertGreaterThan(s.effectScale, 1.02)
    }

    func testAccessoriesAndAnnotation() throws {
        try launch("py-accessories", ["--frame", "20,150,300,100", "--effect", "hover", "--accessory", "arrow@90",
                                      "--accessory", "arrow@270", "--annotation", "3 × 4"])
        let s = try fixture.move(to: 100 + 150, 100 + 200)
        XCTAssertEqual(s.accessories.count, 2)
        XCTAssertEqual(s.annotation, "3 × 4")
        let right = try XCTUnwrap(s.accessories.first { $0.x > s.midX })
        // The arrow stands out from the blue element it is drawn over.
        XCTAssertGreaterThan(distance(try fixture.screenshot()[Int(right.x), Int(right.y)], Self.blue), 40)
    }

    /// Version 2's upright flag from Python: a plus at 45° keeps its arms level.
    func testUprightAccessory() throws {
        try launch("py-upright", ["--frame", "20,150,300,100", "--effect", "hover", "--accessory", "plus@45:upright"])
        let s = try fixture.move(to: 100 + 150, 100 + 200)
        let a = try XCTUnwrap(s.accessories.first, "the plus is shown")
        let shot = try fixture.screenshot()
        func inked(_ dx: Double, _ dy: Double) -> Bool {
            // Over the blue element.
            distance(shot[Int((a.x + dx).rounded(.down)), Int((a.y + dy).rounded(.down))], Self.blue) > 60
        }
        XCTAssertTrue(inked(3.5, 0) && inked(-3.5, 0) && inked(0, 3.5) && inked(0, -3.5), "an upright plus has level arms")
        XCTAssertFalse(inked(3, 3) || inked(-3, -3), "and nothing on its diagonals")
    }

    func testBandSelection() throws {
        try launch("py-band", ["--frame", "20,150,300,130", "--effect", "none", "--band"])
        try fixture.move(to: 100 + 40, 100 + 170, settle: 100)
        try fixture.control.button(pressed: true)
        try fixture.control.movePointer(x: 100 + 100, y: 100 + 210)
        try fixture.control.advanceClock(milliseconds: 100)
        XCTAssertEqual(try fixture.probe.shape().kind, .band)
        try fixture.control.button(pressed: false)
        let ended = try XCTUnwrap(try waitForLine("band ended")).split(separator: " ").compactMap { Double($0) }
        XCTAssertEqual(ended, [40, 170, 60, 40])
    }
}

extension Process {
    /// Whether `command arguments` runs and exits 0 (a tool check before a test needs it).
    static func canRun(_ command: String, _ arguments: [String]) -> Bool {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = [command] + arguments
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        guard (try? p.run()) != nil else { return false }
        p.waitUntilExit()
        return p.terminationStatus == 0
    }
}
