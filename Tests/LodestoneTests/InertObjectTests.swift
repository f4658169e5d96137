import CWaylandClient
import LodestoneTesting
import WaylandClient
import XCTest

/// Objects whose counterpart is gone answer nothing and harm no one
/// (wlroots CONTRIBUTING.md: inert objects).
final class InertObjectTests: XCTestCase {
    /// wl_surface destroyed before its wl_subsurface: the subsurface is inert,
    /// and destroying it later (while the parent lives) must not crash the compositor.
    func testSubsurfaceOutlivingItsSurfaceIsInertAndDestroyable() throws {
        let session = try Session(size: "400x300")
        defer { session.stop() }
        let globals = try Globals(connection: try session.connect())
        let window = try Window(globals, title: "parent", width: 100, height: 100)
        let c = globals.connection
        let child = Proxy(globals.compositor.request { wl_compositor_create_surface($0) }!, on: c)
        let sub = Proxy(globals.subcompositor!.request(child, window.surface) { wl_subcompositor_get_subsurface($0, $1, $2) }!, on: c)
        sub.request { wl_subsurface_set_position($0, 10, 10) }
        try c.roundtrip()
        child.destroy { wl_surface_destroy($0) }
        try c.roundtrip()
        // Inert: requests are ignored, then the parent commits the pending position.
        sub.request { wl_subsurface_set_position($0, 20, 20) }
        sub.request { wl_subsurface_set_desync($0) }
        window.redraw()
        try c.roundtrip()
        sub.destroy { wl_subsurface_destroy($0) }
        try c.roundtrip()
        XCTAssertTrue(session.compositorIsRunning, "the compositor died:\n\(session.log)")
        window.redraw()
        XCTAssertNoThrow(try c.roundtrip(), "the client was disconnected")
        XCTAssertNoThrow(try session.control.windows())
    }
}
