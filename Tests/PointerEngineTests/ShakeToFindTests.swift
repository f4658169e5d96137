import XCTest
@testable import AdaptivePointerEngine

/// Shake to find: a shake grows the pointer with a spring, it settles back once the shaking
/// stops, and a stroke, a drag or the setting turned off never grows it.
final class ShakeToFindTests: XCTestCase {
    /// Shakes left and right by `amplitude` around (600, 400), one motion per frame, for
    /// `seconds`; returns every frame.
    @discardableResult
    func shake(_ h: inout Harness, amplitude: Double = 80, seconds: Double = 0.6) -> [PointerPresentation] {
        var frames: [PointerPresentation] = []
        var right = true
        // Four frames a sweep: about 7 sweeps a second, a brisk wiggle of the hand.
        let sweeps = Int(seconds * 60 / 4)
        for _ in 0..<sweeps {
            frames += h.glide(to: point(600 + (right ? amplitude : -amplitude), 400), steps: 4, interval: 1.0 / 60)
            right.toggle()
        }
        return frames
    }

    func testAShakeGrowsThePointerSmoothlyAndItSettlesBack() {
        var h = Harness(at: point(600, 400))
        let frames = shake(&h)
        let grownScale = h.last.pointer.scale
        XCTAssertGreaterThan(grownScale, 2, "after 0.6 s of shaking the circle is well on its way to 3×")
        // Grown with a spring: intermediate sizes on the way, not a jump.
        XCTAssertTrue(frames.contains { $0.pointer.scale > 1.2 && $0.pointer.scale < 2.5 })
        XCTAssertGreaterThan(h.last.bounds.width, 19 * 2, "the damage covers the grown pointer")
        h.run(0.3)
        XCTAssertGreaterThan(h.last.pointer.scale, 2.5, "held while the hand rests a moment")
        XCTAssertNotNil(h.engine.nextDeadline, "the shrink is scheduled without input")
        let back = h.run(1.5)
        XCTAssertEqual(h.last.pointer.scale, 1, accuracy: 1e-6)
        XCTAssertFalse(h.last.isAnimating)
        XCTAssertTrue(back.contains { $0.pointer.scale > 1.2 && $0.pointer.scale < 2.5 }, "shrinks with the spring")
    }

    func testAFastStrokeAcrossTheScreenDoesNotGrowIt() {
        var h = Harness(at: point(50, 400))
        h.glide(to: point(1200, 420), steps: 20, interval: 1.0 / 60)
        h.glide(to: point(60, 380), steps: 20, interval: 1.0 / 60)
        h.run(0.2)
        XCTAssertEqual(h.last.pointer.scale, 1, accuracy: 1e-6)
    }

    func testATremblingHandDoesNotGrowIt() {
        var h = Harness(at: point(600, 400))
        shake(&h, amplitude: 3, seconds: 1)
        h.run(0.2)
        XCTAssertEqual(h.last.pointer.scale, 1, accuracy: 1e-6)
    }

    func testNoGrowthWhileAButtonIsHeld() {
        var h = Harness(at: point(600, 400))
        h.send(.button(.pressed))
        shake(&h)
        XCTAssertEqual(h.last.pointer.scale, PointerTuning().pressedScale, accuracy: 0.01, "pressed, not grown")
        h.send(.button(.released))
        h.run(0.5)
        XCTAssertEqual(h.last.pointer.scale, 1, accuracy: 1e-6, "the shake during the drag does not count after it")
    }

    func testTurnedOffOrMagnifiedByTheSettings() {
        var off = Harness(settings: PointerSettings(shakeToFind: false), at: point(600, 400))
        shake(&off)
        off.run(0.2)
        XCTAssertEqual(off.last.pointer.scale, 1, accuracy: 1e-6)

        var big = Harness(settings: PointerSettings(shakeMagnification: 5), at: point(600, 400))
        shake(&big, seconds: 1)
        big.run(0.4)
        XCTAssertEqual(big.last.pointer.scale, 5, accuracy: 0.2)
    }

    func testTheArrowGrowsAboutItsTip() {
        var h = Harness(settings: PointerSettings(style: .arrow), at: point(600, 400))
        shake(&h, seconds: 1)
        h.run(0.4)
        let g = h.last.pointer
        XCTAssertEqual(g.scale, 3, accuracy: 0.2)
        XCTAssertEqual(g.arrowTip, h.engine.devicePosition, "the tip stays where the hand is")
        XCTAssertGreaterThan(g.arrowBounds.height, PointerArrow.unitBounds.height * 2.5)
    }
}
