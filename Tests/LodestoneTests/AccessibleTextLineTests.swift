import Foundation
import LodestoneTesting
import XCTest

/// The beam over text of several lines takes the height of the line under the pointer
/// (issue 27): gtk3-demo's text view ("Multiple Views") mixes body text with a bold 15 pt
/// heading and 20 pt words. GTK 3 answers `GetOffsetAtPoint` and `GetCharacterExtents`.
final class AccessibleTextLineTests: XCTestCase {
    func testHeadingAndBodyTextGetDifferentBeams() throws {
        try requireProgram("gtk3-demo")
        try requireAccessibilityBus()
        let bus = try PrivateSessionBus()
        defer { bus.stop() }
        // The default shortest beam (24) is taller than these lines (19 px body, 21 px heading,
        // 25 px big words): 8 lets each line show its own.
        try FileManager.default.createDirectory(atPath: bus.directory + "/config/lodestone", withIntermediateDirectories: true)
        try "[tuning]\nbeam-minimum-length = 8\n".write(toFile: bus.directory + "/config/lodestone/config.toml", atomically: false, encoding: .utf8)
        let f = try AdaptiveFixture(size: "1600x1000", environment: bus.environment.merging(["XDG_CONFIG_HOME": bus.directory + "/config"]) { $1 })
        try f.session.launch(["gtk3-demo", "--run=textview"], environment: ["GDK_BACKEND": "wayland"].merging(bus.environment) { $1 })
        let window = try f.session.waitForWindow(nil, timeout: 40) { $0.title == "Multiple Views" }
        try f.control.activateWindow("Multiple Views")
        try f.move(to: 1590, 990)
        try f.control.advanceClock(milliseconds: 1000)
        // Down the upper view's left edge, every 3 px: the beam's length at each height.
        var lengths: [(y: Double, length: Double)] = []
        _ = try f.session.wait(timeout: 30) {
            lengths = []
            for dy in stride(from: 8.0, through: Double(window.height) - 8, by: 3) {
                let s = try f.move(to: Double(window.x) + 30, Double(window.y) + dy, settle: 300)
                if s.kind == .verticalBeam, s.targeted { lengths.append((dy, s.height)) }
            }
            return Set(lengths.map { Int($0.length.rounded()) }).count >= 2
        }
        print("beams down the text:", lengths.map { "\(Int($0.y)): \(Int($0.length.rounded()))" }.joined(separator: ", "))
        print(f.session.log.split(separator: "\n").filter { $0.contains("accessibility:") }.joined(separator: "\n"))
        let distinct = Set(lengths.map { Int($0.length.rounded()) }).sorted()
        XCTAssertGreaterThanOrEqual(distinct.count, 2, "one beam for all lines: \(lengths)")
        XCTAssertGreaterThanOrEqual((distinct.last ?? 0) - (distinct.first ?? 0), 4, "the heading's beam is taller than the body's: \(distinct)")
    }
}
