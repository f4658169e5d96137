import CWaylandServer
import WaylandServer

/// `xdg_wm_base`: the desktop shell; makes xdg_surfaces and positioners, pings.
final class XdgWmBase: Resource, XdgWmBaseHandler {
    static let version: Int32 = 5
    unowned let host: any ShellHost
    /// xdg_surfaces made through this object; destroying it while any live is an error.
    var surfaces: [ObjectIdentifier: Weak<XdgSurface>] = [:]

    init?(host: any ShellHost, client: Client, version: UInt32, id: UInt32) {
        self.host = host
        super.init(client: client, version: version, id: id)
    }

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        case .destroy:
            if surfaces.values.contains(where: { $0.value != nil }) {
                return postError(XDG_WM_BASE_ERROR_DEFUNCT_SURFACES.rawValue, "xdg_wm_base destroyed while it still has xdg_surfaces")
            }
            destroy()
        case .createPositioner: _ = XdgPositioner(client: client, version: version, id: a.newID(0))
        case .getXdgSurface: getXdgSurface(id: a.newID(0), surface: a.object(1, as: WlSurface.self))
        case .pong: break  // Lodestone never declares a client unresponsive.
        }
    }

    private func getXdgSurface(id: UInt32, surface: WlSurface?) {
        guard let surface else { return }
        if surface.hasContent || surface.pending.buffer != nil {
            return postError(XDG_WM_BASE_ERROR_INVALID_SURFACE_STATE.rawValue, "get_xdg_surface on a surface that already has a buffer")
        }
        guard let xdg = XdgSurface(wmBase: self, surface: surface, id: id) else { return }
        guard surface.assignRole(xdg, error: (self, XDG_WM_BASE_ERROR_ROLE.rawValue)) else { return }
        surfaces[ObjectIdentifier(xdg)] = Weak(xdg)
    }
}
