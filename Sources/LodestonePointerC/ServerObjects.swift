// liblodestone-pointer's server helper: the adaptive-pointer-v1 objects of a host's clients.
// They mirror Compositor's AdaptivePointerManager/Surface/Region over a wl_surface the host
// owns (a bare wl_resource, located through the host's callbacks) instead of Lodestone's
// WlSurface; every region request goes through the shared `RegionDraft`.

import AdaptivePointerProtocol
import CWaylandProtocols
import CWaylandServer
import PointerEngine
import WaylandServer

/// `adaptive_pointer_manager_v1`.
final class ServerManager: Resource, ProtocolObject {
    static var interface: UnsafePointer<wl_interface> { cwp_adaptive_pointer_manager_v1_interface() }
    private weak var server: ServerHandle?

    init?(server: ServerHandle, client: Client, version: UInt32, id: UInt32) {
        self.server = server
        super.init(client: client, interface: Self.interface, version: version, id: id)
    }

    override func dispatch(opcode: UInt32, arguments a: Arguments) {
        switch opcode {
        case 0: destroy()
        case 1:
            // libwayland checked that the argument is a wl_surface.
            guard let server, let surface = a.object(1) else { return }
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

/// One wl_surface's region state: what was committed, and its extension object (if any).
/// Lives from the surface's first get_surface until the wl_surface is destroyed.
final class ServerSurfaceState {
    private(set) weak var server: ServerHandle?
    /// The host's wl_surface resource.
    let surface: OpaquePointer
    /// The engine's owner id for this surface's regions.
    let id: SurfaceID
    weak var extensionObject: ServerSurface?
    /// The regions as of the last commit.
    private(set) var committed: [(id: RegionID, draft: RegionDraft, object: ServerRegion?)] = []
    /// The extension was destroyed: the next commit empties the regions.
    var pendingClear = false
    private var destroyListener: Listener?

    init(server: ServerHandle, surface: OpaquePointer, id: SurfaceID) {
        self.server = server
        self.surface = surface
        self.id = id
        destroyListener = Listener { [weak self] _ in
            guard let self, let server = self.server else { return }
            server.surfaceDestroyed(self)
        }
        destroyListener?.attach(toDestroyOf: surface)
    }

    /// wl_surface.commit as the host applied it.
    func commit() {
        if let object = extensionObject, object.dirty {
            object.dirty = false
            committed = object.regions.map { ($0.id, $0.draft, $0) }
        } else if pendingClear {
            committed = []
        }
        pendingClear = false
    }

    /// The surface or the server is gone: the extension and its regions turn inert.
    func close() {
        destroyListener?.detach()
        destroyListener = nil
        extensionObject?.state = nil
        extensionObject = nil
        committed = []
        server = nil
    }
}

/// `adaptive_pointer_surface_v1`: the regions of one wl_surface.
final class ServerSurface: Resource, ProtocolObject {
    static var interface: UnsafePointer<wl_interface> { cwp_adaptive_pointer_surface_v1_interface() }
    /// nil once the surface or the server is gone: inert.
    weak var state: ServerSurfaceState?
    private(set) var regions: [ServerRegion] = []
    var dirty = false

    init?(state: ServerSurfaceState, client: Client, version: UInt32, id: UInt32) {
        self.state = state
        super.init(client: client, interface: Self.interface, version: version, id: id)
    }

    override func dispatch(opcode: UInt32, arguments a: Arguments) {
        if opcode == 0 { return destroy() }
        guard let server = state?.server, opcode == 1 else { return }  // inert, or unknown
        guard regions.count < RegionDraft.maximumRegionsPerSurface else {
            return postError(ADAPTIVE_POINTER_SURFACE_V1_ERROR_TOO_MANY_REGIONS.rawValue,
                             "too many regions: a surface holds at most \(RegionDraft.maximumRegionsPerSurface)")
        }
        guard let region = ServerRegion(owner: self, client: client, version: version, id: a.newID(0),
                                        regionID: server.allocateRegionID()) else { return }
        regions.append(region)
        dirty = true
    }

    func regionDestroyed(_ region: ServerRegion) {
        regions.removeAll { $0 === region }
        dirty = true
    }

    override func destroyed() {
        // Double-buffered like everything else: the regions go with the next commit.
        if let state, state.extensionObject === self {
            state.extensionObject = nil
            state.pendingClear = true
        }
        for region in regions { region.ownerDestroyed() }
        regions = []
        state = nil
    }
}

/// `adaptive_pointer_region_v1`: one element; requests edit `draft`, checked by `RegionDraft`.
final class ServerRegion: Resource, ProtocolObject {
    static var interface: UnsafePointer<wl_interface> { cwp_adaptive_pointer_region_v1_interface() }
    private weak var owner: ServerSurface?
    let id: RegionID
    private(set) var draft = RegionDraft()

    init?(owner: ServerSurface, client: Client, version: UInt32, id: UInt32, regionID: RegionID) {
        self.owner = owner
        self.id = regionID
        super.init(client: client, interface: Self.interface, version: version, id: id)
    }

    var isInert: Bool { owner?.state?.server == nil }

    override func dispatch(opcode: UInt32, arguments a: Arguments) {
        if RegionDraft.Request(rawValue: opcode) == .destroy { return destroy() }
        guard let owner, let state = owner.state, let server = state.server else { return }  // inert
        switch draft.apply(opcode: opcode, a, version: version) {
        case .changed: break
        case .error(let code, let message): return postError(code, message)
        case .preview(let preview):
            // The library draws effects from the host's composed pixels, so an accepted
            // preview changes nothing; it is checked so clients meet Lodestone's rules.
            guard let preview else { break }
            guard isOwnSubsurface(preview, below: state.surface, server: server) else {
                return postError(RegionDraft.invalidPreview.code, RegionDraft.invalidPreview.message)
            }
        case .unhandled: return
        }
        owner.dirty = true
    }

    /// Whether `preview` belongs to this client and is a subsurface somewhere below `surface`.
    private func isOwnSubsurface(_ preview: OpaquePointer, below surface: OpaquePointer, server: ServerHandle) -> Bool {
        guard wl_resource_get_client(preview) == client.pointer, let parent = server.callbacks.subsurface_parent else { return false }
        var ancestor = parent(server.data, preview)
        // A host's tree is finite, but a bug there must not hang the loop.
        for _ in 0..<256 {
            guard let a = ancestor else { return false }
            if a == surface { return true }
            ancestor = parent(server.data, a)
        }
        return false
    }

    func sendBand(_ identifier: UInt32, _ state: UInt32, _ r: Rect<SurfaceLocal>) {
        adaptive_pointer_region_v1_send_band_selection(pointer, identifier, state, wl_fixed_from_double(r.minX),
                                                       wl_fixed_from_double(r.minY), wl_fixed_from_double(r.width),
                                                       wl_fixed_from_double(r.height))
    }

    func ownerDestroyed() { owner = nil }

    override func destroyed() {
        owner?.regionDestroyed(self)
        owner = nil
    }
}
