import Foundation
import LodestoneTesting
import XCTest

/// `zwp_idle_inhibit_manager_v1` with a pywayland client (Tests/clients/surface_client.py):
/// while its window shows, the adaptive pointer does not auto-hide; once the client is
/// gone, it does.
final class IdleInhibitTests: XCTestCase {
    func testVisibleInhibitorSuspendsPointerAutoHide() throws {
        let f = try AdaptiveFixture()
        let client = try f.session.launch(["python3", repositoryRoot + "/Tests/clients/surface_client.py", "idle-inhibit"],
                                          output: f.session.runtimeDirectory + "/surface-client.txt")
        _ = try f.session.waitForWindow("idle-inhibit")
        try f.move(to: 700, 500)
        try f.control.advanceClock(milliseconds: 12_000)
        XCTAssertEqual(try f.probe.shape().alpha, 1, accuracy: 0.01, "an inhibitor on a visible surface keeps the pointer shown")

        client.terminate()
        client.waitUntilExit()
        XCTAssertTrue(try f.session.wait { try f.control.windows().isEmpty })
        try f.control.advanceClock(milliseconds: 12_000)
        XCTAssertEqual(try f.probe.shape().alpha, 0, accuracy: 0.01, "without the inhibitor the idle pointer hides")
    }
}
