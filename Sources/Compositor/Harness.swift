import CWaylandServer
import WaylandServer

/// Entry points for in-process test harnesses (the wlcs integration in
/// `LodestoneWLCS`): things a harness does that no Wayland client may ask for.
extension Compositor {
    /// The globals this compositor advertises, as (interface name, version):
    /// what wlcs calls the server's supported extensions.
    public var advertisedGlobals: [(name: String, version: Int32)] {
        // wl_shm is libwayland's own global (Display.initShm), version 1 in libwayland 1.21.
        [("wl_shm", 1)] + advertised
    }

    /// Puts the top-left of `client`'s surface `surfaceID` at global (x, y):
    /// wlcs' `position_window_absolute`. Only xdg surfaces are windows here.
    /// Returns false when the id is not a surface with a window role.
    @discardableResult
    public func positionWindow(of client: Client, surfaceID: UInt32, x: Int32, y: Int32) -> Bool {
        guard let resource = wl_client_get_object(client.pointer, surfaceID),
              let surface = WlSurface.from(resource),
              let view = surface.role as? XdgSurface else { return false }
        // `position` is where the window geometry starts; the surface origin
        // sits the geometry's offset before it.
        let (ox, oy) = view.surfaceOrigin
        let gx = view.position.x - ox, gy = view.position.y - oy
        // Placed by the harness: mapping later must not cascade it elsewhere.
        view.toplevel?.placed = true
        move(view, to: x + gx, y + gy)
        return true
    }
}
