import AdaptivePointerClient
import Foundation
import LodestoneTesting
import XCTest

/// The arrow style (`--pointer-style arrow`, iPadOS 26) from captured pixels: the tip at the
/// pointer's position, the arrow drawn, and readable on white, grey and black.
final class AdaptivePointerArrowTests: XCTestCase {
    /// The tip is the hotspot: the pixels just inside it are inked, those beyond it (left of and
    /// above it) are the background; the arrow's body lies below and to the right.
    func testTheArrowsTipIsAtThePointer() throws {
        let f = try AdaptiveFixture(extraArguments: ["--pointer-style", "arrow"])
        let light = AdaptivePointerLookTests.light
        let client = try RegionClient(session: f.session, title: "arrow", background: light, boxes: [])
        defer { withExtendedLifetime(client) {} }
        try f.control.moveWindow("arrow", x: 100, y: 100)
        let s = try f.move(to: 250, 220)
        XCTAssertEqual(s.kind, .arrow)
        XCTAssertEqual(s.y, 220, accuracy: 0.01, "the reported outline starts at the tip")
        let shot = try f.screenshot()
        func inked(_ x: Int, _ y: Int) -> Bool { distance(shot[x, y], light) > 30 }
        XCTAssertTrue(inked(250, 221), "the tip's pixel")
        XCTAssertTrue(inked(253, 228), "the body, below and right of the tip")
        for (x, y) in [(246, 220), (250, 216), (246, 216), (254, 218)] {
            XCTAssertFalse(inked(x, y), "nothing beyond the tip at (\(x), \(y)): \(String(shot[x, y], radix: 16))")
        }
        // The arrow's pixels: its outline is about 15 × 19 points, about half of it covered.
        var covered = 0
        for y in 216..<244 { for x in 244..<270 where inked(x, y) { covered += 1 } }
        print("arrow: \(covered) inked pixels around the tip")
        XCTAssertGreaterThan(covered, 90, "the arrow is drawn")
        XCTAssertLessThan(covered, 260, "an arrow, not a blob")
        // Clients see the hand: no magnetism by default, and nothing pulls over a plain window.
        try client.sync()
        let last = try XCTUnwrap(client.motions.last)
        XCTAssertEqual(last.x, 150, accuracy: 0.01)
        XCTAssertEqual(last.y, 120, accuracy: 0.01)
    }

    /// On white, mid-grey and black, the arrow's body keeps at least 3:1 against the content,
    /// as the circle does (same adapted tone), and its rim contrasts with its fill.
    func testArrowKeepsContrastOnWhiteGreyAndBlack() throws {
        let f = try AdaptiveFixture(extraArguments: ["--pointer-style", "arrow"])
        let backgrounds: [UInt32] = [0xffff_ffff, 0xff80_8080, 0xff00_0000]
        let client = try RegionClient(session: f.session, title: "contrast", background: AdaptivePointerLookTests.light,
                                      boxes: [(20, 20, 100, 100, backgrounds[0]), (140, 20, 100, 100, backgrounds[1]),
                                              (260, 20, 100, 100, backgrounds[2])])
        defer { withExtendedLifetime(client) {} }
        try f.control.moveWindow("contrast", x: 100, y: 100)
        var report: [String] = []
        for (i, bg) in backgrounds.enumerated() {
            let x = 100.0 + 60 + 120 * Double(i), y = 160.0
            XCTAssertEqual(try f.move(to: x, y).kind, .arrow)
            let shot = try f.screenshot()
            let body = shot[Int(x) + 3, Int(y) + 8]
            let c = contrast(body, bg)
            // The strongest contrast along the left edge's outside: the rim.
            let rim = (9...14).map { contrast(shot[Int(x) - 2, Int(y) + $0], body) }.max() ?? 1
            report.append("\(String(bg & 0xffffff, radix: 16)): \(fmt(c)):1 (rim to fill \(fmt(rim)):1)")
            XCTAssertGreaterThanOrEqual(c, 3, "arrow contrast on \(String(bg & 0xffffff, radix: 16))")
        }
        print("arrow contrast: \(report.joined(separator: ", "))")
    }

    /// Over black the arrow's rim is light (its fill, adapted to black, is still darker than
    /// mid-grey); with a border set (config: a red one) the border is the rim.
    func testTheBorderSettingIsTheArrowsRim() throws {
        let home = NSTemporaryDirectory() + "lodestone-arrow-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: home + "/lodestone", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: home) }
        try "[appearance]\nstyle = \"arrow\"\nborder-color = \"#ff0000\"\n".write(toFile: home + "/lodestone/config.toml", atomically: false, encoding: .utf8)
        for border in [false, true] {
            let f = try AdaptiveFixture(extraArguments: border ? ["--border"] : [], environment: ["XDG_CONFIG_HOME": home])
            let client = try RegionClient(session: f.session, title: "rim", background: 0xff00_0000, boxes: [])
            defer { withExtendedLifetime(client) {} }
            try f.control.moveWindow("rim", x: 100, y: 100)
            XCTAssertEqual(try f.move(to: 250, 220).kind, .arrow)
            let shot = try f.screenshot()
            // Just outside the left edge, 12 points below the tip (the edge is at x − 0.7 there).
            let rim = channels(shot[248, 232])
            print("arrow over black, border \(border): rim \(rim)")
            if border {
                XCTAssertGreaterThan(rim.r, rim.g + 120, "the red border is the rim")
            } else {
                XCTAssertGreaterThan(rim.r + rim.g + rim.b, 400, "a light rim over black")
                XCTAssertLessThan(abs(rim.r - rim.g), 12, "grey, not the border's red")
            }
        }
    }
}
