import CWaylandServer
import WaylandServer

/// Entry points for in-process test harnesses (the wlcs integration in
/// `LodestoneWLCS`): things a harness does that no Wayland client may ask for.
extension Compositor {
    /// The globals this compositor advertises, as (interface name, version):
    /// what wlcs calls the server's supported extensions.
    public var advertisedGlobals: [(name: String, version: Int32)] {
        // wl_shm is offered by the display (Display.initShm), version 1 as libwayland 1.21 offers it.
        [("wl_shm", 1)] + advertised
    }

    /// Puts the top-left of the window geometry of `client`'s surface
    /// `surfaceID` at global (x, y): wlcs' `position_window_absolute` (its
    /// SurfaceBuilder offsets by the geometry's offset, as Mir places windows).
    /// Only xdg surfaces are windows here.
    /// Returns false when the id is not a surface with a window role.
    @discardableResult
    public func positionWindow(of client: Client, surfaceID: UInt32, x: Int32, y: Int32) -> Bool {
        guard let surface = client.object(id: surfaceID, as: WlSurface.self),
              let view = surface.role as? XdgSurface else { return false }
        // Placed by the harness: mapping later must not cascade it elsewhere.
        view.toplevel?.placed = true
        view.toplevel?.keepsPlacement = true
        desktop.move(view, to: x, y)
        return true
    }
}
