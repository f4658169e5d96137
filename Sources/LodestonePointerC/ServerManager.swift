// liblodestone-pointer's server helper: adaptive_pointer_manager_v1 for a host's clients
// (Lodestone's own is Compositor/AdaptivePointerManager.swift). The helper's protocol objects
// mirror Compositor's over a wl_surface the host owns (a bare wl_resource, located through the
// host's callbacks) instead of Lodestone's WlSurface; one file per interface.

import CWaylandProtocols
import CWaylandServer
import WaylandServer

/// `adaptive_pointer_manager_v1`.
final class ServerManager: Resource, AdaptivePointerManagerV1Interface {
    private weak var server: ServerHandle?

    init?(server: ServerHandle, client: Client, version: UInt32, id: UInt32) {
        self.server = server
        super.init(client: client, version: version, id: id)
    }

    override func dispatch(opcode: UInt32, arguments a: Arguments) {
        switch opcode {
        case 0: destroy()
        case 1:
            // libwayland checked that the argument is a wl_surface.
            guard let server, let surface = a.object(1)?.withResource({ $0 }) else { return }
            let state = server.state(for: surface)
            // One extension object per surface, as with wp_viewport: two would fight over the regions.
            guard state.extensionObject == nil else {
                return postError(ADAPTIVE_POINTER_MANAGER_V1_ERROR_SURFACE_EXISTS.rawValue,
                                 "wl_surface@\(wl_resource_get_id(surface)) already has an adaptive_pointer_surface_v1")
            }
            // The resource keeps the object alive (its user data); the state only points at it.
            guard let object = ServerSurface(state: state, client: client, version: version, id: a.newID(0)) else { return }
            state.extensionObject = object
        default: break
        }
    }
}
