import Foundation
import LodestoneTesting
import XCTest

/// Shake to find in a running Lodestone, on the manual clock: the shaken pointer is drawn
/// bigger (pixels) and reported bigger (the test protocol's shape), it settles back, and a
/// shake with the button held (a drag) leaves it alone.
final class ShakeToFindPixelTests: XCTestCase {
    /// Sweeps the pointer ±80 points around (400, 300), a motion every 16 ms, for `sweeps`.
    func shake(_ f: AdaptiveFixture, sweeps: Int = 40) throws {
        for i in 0..<sweeps {
            try f.control.movePointer(x: 400 + (i % 2 == 0 ? 80 : -80), y: 300 + Double(i % 3))
            try f.control.advanceClock(milliseconds: 16)
        }
        try f.control.movePointer(x: 400, y: 300)
        try f.control.advanceClock(milliseconds: 16)
    }

    /// Pixels that differ from the window's background in a 140-point square around (400, 300).
    func inkedPixels(_ f: AdaptiveFixture) throws -> Int {
        let shot = try f.screenshot()
        var n = 0
        for y in 230..<370 { for x in 330..<470 where distance(shot[x, y], AdaptivePointerLookTests.light) > 24 { n += 1 } }
        return n
    }

    func fixture() throws -> (AdaptiveFixture, RegionClient) {
        let f = try AdaptiveFixture()
        let client = try RegionClient(session: f.session, title: "shake", background: AdaptivePointerLookTests.light, boxes: [])
        try f.control.moveWindow("shake", x: 100, y: 100)
        return (f, client)
    }

    func testAShakeGrowsThePointerOnScreenAndItSettlesBack() throws {
        let (f, client) = try fixture()
        defer { withExtendedLifetime(client) {} }
        let rest = try f.move(to: 400, 300)
        let restInk = try inkedPixels(f)
        try shake(f)
        try f.control.advanceClock(milliseconds: 200)
        let grown = try f.probe.shape()
        let grownInk = try inkedPixels(f)
        print("shake to find: diameter \(rest.width) → \(grown.width), inked pixels \(restInk) → \(grownInk)")
        XCTAssertEqual(grown.kind, .circle)
        XCTAssertGreaterThan(grown.width, rest.width * 2.5, "the reported circle grew towards 3×")
        XCTAssertGreaterThan(grownInk, restInk * 5, "and it is drawn grown: area goes with the square")
        try f.control.advanceClock(milliseconds: 2000)
        let settled = try f.probe.shape()
        XCTAssertEqual(settled.width, rest.width, accuracy: 0.01, "back to its size once the shaking stopped")
        XCTAssertEqual(try inkedPixels(f), restInk, accuracy: restInk / 10)
    }

    func testNoGrowthWhileTheButtonIsHeld() throws {
        let (f, client) = try fixture()
        defer { withExtendedLifetime(client) {} }
        let rest = try f.move(to: 400, 300)
        try f.control.button(pressed: true)
        try shake(f)
        let during = try f.probe.shape()
        XCTAssertLessThanOrEqual(during.width, rest.width + 0.01, "a drag is the hand at work, not a search")
        try f.control.button(pressed: false)
    }

    func testTheSwitchTurnsItOff() throws {
        let f = try AdaptiveFixture(extraArguments: ["--no-shake-to-find"])
        let client = try RegionClient(session: f.session, title: "shake", background: AdaptivePointerLookTests.light, boxes: [])
        defer { withExtendedLifetime(client) {} }
        try f.control.moveWindow("shake", x: 100, y: 100)
        let rest = try f.move(to: 400, 300)
        try shake(f)
        XCTAssertEqual(try f.probe.shape().width, rest.width, accuracy: 0.01)
    }
}
