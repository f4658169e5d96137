@testable import LodestoneCompositor
import AdaptivePointerEngine
import Rendering
import WaylandClient
import XCTest

/// The seat's pointer has one writer and answers with values: every call into it during one
/// motion, one frame and one capture is recorded by a stand-in in front of it.
final class SeatPointerRecordingTests: XCTestCase {
    /// Writes down each call into the pointer, and whether one came while another was still
    /// running (the pointer calling back into whoever called it, and so into itself).
    private final class Recorder: PointerOwner {
        let inner: any PointerOwner
        var calls: [String] = []
        var depth = 0
        var reentered = false
        init(_ inner: any PointerOwner) { self.inner = inner }

        private func record<R>(_ call: String, _ body: () -> R) -> R {
            calls.append(call)
            if depth > 0 { reentered = true }
            depth += 1
            defer { depth -= 1 }
            return body()
        }

        func handle(_ input: PointerInput, at now: Instant) -> PointerPosition {
            let name: String
            switch input {
            case .motion: name = "handle(motion)"
            case .relativeMotion: name = "handle(relativeMotion)"
            default: name = "handle(\(input))"
            }
            return record(name) { inner.handle(input, at: now) }
        }
        func update(_ change: PointerWorldChange, at now: Instant) { record("update") { inner.update(change, at: now) } }
        func step(at now: Instant) -> PointerStep { record("step") { inner.step(at: now) } }
    }

    func testOneMotionOneFrameAndOneCaptureCallThePointerOnceOnceAndNever() throws {
        let lodestone = try InProcessCompositor()
        let client = try lodestone.connect()
        let window = try lodestone.mapWindow(on: client, title: "A", x: 100, y: 100, width: 200, height: 150)
        try lodestone.movePointer(to: 150, 120)
        _ = lodestone.compositor.clock.advance(by: 1000)   // everything settles
        let recorder = Recorder(lodestone.seat.pointer)
        lodestone.seat.interposePointer { _ in recorder }
        lodestone.forgetEvents()

        // One motion: one call, and nothing back.
        lodestone.seat.handle(.pointerMotion(.absolute(x: 160, y: 130)), at: 2000)
        XCTAssertEqual(recorder.calls, ["handle(motion)"])
        try lodestone.roundtrip()
        XCTAssertEqual(client.pointerEvents.last, .motion(x: 60, y: 30), "the client heard the motion from the seat")

        // One frame: one step.
        recorder.calls = []
        let frames = lodestone.compositor.frameCount
        XCTAssertEqual(lodestone.compositor.clock.advance(by: lodestone.compositor.clock.interval), 1)
        XCTAssertEqual(recorder.calls, ["step"])
        XCTAssertEqual(lodestone.compositor.frameCount, frames + 1, "the frame composed the motion")

        // One capture of a damaged output: it composes, and asks the pointer nothing.
        recorder.calls = []
        lodestone.compositor.output.damage(logical: PixelRect(x: 0, y: 0, width: 1280, height: 800))
        lodestone.compositor.composeIfNeeded()
        XCTAssertEqual(lodestone.compositor.frameCount, frames + 2, "the capture composed")
        XCTAssertEqual(recorder.calls, [])
        XCTAssertFalse(recorder.reentered, "no call into the pointer came while it was running")
        _ = window
    }

    /// The pointer cannot call back: nothing it holds leads to the seat or the compositor.
    func testThePointerHoldsNeitherTheSeatNorTheCompositor() throws {
        let lodestone = try InProcessCompositor()
        let pointer = try XCTUnwrap(lodestone.seat.pointer as? SeatPointer)
        var seen = Set<ObjectIdentifier>()
        func walk(_ value: Any, _ path: String, depth: Int) {
            XCTAssertFalse(value is Compositor || value is Seat, "\(path) leads to the \(type(of: value))")
            if let object = value as AnyObject?, type(of: value) is AnyClass {
                guard seen.insert(ObjectIdentifier(object)).inserted else { return }
            }
            guard depth < 4 else { return }
            for child in Mirror(reflecting: value).children { walk(child.value, path + "." + (child.label ?? "?"), depth: depth + 1) }
        }
        walk(pointer, "SeatPointer", depth: 0)
        // Its one closure logs a refused region, through the logger alone.
        let closures = Mirror(reflecting: pointer).children.filter { "\(type(of: $0.value))".contains("->") }.map(\.label)
        XCTAssertEqual(closures, ["log"])
    }
}
