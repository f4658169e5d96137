import XCTest
@testable import AdaptivePointerEngine

final class MagnetismTests: XCTestCase {
    let button = rect(400, 300, 40, 30)

    func testMagnetismPullsThePointerOntoTheElementOnEnteringTheHitRegion() {
        var h = Harness(regions: [region(1, button)], at: point(300, 315))
        h.move(to: point(392, 315))
        XCTAssertEqual(h.engine.targetRegion, RegionID(1), "engages in the padding, before touching the element")
        XCTAssertTrue(button.contains(h.engine.logicalPosition), "clients see the pointer on the element")
        h.run(1)
        XCTAssertGreaterThan(h.last.pointer.shape.center.x, 392 + 5, "shape pulled toward the centre")
        XCTAssertEqual(h.events, [.entered(RegionID(1), identifier: 1)])
    }

    /// An element whose owner has yet to confirm it (an app's accessibility geometry, read
    /// again before the pointer takes its form): targeted, so the owner learns what to
    /// confirm, but the pointer keeps its plain form, unpulled, until it is confirmed.
    func testARegionAwaitingConfirmationIsTargetedButTakesNoFormUntilConfirmed() {
        let awaiting = region(1, button) { $0.awaitsConfirmation = true }
        var h = Harness(regions: [awaiting], at: point(300, 315))
        h.move(to: point(420, 315))
        h.run(0.5)
        XCTAssertEqual(h.engine.regionAwaitingConfirmation, RegionID(1))
        XCTAssertNil(h.last.targetRegion, "no form while awaiting")
        XCTAssertEqual(h.last.logicalPosition, point(420, 315), "not pulled")
        XCTAssertEqual(h.last.pointer.shape.rect.width, 19, accuracy: 0.5, "the plain circle")
        var confirmed = awaiting
        confirmed.awaitsConfirmation = false
        try! h.engine.regions.upsert(confirmed)
        h.run(0.5)
        XCTAssertNil(h.engine.regionAwaitingConfirmation)
        XCTAssertEqual(h.last.targetRegion, RegionID(1))
        XCTAssertEqual(h.last.pointer.shape.rect.width, 44, accuracy: 0.01, "the highlight's platter")
    }

    func testFastFlickTowardAButtonEndsCapturedByIt() {
        var h = Harness(regions: [region(1, button)], at: point(100, 315))
        h.glide(to: point(330, 315), steps: 46, interval: 0.01)   // 500 pt/s, stops 58 pt short
        h.run(0.5)
        XCTAssertEqual(h.last.targetRegion, RegionID(1))
        XCTAssertTrue(button.contains(h.last.logicalPosition))
        XCTAssertEqual(h.last.pointer.shape.rect.width, 44, accuracy: 0.01)
    }

    func testTheSameMotionMadeSlowlyIsNotCaptured() {
        var h = Harness(regions: [region(1, button)], at: point(100, 315))
        h.glide(to: point(330, 315), steps: 46, interval: 0.05)   // 100 pt/s
        h.run(0.5)
        XCTAssertNil(h.last.targetRegion)
        XCTAssertEqual(h.last.logicalPosition, point(330, 315))
    }

    /// A flick from x = 100 to `end` along the button's row that slows to a stop (ease-out),
    /// as a hand does, in 120 Hz motion events.
    func flick(to end: Double, duration: Double) -> Harness {
        var h = Harness(regions: [region(1, button)], at: point(100, 315))
        h.run(0.5)
        let steps = Int((duration * 120).rounded())
        for i in 1...steps {
            let f = Double(i) / Double(steps)
            h.now = h.now.advanced(by: 1.0 / 120)
            h.move(to: point(100 + (end - 100) * (1 - (1 - f) * (1 - f)), 315))
            if i % 2 == 0 { h.last = h.engine.step(to: h.now) }
        }
        h.run(0.5)
        return h
    }

    func testFastFlickEndingAHundredPointsShortOfAButtonIsCaptured() {
        let h = flick(to: 300, duration: 0.25)       // 1600 pt/s at the start, stops 100 pt short
        XCTAssertEqual(h.last.targetRegion, RegionID(1), "the projected trajectory reaches the button")
        XCTAssertTrue(button.contains(h.last.logicalPosition))
        XCTAssertEqual(h.last.devicePosition, point(300, 315))
        var constant = Harness(regions: [region(1, button)], at: point(100, 315))
        constant.glide(to: point(300, 315), steps: 40, interval: 0.01)    // 500 pt/s, then a stop
        constant.run(0.5)
        XCTAssertEqual(constant.last.targetRegion, RegionID(1))
    }

    func testSlowMotionEndingAHundredPointsShortIsNotCaptured() {
        let h = flick(to: 300, duration: 2)          // 200 pt/s at most: below the 250 pt/s threshold
        XCTAssertNil(h.last.targetRegion)
        XCTAssertEqual(h.last.logicalPosition, point(300, 315))
    }

    func testAFlickPicksTheTargetNearestWhereItIsProjectedToLand() {
        // Two buttons in line; the projection from a fast flick lands beyond the first.
        let near = region(1, rect(400, 300, 40, 30)), far = region(2, rect(640, 300, 40, 30))
        var h = Harness(regions: [near, far], at: point(100, 315))
        h.glide(to: point(360, 315), steps: 13, interval: 0.01)   // 2000 pt/s: lands about 1000 pt on
        XCTAssertEqual(h.engine.targetRegion, RegionID(2))
        var slower = Harness(regions: [near, far], at: point(100, 315))
        slower.glide(to: point(340, 315), steps: 80, interval: 0.01)   // 300 pt/s: lands about 150 pt on
        XCTAssertEqual(slower.engine.targetRegion, RegionID(1))
    }

    /// A tablet's jump (or a move back from another head) after a rest is no flick, however
    /// far it goes: nothing captures it, and once settled the pointer is the plain circle where
    /// the device is.
    func testAJumpAfterARestIsNoFlick() {
        var h = Harness(regions: [region(1, button)], at: point(1000, 315))
        h.move(to: point(1100, 315))
        h.run(0.4)
        h.move(to: point(520, 315))    // 580 pt in one motion, 0.4 s after the last
        h.run(0.5)
        XCTAssertNil(h.last.targetRegion, "captured by a flick the hand never made")
        XCTAssertNil(h.last.contentEffect)
        XCTAssertEqual(h.last.logicalPosition, point(520, 315))
    }

    func testFlickAwayFromTheTrajectoryIsNotCaptured() {
        var h = Harness(regions: [region(1, button)], at: point(100, 200))
        h.glide(to: point(330, 200), steps: 46, interval: 0.01)   // fast, but the button is far off-axis
        h.run(0.5)
        XCTAssertNil(h.last.targetRegion)
    }

    func testAFlickCaptureLetsGoWhenThePointerMovesAway() {
        var h = Harness(regions: [region(1, button)], at: point(100, 315))
        h.glide(to: point(330, 315), steps: 46, interval: 0.01)
        h.run(0.2)
        h.glide(to: point(250, 315), steps: 20, interval: 0.05)
        h.run(0.5)
        XCTAssertNil(h.last.targetRegion)
    }

    func testCrossingAdjacentBarButtonsNeverShowsTheCircle() {
        let bar = (0..<5).map { i in region(UInt64(i + 1), rect(400 + Double(i) * 48, 300, 44, 30)) }
        var h = Harness(regions: bar, at: point(410, 315))
        h.run(0.5)
        let frames = h.glide(to: point(620, 318), steps: 90, interval: 1.0 / 60)
        for f in frames {
            XCTAssertNotNil(f.targetRegion)
            XCTAssertGreaterThan(f.pointer.shape.rect.width, 40, "reverted toward the circle at \(f.devicePosition)")
        }
        XCTAssertEqual(Set(frames.compactMap(\.targetRegion)).count, 5)
    }

    func testGapsBetweenBarButtonsAreBridgedByTheExitDelay() {
        // No padding and 6-point gaps: the hit regions are not contiguous.
        let bar = (0..<4).map { i in region(UInt64(i + 1), rect(400 + Double(i) * 50, 300, 44, 30), hitArea: .padding(0)) }
        var h = Harness(regions: bar, at: point(410, 315))
        h.run(0.5)
        for f in h.glide(to: point(580, 315), steps: 60, interval: 1.0 / 60) {
            XCTAssertGreaterThan(f.pointer.shape.rect.width, 40)
        }
    }

    /// A bar with 6-point gaps between hit regions (no padding): closer than the pointer's
    /// diameter, so the bar is one contiguous control.
    func gappedBar() -> [Region] {
        (0..<4).map { i in region(UInt64(i + 1), rect(400 + Double(i) * 50, 300, 44, 30), hitArea: .padding(0)) }
    }

    func testLeavingTowardANeighbourInTheBarWaitsForTheExitDelay() {
        var h = Harness(regions: gappedBar(), at: point(420, 315))
        h.run(0.5)
        h.events = []
        let left = h.now
        h.move(to: point(446, 315))       // in the 6-point gap, heading for the next button
        h.run(0.15)
        XCTAssertEqual(h.last.targetRegion, RegionID(1), "still engaged inside 0.2 s")
        XCTAssertEqual(h.engine.nextDeadline?.seconds ?? 0, left.seconds + 0.2, accuracy: 1e-9)
        XCTAssertEqual(h.last.logicalPosition, point(446, 315), "the delay keeps the shape, not the click")
        h.run(0.1)
        XCTAssertNil(h.last.targetRegion)
        XCTAssertEqual(h.events, [.left(RegionID(1), identifier: 1)])
    }

    func testLeavingARegionAwayFromAnyNeighbourLetsGoAtOnce() {
        var h = Harness(regions: [region(1, button)], at: point(415, 315))
        h.run(0.5)
        h.events = []
        h.move(to: point(700, 600))
        XCTAssertNil(h.engine.targetRegion)
        XCTAssertEqual(h.engine.logicalPosition, point(700, 600))
        h.run(1.0 / 60)
        XCTAssertNil(h.last.targetRegion)
        XCTAssertEqual(h.events, [.left(RegionID(1), identifier: 1)])
        // Off the bar's side too: the delay is for the way to a neighbour, not out of the bar.
        h = Harness(regions: gappedBar(), at: point(420, 315))
        h.run(0.5)
        h.move(to: point(422, 340))
        XCTAssertNil(h.engine.targetRegion)
    }

    func testAThirtySixPointGapIsNotBridgedAndAClickThereLandsWhereThePointerIs() {
        // Hit regions 388…452 and 488…552: 36 points apart, two separate buttons.
        let a = region(1, button), b = region(2, rect(500, 300, 40, 30))
        var h = Harness(regions: [a, b], at: point(420, 315))
        h.run(0.5)
        h.events = []
        h.glide(to: point(470, 315), steps: 10, interval: 1.0 / 30)   // 150 pt/s into the gap, toward b
        XCTAssertNil(h.last.targetRegion, "not held on a across a 36-point gap")
        h.send(.button(.pressed))
        XCTAssertEqual(h.engine.logicalPosition, point(470, 315), "the click lands on what is under the pointer")
        XCTAssertNil(h.engine.targetRegion)
        XCTAssertEqual(h.events, [.left(RegionID(1), identifier: 1)])
    }

    func testAClickDuringTheExitDelayEndsItAndLandsInTheGap() {
        var h = Harness(regions: gappedBar(), at: point(420, 315))
        h.run(0.5)
        h.events = []
        h.move(to: point(446, 315))
        h.run(0.05)
        XCTAssertEqual(h.last.targetRegion, RegionID(1))
        h.send(.button(.pressed))
        XCTAssertEqual(h.engine.logicalPosition, point(446, 315))
        XCTAssertNil(h.engine.targetRegion, "what the click hit and what the pointer shows agree")
        XCTAssertEqual(h.events, [.left(RegionID(1), identifier: 1)])
    }

    func testTextMagnetismKeepsVerticalWobbleOnTheLineWhileSelecting() {
        let text = region(1, rect(100, 100, 600, 200), effect: .automatic, shape: .verticalBeam(length: 20))
        var h = Harness(regions: [text], at: point(300, 150))   // line 2: 140…160
        h.send(.button(.pressed))
        h.move(to: point(310, 164))                               // 4 pt into line 3
        h.run(0.5)
        XCTAssertEqual(h.last.logicalPosition.y, 150)
        XCTAssertEqual(h.last.pointer.shape.center.y, 150, accuracy: 1e-6)
        XCTAssertEqual(h.last.logicalPosition.x, 310)
        h.move(to: point(320, 175))                               // well into line 3
        h.run(0.5)
        XCTAssertEqual(h.last.logicalPosition.y, 170)
    }

    func testSelectingOntoTheNextLineSnapsThereBeforeTheRelease() {
        let text = region(1, rect(100, 100, 600, 200), effect: .automatic, shape: .verticalBeam(length: 20))
        var h = Harness(regions: [text], at: point(300, 150))   // line 2: 140…160
        h.send(.button(.pressed))
        h.move(to: point(300, 170))                               // one line down: the centre of line 3
        h.run(0.5)                                                // no further input; the text spring settles
        XCTAssertEqual(h.last.logicalPosition.y, 170, "the app must get line 3 while the button is still held")
        XCTAssertEqual(h.last.pointer.shape.center.y, 170, accuracy: 0.5)
        // The release changes nothing: the drag ended where the beam showed.
        h.send(.button(.released))
        h.run(0.5)
        XCTAssertEqual(h.last.logicalPosition.y, 170)
    }

    func testWithoutTheButtonTheBeamFollowsTheLineUnderTheDevice() {
        let text = region(1, rect(100, 100, 600, 200), effect: .automatic, shape: .verticalBeam(length: 20))
        var h = Harness(regions: [text], at: point(300, 150))
        h.move(to: point(310, 164))
        h.run(0.5)
        XCTAssertEqual(h.last.logicalPosition.y, 170)
    }

    func testLatchingAxisKeepsTheRegionWhileTheButtonIsHeld() {
        let slider = region(1, rect(100, 100, 200, 20)) { $0.latchingAxes = .horizontal }
        var h = Harness(regions: [slider], at: point(150, 110))
        h.send(.button(.pressed))
        h.move(to: point(700, 112))
        h.run(1)
        XCTAssertEqual(h.last.targetRegion, RegionID(1))
        h.move(to: point(700, 400))       // off the other axis: latch breaks
        h.run(1)
        XCTAssertNil(h.last.targetRegion)
    }

    func testALatchedDragFollowsTheHandAlongTheLatchedAxis() {
        // A slider thumb (magnetic by default) latched horizontally: dragging it must move it.
        let thumb = region(1, rect(1000, 300, 30, 30)) { $0.latchingAxes = .horizontal }
        var h = Harness(regions: [thumb], at: point(1015, 315))
        h.run(0.5)
        h.send(.button(.pressed))
        h.glide(to: point(1165, 318), steps: 15, interval: 1.0 / 60)
        h.run(0.5)
        XCTAssertEqual(h.last.targetRegion, RegionID(1))
        XCTAssertEqual(h.last.logicalPosition.x, 1165, accuracy: 1e-9, "the app sees the hand on the latched axis")
        XCTAssertTrue((300..<330).contains(h.last.logicalPosition.y), "still held on the thumb across it")
        h.send(.button(.released))
        h.run(0.5)
        XCTAssertNil(h.last.targetRegion)
        XCTAssertEqual(h.last.logicalPosition, point(1165, 318))
    }

    func testWithoutLatchingTheSameDragLeavesTheRegion() {
        var h = Harness(regions: [region(1, rect(100, 100, 200, 20))], at: point(150, 110))
        h.send(.button(.pressed))
        h.move(to: point(700, 112))
        h.run(1)
        XCTAssertNil(h.last.targetRegion)
    }

    func testConstrainedAxisRecentresThePointerOnTheRegion() {
        let track = region(1, rect(100, 100, 300, 40), effect: .none) { $0.constrainedAxes = .vertical }
        var h = Harness(regions: [track], at: point(150, 108))
        h.run(1)
        XCTAssertEqual(h.last.logicalPosition, point(150, 120))
        XCTAssertEqual(h.last.pointer.shape.center.y, 120, accuracy: 1e-6)
        XCTAssertEqual(h.last.pointer.shape.center.x, 150, accuracy: 1e-6)
    }

    /// Offset between pointer and device 0.08 s after magnetism lets go.
    func recenterLag(_ device: DeviceKind) -> Double {
        var h = Harness(regions: [region(1, button)], at: point(392, 315))
        h.send(.device(device))
        h.run(0.5)
        h.move(to: point(600, 315))   // no neighbour: magnetism lets go at once
        h.run(0.08)
        return h.last.pointer.shape.center.distance(to: point(600, 315))
    }

    func testRecenteringSpringIsStifferForAMouseThanForATrackpad() {
        let mouse = recenterLag(.mouse), trackpad = recenterLag(.trackpad)
        XCTAssertGreaterThan(trackpad, mouse * 1.5)
        XCTAssertGreaterThan(mouse, 0.5, "recenters smoothly, no jump")
    }

    func testFreePointerTracksTheDeviceExactly() {
        var h = Harness(at: point(100, 100))
        for f in h.glide(to: point(500, 400), steps: 30, interval: 1.0 / 60) {
            XCTAssertEqual(f.pointer.shape.center, f.devicePosition)
        }
    }

    func testMagnetismOffEngagesOnlyOnTheElementAndReportsTheDevicePosition() {
        var settings = PointerSettings()
        settings.magnetismEnabled = false
        var h = Harness(settings: settings, regions: [region(1, button)], at: point(300, 315))
        h.move(to: point(392, 315))
        XCTAssertNil(h.engine.targetRegion)
        h.move(to: point(405, 312))
        XCTAssertEqual(h.engine.targetRegion, RegionID(1))
        XCTAssertEqual(h.engine.logicalPosition, point(405, 312))
        h.run(0.1)
        h.glide(to: point(100, 312), steps: 10, interval: 0.01)   // fast flick back: no capture logic
        h.run(0.5)
        XCTAssertNil(h.last.targetRegion)
    }

    func testRemovingTheTargetedRegionReportsLeftAtOnce() throws {
        var h = Harness(regions: [region(1, button)], at: point(415, 315))
        h.run(0.2)
        h.engine.regions.remove(id: RegionID(1))
        h.run(1.0 / 60)
        XCTAssertNil(h.last.targetRegion)
        XCTAssertEqual(h.events.last, .left(RegionID(1), identifier: 1))
    }

    func testMovingTheTargetedRegionMovesThePlatter() throws {
        var h = Harness(regions: [region(1, button)], at: point(415, 315))
        h.run(1)
        try h.engine.regions.upsert(region(1, rect(410, 300, 40, 30)))
        h.run(1)
        XCTAssertEqual(h.last.pointer.shape.center.x, 430 + (415 - 430) * 0.3, accuracy: 1e-6)
        XCTAssertEqual(h.events, [.entered(RegionID(1), identifier: 1)], "an update is not a re-entry")
    }
}
