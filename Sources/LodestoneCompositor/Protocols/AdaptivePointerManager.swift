import CWaylandProtocols
import CWaylandServer
import WaylandServer

/// `adaptive_pointer_manager_v1`: the global through which clients declare regions.
final class AdaptivePointerManager: Resource, AdaptivePointerManagerV1Handler {
    /// 2: the `upright` accessory flag. 3: drawing previews. Surfaces and regions take the
    /// version of the manager they come from.
    static let version: Int32 = 4
    unowned let host: any SurfaceHost

    init?(host: any SurfaceHost, client: Client, version: UInt32, id: UInt32) {
        self.host = host
        super.init(client: client, version: version, id: id)
    }

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        case .destroy: destroy()
        case .getSurface: getSurface(id: a.newID(0), surface: a.object(1, as: WlSurface.self))
        }
    }

    private func getSurface(id: UInt32, surface: WlSurface?) {
        guard let surface else { return }
        // One extension object per surface, as with wp_viewport: two would fight over the regions.
        guard surface.regionSource == nil else {
            return postError(ADAPTIVE_POINTER_MANAGER_V1_ERROR_SURFACE_EXISTS.rawValue,
                             "wl_surface@\(surface.objectID) already has an adaptive_pointer_surface_v1")
        }
        guard let extensionObject = AdaptivePointerSurface(host: host, client: client, version: version, id: id, surface: surface) else { return }
        surface.regionSource = extensionObject
    }
}
