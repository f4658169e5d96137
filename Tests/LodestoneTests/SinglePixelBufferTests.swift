import Foundation
import LodestoneTesting
import XCTest

/// `wp_single_pixel_buffer_manager_v1` with a pywayland client
/// (Tests/clients/surface_client.py): the window's one pixel is drawn in its colour.
final class SinglePixelBufferTests: XCTestCase {
    func testSinglePixelBufferIsDrawnInItsColour() throws {
        let session = try Session()
        try session.launch(["python3", repositoryRoot + "/Tests/clients/surface_client.py", "single-pixel", "3366ccff"],
                           output: session.runtimeDirectory + "/surface-client.txt")
        let window = try session.waitForWindow("single-pixel")
        XCTAssertEqual(window.width, 1)
        XCTAssertEqual(window.height, 1)
        let shot = try session.screenshot()
        XCTAssertEqual(shot[Int(window.x), Int(window.y)], 0x3366cc)
        XCTAssertNotEqual(shot[Int(window.x) + 1, Int(window.y)], 0x3366cc, "one pixel, not more")
    }
}
