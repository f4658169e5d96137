import CWaylandServer
import WaylandServer

/// `wl_compositor`: makes surfaces and regions.
final class WlCompositor: Resource, RequestHandler {
    static let version: Int32 = 5
    static var interface: UnsafePointer<wl_interface> { Interface.compositor }
    unowned let compositor: Compositor

    enum Request: UInt32 { case createSurface, createRegion }

    init?(compositor: Compositor, client: Client, version: UInt32, id: UInt32) {
        self.compositor = compositor
        super.init(client: client, version: version, id: id)
    }

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        case .createSurface:
            // The resource owns the surface; the compositor meets it when it gets a role
            // (or, for Xwayland's, when an X window names it).
            if let surface = WlSurface(compositor: compositor, client: client, version: version, id: a.newID(0)) {
                compositor.surfaceCreated(surface)
            }
        case .createRegion: _ = WlRegion(client: client, version: 1, id: a.newID(0))
        }
    }
}
