import Foundation
import LodestoneTesting
import XCTest

/// `zxdg_output_manager_v1` through `wayland-info` (wayland-utils), which binds the
/// highest version offered and prints each output's xdg_output description.
final class XdgOutputTests: XCTestCase {
    func testWaylandInfoReadsTheLogicalOutput() throws {
        try requireProgram("wayland-info")
        // Scale 2: the logical size is the mode's pixel size halved.
        let session = try Session(size: "1024x640", scale: 2)
        let (status, info) = try run(["timeout", "10", "wayland-info"], environment: session.clientEnvironment)
        XCTAssertEqual(status, 0, info)
        XCTAssertTrue(info.contains("'zxdg_output_manager_v1'"), info)
        XCTAssertNotNil(info.range(of: #"zxdg_output_manager_v1',\s+version:\s+3"#, options: .regularExpression), "version 3 offered:\n\(info)")
        XCTAssertTrue(info.contains("width: 2048 px, height: 1280 px"), "the wl_output mode in pixels:\n\(info)")
        XCTAssertTrue(info.contains("logical_x: 0, logical_y: 0"), info)
        XCTAssertTrue(info.contains("logical_width: 1024, logical_height: 640"), info)
        XCTAssertNotNil(info.range(of: #"xdg_output_v1[\s\S]*name: '\S+'"#, options: .regularExpression), "a name (version 2):\n\(info)")
    }
}
