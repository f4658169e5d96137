@testable import LodestoneCompositor
import AdaptivePointerEngine
import XCTest

/// The compositor's side of a hardware cursor: a backend's `PointerPlane` is asked before
/// every composed frame, and the frame leaves the pointer out exactly when the plane takes it.
final class PointerPlaneTests: XCTestCase {
    /// Answers as told and records what it was asked (the DRM plane itself needs a GPU).
    private final class Plane: PointerPlane {
        var takes: Bool
        var asked: [(PointerPresentation, Bool)] = []
        init(takes: Bool) { self.takes = takes }
        func present(_ presentation: PointerPresentation, adaptive: Bool) -> Bool {
            asked.append((presentation, adaptive))
            return takes
        }
    }

    func testFrameLeavesThePointerOutWhileThePlaneShowsIt() throws {
        let lodestone = try InProcessCompositor()
        let compositor = lodestone.compositor
        let plane = Plane(takes: true)
        compositor.pointerPlane = plane
        func pixels() -> [UInt32] {
            _ = compositor.clock.advance(by: 500)
            compositor.composeIfNeeded()
            var out: [UInt32] = []
            for y in Int32(290)..<310 { for x in Int32(290)..<310 { out.append(compositor.output.image.pixel(x: x, y: y)) } }
            return out
        }
        try lodestone.send(.pointerMotion(.absolute(x: 100, y: 100)))
        let background = pixels()
        try lodestone.send(.pointerMotion(.absolute(x: 300, y: 300)))
        XCTAssertEqual(pixels(), background, "the plane shows the pointer: the frame has none")
        let last = try XCTUnwrap(plane.asked.last)
        XCTAssertTrue(last.1, "the adaptive pointer")
        XCTAssertEqual(last.0.pointer.shape.center.x, 300, accuracy: 0.5, "the plane was given the pointer where it is")

        // While the plane keeps the pointer, its motion composes nothing.
        let frames = compositor.frameCount
        for x in 301...310 {
            try lodestone.send(.pointerMotion(.absolute(x: Double(x), y: 300)))
            _ = compositor.clock.advance(by: 16)
        }
        XCTAssertEqual(compositor.frameCount, frames, "plain motion on the plane composed frames")
        XCTAssertEqual(try XCTUnwrap(plane.asked.last).0.pointer.shape.center.x, 310, accuracy: 0.5, "the plane follows the motion")

        plane.takes = false   // an effect, or the driver refused
        try lodestone.send(.pointerMotion(.absolute(x: 311, y: 300)))
        let drawn = pixels()
        XCTAssertGreaterThan(zip(background, drawn).filter { $0 != $1 }.count, 100, "the frame draws the pointer again")
    }
}
