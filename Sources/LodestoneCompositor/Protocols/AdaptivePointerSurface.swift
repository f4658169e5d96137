import AdaptivePointerProtocol
import CWaylandServer
import WaylandServer

/// `adaptive_pointer_surface_v1`: the regions of one `wl_surface`.
///
/// Region objects hold the client's pending state. Any change marks this object dirty; the
/// surface's next `wl_surface.commit` takes a snapshot of every live region into the surface's
/// pending state (`SurfaceState.regions`), so region state is double-buffered and follows the
/// subsurface sync rules along with the rest of the surface state.
final class AdaptivePointerSurface: Resource, AdaptivePointerSurfaceV1Handler {
    /// Keeps a hostile client from growing the spatial index without bound.
    static let maximumRegions = RegionDraft.maximumRegionsPerSurface

    unowned let host: any SurfaceHost
    /// nil once the surface is gone: the object is then inert.
    private(set) weak var surface: WlSurface?
    private(set) var regions: [AdaptivePointerRegion] = []
    private var dirty = false

    init?(host: any SurfaceHost, client: Client, version: UInt32, id: UInt32, surface: WlSurface) {
        self.host = host
        self.surface = surface
        super.init(client: client, version: version, id: id)
    }

    func handle(_ request: Request, _ a: Arguments) {
        if request == .destroy { return destroy() }
        guard surface != nil else { return }  // inert
        switch request {
        case .createRegion: createRegion(id: a.newID(0))
        default: break
        }
    }

    private func createRegion(id: UInt32) {
        guard regions.count < Self.maximumRegions else {
            return postError(ADAPTIVE_POINTER_SURFACE_V1_ERROR_TOO_MANY_REGIONS.rawValue,
                             "too many regions: a surface holds at most \(Self.maximumRegions)")
        }
        guard host.regionTally.count(of: client) < ClientLimits.adaptiveRegionsPerClient else {
            return postError(ADAPTIVE_POINTER_SURFACE_V1_ERROR_TOO_MANY_REGIONS.rawValue,
                             "adaptive regions per client limit: a client holds at most \(ClientLimits.adaptiveRegionsPerClient) across its surfaces")
        }
        guard let region = AdaptivePointerRegion(owner: self, client: client, version: version, id: id,
                                                 regionID: host.allocateRegionID()) else { return }
        regions.append(region)
        region.tally = host.regionTally
        host.regionTally.added(by: client)
        markDirty()
    }

    /// A region changed, appeared or went away: the next commit carries a new snapshot.
    func markDirty() { dirty = true }

    func regionDestroyed(_ region: AdaptivePointerRegion) {
        regions.removeAll { $0 === region }
        markDirty()
    }

    /// Called by `wl_surface.commit` before the pending state is applied or cached.
    func surfaceCommitting(into state: inout SurfaceState) {
        guard dirty else { return }
        dirty = false
        state.regions = regions.map(\.spec)
    }

    override func destroyed() {
        // Double-buffered like everything else: the regions go with the next commit.
        if let surface {
            surface.pending.regions = []
            if surface.regionSource === self { surface.regionSource = nil }
        }
        for region in regions { region.ownerDestroyed() }
        regions = []
        surface = nil
    }
}
