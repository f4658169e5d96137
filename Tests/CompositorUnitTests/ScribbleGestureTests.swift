import Glibc
@testable import LodestoneCompositor
import Rendering
import XCTest

/// Scribble's scratch-out: one stroke back and forth across itself, nothing else.
final class ScribbleGestureTests: XCTestCase {
    private func stroke(_ points: [(Double, Double)]) -> [InkPoint] { points.map { InkPoint(x: $0.0, y: $0.1, pressure: 0.5) } }

    /// `count` points alternating between x = 0 and x = `width`, `step` lower each time.
    private func zigzag(_ count: Int, width: Double, step: Double) -> [InkPoint] {
        var points: [(Double, Double)] = []
        for i in 0..<count { points.append((i % 2 == 0 ? 0 : width, Double(i) * step)) }
        return stroke(points)
    }

    func testBackAndForthThreeTimesIsAScratch() {
        XCTAssertTrue(ScribbleGesture.isScratch([zigzag(8, width: 60, step: 2)]))
    }

    func testWritingIsNoScratch() {
        XCTAssertFalse(ScribbleGesture.isScratch([stroke([(0, 0), (80, 2)])]), "a line")
        var circle: [(Double, Double)] = []
        for i in 0...24 { circle.append((20 + 20 * cos(Double(i) / 4), 20 + 20 * sin(Double(i) / 4))) }
        XCTAssertFalse(ScribbleGesture.isScratch([stroke(circle)]), "an o")
        XCTAssertFalse(ScribbleGesture.isScratch([zigzag(4, width: 60, step: 5)]), "two turns")
        XCTAssertFalse(ScribbleGesture.isScratch([zigzag(10, width: 10, step: 8)]), "taller than wide")
        XCTAssertFalse(ScribbleGesture.isScratch([zigzag(8, width: 60, step: 2), stroke([(0, 0), (5, 5)])]), "two strokes")
    }

    func testAWobbleIsNoTurn() {
        // 3.5-point wobbles along a line, under the 4-point hysteresis.
        var points: [(Double, Double)] = []
        for i in 0..<40 { points.append((Double(i) * 3 - (i % 2 == 0 ? 0 : 3.5), 0)) }
        XCTAssertFalse(ScribbleGesture.isScratch([stroke(points)]))
    }

    func testAStraightFlatStrokeIsALine() {
        XCTAssertTrue(ScribbleGesture.isLine([stroke([(0, 0), (20, 1), (40, 0), (60, 2)])]))
        XCTAssertTrue(ScribbleGesture.isLine([stroke([(60, 5), (0, 0)])]), "right to left")
        XCTAssertFalse(ScribbleGesture.isLine([stroke([(0, 0), (20, 0)])]), "too short")
        XCTAssertFalse(ScribbleGesture.isLine([stroke([(0, 0), (40, 30)])]), "too steep")
        XCTAssertFalse(ScribbleGesture.isLine([stroke([(0, 0), (30, 12), (60, 0)])]), "bent")
        XCTAssertFalse(ScribbleGesture.isLine([stroke([(0, 0), (60, 0)]), stroke([(0, 5), (60, 5)])]), "two strokes")
    }

    /// `count` points around an ellipse of `width`×`height`, going `turns` times around.
    private func loop(width: Double, height: Double, turns: Double = 1, count: Int = 40) -> [InkPoint] {
        stroke((0...count).map { i in
            let t = Double(i) / Double(count) * turns * 2 * Double.pi
            return (width / 2 * cos(t), height / 2 * sin(t))
        })
    }

    func testALoopAroundTextIsACircleAndSelectsAcrossItsMiddle() throws {
        XCTAssertTrue(ScribbleGesture.isCircle([loop(width: 120, height: 40)]))
        XCTAssertTrue(ScribbleGesture.isCircle([loop(width: 120, height: 40, turns: 0.9)]), "not quite closed")
        XCTAssertFalse(ScribbleGesture.isCircle([loop(width: 20, height: 20)]), "an o")
        XCTAssertFalse(ScribbleGesture.isCircle([loop(width: 120, height: 40, turns: 0.5)]), "an arc")
        XCTAssertFalse(ScribbleGesture.isCircle([stroke([(0, 0), (20, 1), (40, 0), (60, 2)])]), "a line")
        XCTAssertFalse(ScribbleGesture.isCircle([loop(width: 120, height: 40), loop(width: 120, height: 40)]), "two strokes")
        let chord = try XCTUnwrap(ScribbleGesture.selection([loop(width: 120, height: 40)]))
        XCTAssertEqual(chord.from.x, -48, accuracy: 0.5)
        XCTAssertEqual(chord.to.x, 48, accuracy: 0.5)
        XCTAssertEqual(chord.from.y, 0, accuracy: 0.5)
        XCTAssertEqual(chord.to.y, 0, accuracy: 0.5)
        let line = try XCTUnwrap(ScribbleGesture.selection([stroke([(0, 0), (20, 1), (40, 0), (60, 2)])]))
        XCTAssertEqual([line.from.x, line.to.x], [0, 60], "a line's ends")
        XCTAssertNil(ScribbleGesture.selection([zigzag(9, width: 40, step: 2)]), "a scratch selects nothing")
    }
}
