import AdaptivePointerClient
import Foundation
import LodestoneTesting
import XCTest

/// Nested, the plain pointer is the parent's cursor (`ParentPointerPlane`): plain motion
/// costs no frame, a morph moves the pointer into Lodestone's frame and back, and no parent
/// frame in between shows two pointers or none. Lodestone parents, whose captures show
/// their clients' cursor surfaces.
final class NestedCursorTests: XCTestCase {
    static let background: UInt32 = 0xffe0_e0e0

    /// The parent's cursor is a surface the nested Lodestone set (not hidden, not the parent's own).
    private func parentShowsNestedCursor(_ parent: Session) throws -> Bool { try parent.control.cursor().kind == .surface }

    func testPlainMotionMovesOnlyTheParentsCursor() throws {
        let parent = try Session(size: "800x600")
        defer { parent.stop() }
        let nested = try Session(nestedIn: parent, size: "400x300", environment: ["WAYLAND_DEBUG": "client"])
        defer { nested.stop() }
        let window = try parent.waitForWindow("Lodestone")
        try parent.control.movePointer(x: Double(window.x) + 200, y: Double(window.y) + 150)
        XCTAssertTrue(try nested.wait { try nested.control.pointer().x == 200 }, "motion did not reach the nested seat")
        XCTAssertTrue(try nested.wait { try self.parentShowsNestedCursor(parent) }, "the nested pointer never became the parent's cursor")
        // Settled: window commits and cursor updates stopped moving.
        var previous: (Int, Int)?
        XCTAssertTrue(try nested.wait {
            let t = try BufferTrace(nested.log)
            let now = (t.commits, t.cursorCommits)
            defer { previous = now }
            return !t.awaitingFrameCallback && previous.map { $0 == now } == true
        })
        let frames = try nested.control.frameCount()
        let before = try BufferTrace(nested.log)

        for k in 1...10 {
            try parent.control.movePointer(dx: 3, dy: 2)
            XCTAssertTrue(try nested.wait { try nested.control.pointer().x == 200 + 3 * Double(k) }, "motion \(k) did not reach the nested seat")
        }
        // A frame that does not come can only be watched for: a bounded wait.
        usleep(300_000)
        let after = try BufferTrace(nested.log)
        XCTAssertEqual(after.commits, before.commits, "plain motion sent the parent new buffers")
        XCTAssertEqual(try nested.control.frameCount(), frames, "plain motion composed frames")
        XCTAssertEqual(after.cursorCommits, before.cursorCommits, "plain motion redrew the cursor image (it is drawn once)")

        // The parent shows the pointer where its own pointer is, and the nested frame has none.
        let inner = try nested.screenshot()
        XCTAssertEqual(inner.countDiffering(from: backgroundColor, x: 230 - 20, y: 170 - 20, width: 40, height: 40).differing, 0,
                       "the nested frame draws the pointer too")
        let outer = try parent.screenshot()
        XCTAssertGreaterThan(outer.countDiffering(from: inner, atX: Int(window.x), y: Int(window.y)), 50, "the parent shows no cursor")
    }

    /// The centre of the parent's cursor image (the pixels where the parent's capture differs
    /// from the nested frame) is where the parent's pointer is, at scale 1, 1.5 and 2.
    func testCursorHotspotIsThePointersCentreAtEveryScale() throws {
        for scale in [1.0, 1.5, 2.0] {
            let parent = try Session(size: "640x480", scale: scale)
            defer { parent.stop() }
            let nested = try Session(nestedIn: parent, size: "300x200")
            defer { nested.stop() }
            _ = try parent.waitForWindow("Lodestone")
            // A whole parent pixel at 1.5 too.
            let window = try parent.control.moveWindow("Lodestone", x: 100, y: 100)
            XCTAssertTrue(try nested.wait { try nested.captureSize() == Size(width: Int32(300 * scale), height: Int32(200 * scale)) }, "scale \(scale)")
            try parent.control.movePointer(x: Double(window.x) + 102, y: Double(window.y) + 78)
            XCTAssertTrue(try nested.wait { try nested.control.pointer().x == 102 }, "motion did not reach the nested seat")
            XCTAssertTrue(try nested.wait { try self.parentShowsNestedCursor(parent) }, "scale \(scale): the nested pointer never became the parent's cursor")
            var centre: (x: Double, y: Double)?
            XCTAssertTrue(try nested.wait {
                let inner = try nested.screenshot(), outer = try parent.screenshot()
                centre = outer.centreOfDifference(from: inner, atX: Int((Double(window.x) * scale).rounded()), y: Int((Double(window.y) * scale).rounded()))
                return centre != nil
            }, "scale \(scale): the parent shows no cursor")
            let c = try XCTUnwrap(centre)
            XCTAssertEqual(c.x, (Double(window.x) + 102) * scale, accuracy: 0.6, "scale \(scale): hotspot x")
            XCTAssertEqual(c.y, (Double(window.y) + 78) * scale, accuracy: 0.6, "scale \(scale): hotspot y")
        }
    }

    /// Into a highlight region the pointer becomes Lodestone's (a platter drawn beneath the
    /// element), out of it the parent's cursor again; in every parent frame in between,
    /// exactly one of them shows.
    func testMorphMovesThePointerIntoTheFrameAndBackWithOnePointerInEveryParentFrame() throws {
        // The parent composes only when the test advances its clock: each capture is a frame.
        let parent = try Session(size: "800x600", manualClock: true)
        defer { parent.stop() }
        let nested = try Session(nestedIn: parent, size: "400x300", environment: ["WAYLAND_DEBUG": "client"])
        defer { nested.stop() }
        let window = try parent.waitForWindow("Lodestone")
        let client = try RegionClient(session: nested, title: "regions", width: 300, height: 200, background: Self.background)
        let inside = try nested.waitForWindow("regions")
        let region = (x: Int32(150), y: Int32(80), width: Int32(100), height: Int32(60))
        try client.declare(RegionDescription(frame: (region.x, region.y, region.width, region.height), effect: .highlight, identifier: 1))
        let origin = (x: Int(window.x + inside.x), y: Int(window.y + inside.y))
        let plain = (x: origin.x + 40, y: origin.y + 150)
        let centre = (x: origin.x + Int(region.x + region.width / 2), y: origin.y + Int(region.y + region.height / 2))
        // Parent pixels holding both places and the region: every pointer drawn is in it.
        let box = (x: plain.x - 20, y: origin.y + Int(region.y) - 20, width: Int(region.x + region.width) - 40 + 40, height: 150 - Int(region.y) + 40)
        func frame(advancing: Bool = true) throws -> (cursor: Bool, drawn: Int)? {
            if advancing { try parent.control.advanceClock(milliseconds: 16) }
            let before = try parentShowsNestedCursor(parent)
            let shot = try parent.screenshot()
            // Changed meanwhile: look again. (A held frame is looked at once: its capture
            // releases the nested frame, whose cursor change then follows the capture.)
            if advancing, try parentShowsNestedCursor(parent) != before { return nil }
            return (before, shot.countDiffering(from: Self.background, x: box.x, y: box.y, width: box.width, height: box.height).differing)
        }
        try parent.control.movePointer(x: Double(plain.x), y: Double(plain.y))
        // The circle's pixels: the parent's cursor alone, the same in two frames in a row.
        var circle = 0, last = -1
        for _ in 0..<200 {
            guard let f = try frame(), f.cursor else { continue }
            if f.drawn == last, f.drawn > 50, f.drawn < 2000 { circle = f.drawn; break }
            last = f.drawn
        }
        XCTAssertGreaterThan(circle, 50, "the plain pointer never became the parent's cursor alone")
        /// Every parent frame shows one pointer: the parent's cursor alone (no more than the
        /// circle drawn), or Lodestone's own (the parent's hidden, something drawn).
        func watch(until done: ((cursor: Bool, drawn: Int)) -> Bool, _ what: String) throws {
            var frames = 0
            for _ in 0..<200 {
                guard let f = try frame() else { continue }
                frames += 1
                if f.cursor {
                    XCTAssertLessThanOrEqual(f.drawn, circle + 20, "\(what), parent frame \(frames): two pointers")
                } else {
                    XCTAssertGreaterThan(f.drawn, 0, "\(what), parent frame \(frames): no pointer")
                }
                if done(f) { return }
            }
            XCTFail("\(what): never settled")
        }
        /// Moves the nested pointer to (x, y) (parent pixels) while the nested Lodestone cannot
        /// commit (it waits for a frame callback the parent's held clock does not send), and
        /// has a nested capture compose the hand-over frame meanwhile: the parent's next frame
        /// must still show one pointer (the cursor changes with the commit, not before). The
        /// motion is injected into the nested seat: the parent's own would let it draw.
        func handOverWhileHeld(to x: Int, _ y: Int, _ what: String) throws {
            try client.draw(background: Self.background)
            XCTAssertTrue(try nested.wait { try BufferTrace(nested.log).awaitingFrameCallback }, "\(what): the nested Lodestone committed nothing")
            // Injected input steps the pointer at once: a few steps over a little while let
            // the morph start (or end) while the frame clock is held.
            for k in 0..<8 {
                try nested.control.movePointer(x: Double(x - Int(window.x) + k % 2), y: Double(y - Int(window.y)))
                usleep(25_000)
            }
            _ = try nested.captureSize()
            XCTAssertTrue(try BufferTrace(nested.log).awaitingFrameCallback, "\(what): the nested Lodestone was not held")
            // A cursor change sent too early would reach the parent on its own connection:
            // give it the time it takes (bounded; nothing is expected to arrive).
            usleep(100_000)
            let f = try XCTUnwrap(try frame(advancing: false))
            if f.cursor {
                XCTAssertLessThanOrEqual(f.drawn, circle + 20, "\(what), held parent frame: two pointers")
            } else {
                XCTAssertGreaterThan(f.drawn, 0, "\(what), held parent frame: no pointer")
            }
        }
        try handOverWhileHeld(to: centre.x, centre.y, "into the highlight")
        try watch(until: { !$0.cursor && $0.drawn > 2 * circle }, "into the highlight")
        // A while in it: the highlighted pointer stays Lodestone's.
        for _ in 0..<10 { if let f = try frame() { XCTAssertFalse(f.cursor, "the highlighted pointer went back to the parent's cursor") } }
        try handOverWhileHeld(to: plain.x, plain.y, "out of the highlight")
        var settled = 0
        try watch(until: { f in settled = f.cursor && f.drawn == circle ? settled + 1 : 0; return settled >= 3 }, "out of the highlight")
    }
}

extension Screenshot {
    /// The centre of the pixels that differ from `other` placed at (x, y), nil when none do.
    func centreOfDifference(from other: Screenshot, atX x: Int, y: Int) -> (x: Double, y: Double)? {
        var sx = 0.0, sy = 0.0, n = 0.0
        for py in 0..<other.height {
            for px in 0..<other.width {
                let ox = x + px, oy = y + py
                guard ox >= 0, oy >= 0, ox < width, oy < height, self[ox, oy] != other[px, py] else { continue }
                sx += Double(ox) + 0.5; sy += Double(oy) + 0.5; n += 1
            }
        }
        return n > 20 ? (sx / n, sy / n) : nil
    }
}
