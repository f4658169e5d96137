// liblodestone-pointer's server helper: adaptive_pointer_surface_v1, and the committed region
// state of one host wl_surface.

import AdaptivePointerProtocol
import CWaylandProtocols
import CWaylandServer
import AdaptivePointerEngine
import WaylandServer

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
final class ServerSurface: Resource, AdaptivePointerSurfaceV1Interface {
    /// nil once the surface or the server is gone: inert.
    weak var state: ServerSurfaceState?
    private(set) var regions: [ServerRegion] = []
    var dirty = false

    init?(state: ServerSurfaceState, client: Client, version: UInt32, id: UInt32) {
        self.state = state
        super.init(client: client, version: version, id: id)
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
