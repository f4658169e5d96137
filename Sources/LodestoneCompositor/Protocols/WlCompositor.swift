import CWaylandServer
import WaylandServer

/// `wl_compositor`: makes surfaces and regions.
final class WlCompositor: Resource, WlCompositorHandler {
    static let version: Int32 = 5
    unowned let host: any SurfaceHost

    init?(host: any SurfaceHost, client: Client, version: UInt32, id: UInt32) {
        self.host = host
        super.init(client: client, version: version, id: id)
    }

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        case .createSurface:
            // The resource owns the surface; the compositor meets it when it gets a role
            // (or, for Xwayland's, when an X window names it).
            if let surface = WlSurface(host: host, client: client, version: version, id: a.newID(0)) {
                host.surfaceCreated(surface)
            }
        case .createRegion: _ = WlRegion(client: client, version: 1, id: a.newID(0))
        }
    }
}
