import Foundation
import LodestoneTesting
import XCTest

/// weston-eventdemo prints what it receives; the test protocol injects input
/// and the printout must show it at the right surface-local place.
final class EventDemoTests: XCTestCase {
    func testInjectedPointerAndKeysReachEventDemo() throws {
        try requireProgram("weston-eventdemo")
        let session = try Session()
        let log = session.runtimeDirectory + "/eventdemo.txt"
        try session.launch(["stdbuf", "-oL", "weston-eventdemo", "--title=Events", "--width=300", "--height=200",
                            "--log-motion", "--log-button", "--log-key", "--log-axis"], output: log)
        let window = try session.waitForWindow("Events")
        let control = session.control
        try control.moveWindow("Events", x: 100, y: 120)
        let moved = try XCTUnwrap(try control.windows().first { $0.title == "Events" })
        XCTAssertEqual(moved.x, 100)
        XCTAssertEqual(moved.y, 120)

        // Motion to a point inside the window: eventdemo logs surface-local coordinates.
        let state = try control.movePointer(x: 100 + 60.5, y: 120 + 40.25)
        XCTAssertEqual(state.title, "Events")
        try control.movePointer(dx: 10, dy: 5)
        try control.click()
        try control.axis(value: 10, discrete: 1, source: 0)
        // Shift+A: the key event carries the shift modifier.
        let shiftDown = try control.key(42, pressed: true)
        XCTAssertNotEqual(shiftDown.depressed, 0, "shift is a depressed modifier")
        try control.tap(30)
        try control.key(42, pressed: false)
        _ = window

        let text = { textOfFile(log) }
        XCTAssertTrue(try session.wait { text().contains("key: 30") && text().contains("state: released") }, "no key lines in:\n\(text())")
        let output = text()
        // eventdemo draws a frame around its content, so local = window-local + border offset;
        // both motions must differ by exactly the relative step.
        let motions = output.split(separator: "\n").filter { $0.contains("motion") }
        XCTAssertGreaterThanOrEqual(motions.count, 2, output)
        let coordinates = motions.compactMap { line -> (Double, Double)? in
            guard let xr = line.range(of: "x: "), let yr = line.range(of: "y: ") else { return nil }
            let x = Double(line[xr.upperBound...].prefix { "0123456789.-".contains($0) }) ?? .nan
            let y = Double(line[yr.upperBound...].prefix { "0123456789.-".contains($0) }) ?? .nan
            return (x, y)
        }
        let last = try XCTUnwrap(coordinates.last), previous = coordinates[coordinates.count - 2]
        XCTAssertEqual(last.0 - previous.0, 10, accuracy: 0.01, output)
        XCTAssertEqual(last.1 - previous.1, 5, accuracy: 0.01, output)
        XCTAssertEqual(last.0, state.sx + 10, accuracy: 0.01, "motion must arrive at the surface-local position the compositor reports")
        XCTAssertEqual(last.1, state.sy + 5, accuracy: 0.01)
        XCTAssertTrue(output.contains("button: 272") && output.contains("state: pressed"), output)
        XCTAssertTrue(output.contains("axis"), output)
        XCTAssertTrue(output.contains("key: 30"), output)
        // The A key was pressed while shift was held.
        let aLine = output.split(separator: "\n").first { $0.contains("key: 30") && $0.contains("pressed") }
        XCTAssertNotNil(aLine, output)
        if let aLine { XCTAssertTrue(aLine.contains("modifiers: 0x1") || aLine.contains("unicode: 65"), "shift not applied: \(aLine)") }
    }
}
