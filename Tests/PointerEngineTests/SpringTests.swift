import Foundation
import XCTest
@testable import AdaptivePointerEngine

final class SpringTests: XCTestCase {
    /// Runs a spring from 0 to 1 at 60 Hz; returns every value.
    func trajectory(_ s: Spring, seconds: Double = 2) -> [Double] {
        var v = AnimatedValue(0, tolerance: 1e-6)
        v.target = 1
        let m = s.transition(over: 1.0 / 60)
        return (0..<Int(seconds * 60)).map { _ in v.advance(m); return v.value }
    }

    func testStiffnessAndDampingFollowResponseAndRatio() {
        let s = Spring(response: 0.5, dampingRatio: 0.8)
        assertClose(s.stiffness, pow(2 * .pi / 0.5, 2), 1e-9)
        assertClose(s.damping, 4 * .pi * 0.8 / 0.5, 1e-9)
    }

    func testEveryReferenceSpringConvergesAndSettles() {
        for s in [Spring.shape, .customMorph, .accessory, .text, Spring(response: 0.3, dampingRatio: 1.6)] {
            var v = AnimatedValue(0)
            v.target = 1
            let m = s.transition(over: 1.0 / 60)
            for _ in 0..<120 { v.advance(m) }
            XCTAssertTrue(v.isSettled, "\(s) did not settle in 2 s")
            XCTAssertEqual(v.value, 1)
        }
    }

    func testUnderdampedSpringOvershootsAndItsReduceMotionVariantDoesNot() {
        let bouncy = Spring(response: 0.3, dampingRatio: 0.5)
        XCTAssertGreaterThan(trajectory(bouncy).max()!, 1.1)
        XCTAssertLessThanOrEqual(trajectory(bouncy.withoutOvershoot).max()!, 1)
        XCTAssertGreaterThan(trajectory(.shape).max()!, 1, "0.9 damping overshoots slightly")
    }

    func testAnalyticStepIsIndependentOfFrameRate() {
        // One 0.1 s step equals six 1/60 s steps (up to rounding): exact solution, not Euler.
        for s in [Spring.shape, .customMorph, Spring(response: 0.2, dampingRatio: 2)] {
            var a = AnimatedValue(0, tolerance: 0), b = AnimatedValue(0, tolerance: 0)
            a.target = 1; b.target = 1
            a.advance(s.transition(over: 0.1))
            let m = s.transition(over: 1.0 / 60)
            for _ in 0..<6 { b.advance(m) }
            assertClose(a.value, b.value, 1e-9)
            assertClose(a.velocity, b.velocity, 1e-7)
        }
    }

    func testZeroTimeMovesNothing() {
        var v = AnimatedValue(0)
        v.target = 5
        v.advance(Spring.shape.transition(over: 0))
        XCTAssertEqual(v.value, 0)
    }
}
