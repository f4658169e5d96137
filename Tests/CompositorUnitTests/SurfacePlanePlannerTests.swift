@testable import LodestoneCompositor
import Rendering
import XCTest

/// Which surfaces go on a backend's planes (issue 37): a plane lies above the composed frame,
/// so nothing composed may be above it where it overlaps it.
final class SurfacePlanePlannerTests: XCTestCase {
    private func rect(_ x: Int32, _ y: Int32, _ w: Int32, _ h: Int32) -> PixelRect { PixelRect(x: x, y: y, width: w, height: h) }

    func testSurfacesWithNothingComposedAboveThemArePlanes() {
        let planner = SurfacePlanePlanner()
        // Two windows side by side, each with its title bar beneath it: both planes.
        let layers: [SurfacePlanePlanner.Layer] = [
            .composed(rect(0, 0, 300, 30)), .candidate(rect(0, 30, 300, 200), accepted: true),
            .composed(rect(400, 0, 300, 30)), .candidate(rect(400, 30, 300, 200), accepted: true),
        ]
        XCTAssertEqual(planner.assign(layers), [false, true, false, true])
    }

    /// The second window's title bar lies over the first window: the first is composed, the
    /// second (above everything composed) is a plane.
    func testATitleBarOverASurfaceComposesIt() {
        let planner = SurfacePlanePlanner()
        let layers: [SurfacePlanePlanner.Layer] = [
            .candidate(rect(0, 30, 300, 200), accepted: true),
            .composed(rect(100, 100, 300, 30)), .candidate(rect(100, 130, 300, 200), accepted: true),
        ]
        XCTAssertEqual(planner.assign(layers), [false, false, true])
    }

    /// The pointer's effect on top composes the surface under it, and so everything beneath
    /// that surface where it overlaps; a surface elsewhere stays a plane.
    func testWhatIsComposedSpreadsDownwardOnly() {
        let planner = SurfacePlanePlanner()
        let layers: [SurfacePlanePlanner.Layer] = [
            .candidate(rect(0, 0, 200, 200), accepted: true),      // under the middle window
            .candidate(rect(500, 0, 200, 200), accepted: true),    // apart
            .candidate(rect(150, 150, 200, 200), accepted: true),  // under the effect
            .composed(rect(300, 300, 40, 40)),                     // the pointer's effect
        ]
        XCTAssertEqual(planner.assign(layers), [false, true, false, false])
    }

    /// A surface a plane cannot show is composed, and what it overlaps beneath it with it;
    /// one above it stays a plane.
    func testASurfaceThePlanesCannotTakeIsComposedWithWhatIsBeneathIt() {
        let planner = SurfacePlanePlanner()
        let layers: [SurfacePlanePlanner.Layer] = [
            .candidate(rect(0, 0, 200, 200), accepted: true),
            .candidate(rect(100, 100, 200, 200), accepted: false),
            .candidate(rect(150, 150, 200, 200), accepted: true),
        ]
        XCTAssertEqual(planner.assign(layers), [false, false, true])
    }

    /// At most `maximumPlanes`, the topmost: the rest are composed beneath them.
    func testOnlyTheTopmostPlanesAreKeptPastTheLimit() {
        let planner = SurfacePlanePlanner(maximumPlanes: 2)
        let layers: [SurfacePlanePlanner.Layer] = (0..<4).map { .candidate(rect(Int32($0) * 300, 0, 100, 100), accepted: true) }
        XCTAssertEqual(planner.assign(layers), [false, false, true, true])
    }
}
