@testable import LodestoneCompositor
import WaylandClient
import XCTest

/// Two heads at different refresh rates, each composed and presented at its own cadence
/// (`Compositor.presentDueHeads`): a window on the 30 Hz head gets its frame callbacks at
/// 30 Hz while one on the 60 Hz head gets them at 60, damage on one head composes no frame
/// of the other, and a head that cannot take a frame (its flip pending) holds back only its
/// own windows. The manual clock; clients that draw a new frame at each callback.
final class HeadFrameClockTests: XCTestCase {
    private var lodestone: InProcessCompositor!
    private var fast: Window!, slow: Window!

    override func setUpWithError() throws {
        lodestone = try InProcessCompositor(outputs: [OutputMode(name: "FAST", width: 800, height: 600, refreshHz: 60),
                                                      OutputMode(name: "SLOW", width: 800, height: 600, refreshHz: 30)])
        let client = try lodestone.connect()
        fast = try lodestone.mapWindow(on: client, title: "fast", x: 100, y: 100, width: 200, height: 100)
        slow = try lodestone.mapWindow(on: client, title: "slow", x: 900, y: 100, width: 200, height: 100)
        try run(milliseconds: 160, drawing: [])  // the maps composed, their callbacks answered
    }

    override func tearDown() { fast = nil; slow = nil; lodestone = nil }

    private var heads: (fast: OutputHead, slow: OutputHead) {
        (lodestone.compositor.layout.head(named: "FAST")!, lodestone.compositor.layout.head(named: "SLOW")!)
    }

    /// Advances the clock tick by tick (the fastest head's, 16 ms at 60 Hz); each window in `drawing`
    /// draws a new frame whenever its last frame callback came.
    private func run(milliseconds: Int, drawing windows: [Window], tick: UInt32 = 16) throws {
        var answered = windows.map(\.frameCallbacks)
        for w in windows { w.redraw() }
        try lodestone.roundtrip()
        for _ in 0..<(milliseconds / Int(tick)) {
            lodestone.compositor.clock.advance(by: tick)
            try lodestone.roundtrip()
            for (i, w) in windows.enumerated() where w.frameCallbacks != answered[i] {
                answered[i] = w.frameCallbacks
                w.redraw()
            }
            try lodestone.roundtrip()
        }
    }

    func testEachWindowGetsFrameCallbacksAtItsHeadsRate() throws {
        let before = (fast.frameCallbacks, slow.frameCallbacks)
        try run(milliseconds: 1008, drawing: [fast, slow])
        let f = fast.frameCallbacks - before.0, s = slow.frameCallbacks - before.1
        XCTAssertTrue((58...64).contains(f), "the 60 Hz head's window: \(f) callbacks in a second")
        XCTAssertTrue((29...33).contains(s), "the 30 Hz head's window: \(s) callbacks in a second")
    }

    func testDamageOnOneHeadComposesNoFrameOfTheOther() throws {
        let (a, b) = heads
        let frames = (a.frameCount, b.frameCount)
        try run(milliseconds: 320, drawing: [fast])
        XCTAssertGreaterThan(a.frameCount - frames.0, 15, "the drawing window's head composed its frames")
        XCTAssertEqual(b.frameCount, frames.1, "the other head composed none")
        try run(milliseconds: 320, drawing: [slow])
        XCTAssertGreaterThan(b.frameCount - frames.1, 7)
    }

    func testAFasterHeadPluggedInSetsTheTicksAndItsWindowsPace() throws {
        XCTAssertEqual(lodestone.compositor.clock.interval, 16)
        try lodestone.compositor.addOutput(OutputMode(name: "FASTER", width: 800, height: 600, refreshHz: 125))
        XCTAssertEqual(lodestone.compositor.clock.interval, 8, "the clock ticks at the fastest head's rate")
        XCTAssertTrue(lodestone.compositor.positionWindow(of: lodestone.clients[0].server, surfaceID: fast.surface.id, x: 1700, y: 100))
        try run(milliseconds: 160, drawing: [])
        let before = (fast.frameCallbacks, slow.frameCallbacks)
        try run(milliseconds: 1008, drawing: [fast, slow], tick: 8)
        let f = fast.frameCallbacks - before.0, s = slow.frameCallbacks - before.1
        XCTAssertTrue((115...127).contains(f), "the 125 Hz head's window: \(f) callbacks in a second")
        XCTAssertTrue((29...34).contains(s), "the 30 Hz head's window, as before: \(s)")
        XCTAssertTrue(lodestone.compositor.removeOutput(named: "FASTER"))
        XCTAssertEqual(lodestone.compositor.clock.interval, 16, "back to the fastest head left")
    }

    func testAHeldHeadHoldsBackOnlyItsOwnWindows() throws {
        let (_, b) = heads
        b.isHeld = true  // as a DRM head whose page flip never completes
        let before = (fast.frameCallbacks, slow.frameCallbacks)
        try run(milliseconds: 480, drawing: [fast, slow])
        XCTAssertGreaterThan(fast.frameCallbacks - before.0, 25, "the other head goes on at its rate")
        XCTAssertEqual(slow.frameCallbacks, before.1, "nothing for the held head's window")
        // Its flip completes: its window is answered at its next refresh and goes on.
        lodestone.compositor.resume(b)
        try run(milliseconds: 320, drawing: [slow])
        XCTAssertGreaterThan(slow.frameCallbacks - before.1, 7)
    }
}
