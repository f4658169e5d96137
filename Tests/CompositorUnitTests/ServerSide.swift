@testable import LodestoneCompositor
import CWaylandServer
import WaylandClient
import WaylandServer

/// What the compositor holds for a client's objects: found by the client's object id, as
/// wlcs' `position_window_absolute` finds a window.
extension InProcessCompositor {
    func surface(of window: Window) -> WlSurface? {
        server(of: window)?.object(id: window.surface.id, as: WlSurface.self)
    }

    func toplevel(of window: Window) -> XdgToplevel? { (surface(of: window)?.role as? XdgSurface)?.toplevel }

    /// Where the window's geometry starts, in global coordinates.
    func position(of window: Window) -> (x: Int32, y: Int32)? {
        guard let view = surface(of: window)?.role as? XdgSurface else { return nil }
        return view.position
    }

    /// Whether the window is in the scene (mapped).
    func isInScene(_ window: Window) -> Bool {
        guard let toplevel = toplevel(of: window) else { return false }
        return scene.windows.contains { $0 === toplevel }
    }

    private func server(of window: Window) -> WaylandServer.Client? {
        clients.first { $0.globals === window.globals }?.server
    }
}
