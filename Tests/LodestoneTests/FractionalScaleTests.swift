import Foundation
import LodestoneTesting
import XCTest

/// `wp_fractional_scale_manager_v1` with the pywayland client (Tests/clients/surface_client.py):
/// a surface is told the output's scale in 120ths; a second object on it is an error.
final class FractionalScaleTests: XCTestCase {
    private let client = repositoryRoot + "/Tests/clients/surface_client.py"

    func testPreferredScaleIsTheOutputsIn120ths() throws {
        for scale in [1, 2] {
            let session = try Session(scale: scale)
            let (status, output) = try run(["python3", client, "fractional-scale"], environment: session.clientEnvironment)
            XCTAssertEqual(status, 0, output)
            XCTAssertTrue(output.contains("preferred_scale \(scale * 120)"), output)
            XCTAssertTrue(output.contains("RESULT: protocol-error"), output)
            XCTAssertTrue(output.contains("error 0: wl_surface@") && output.contains("already has a wp_fractional_scale_v1"), output)
        }
    }
}
