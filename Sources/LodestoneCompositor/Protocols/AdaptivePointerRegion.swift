import AdaptivePointerProtocol
import CWaylandServer
import AdaptivePointerEngine
import WaylandServer

/// One region as committed: what `wl_surface.commit` snapshots from an
/// `adaptive_pointer_region_v1` and the scene places in global space.
struct RegionSpec {
    let id: RegionID
    /// The protocol object, for entered/left/band events (nil once the client destroyed it).
    weak var object: AdaptivePointerRegion?
    /// Everything the client described (AdaptivePointerProtocol's `RegionDraft`).
    var draft = RegionDraft()
    /// A subsurface holding the element's pixels.
    weak var preview: WlSurface?

    init(id: RegionID) { self.id = id }

    var identifier: UInt32 { draft.identifier }
    var stackingOrder: Int32 { draft.stackingOrder }

    /// The region in engine terms, before `SurfacePlacement` puts it in global space.
    func localRegion(owner: SurfaceID) -> LocalRegion { draft.localRegion(id: id, owner: owner) }
}

/// `adaptive_pointer_region_v1`: one interactive element. Requests only edit the pending
/// `spec`; the surface's next commit snapshots it (see `AdaptivePointerSurface`). The checks
/// and their errors are `RegionDraft`'s, shared with liblodestone-pointer's server helper.
final class AdaptivePointerRegion: Resource, AdaptivePointerRegionV1Interface {
    private(set) weak var owner: AdaptivePointerSurface?
    private(set) var spec: RegionSpec

    init?(owner: AdaptivePointerSurface, client: Client, version: UInt32, id: UInt32, regionID: RegionID) {
        self.owner = owner
        spec = RegionSpec(id: regionID)
        super.init(client: client, version: version, id: id)
        spec.object = self
    }

    override func dispatch(opcode: UInt32, arguments a: Arguments) {
        if RegionDraft.Request(rawValue: opcode) == .destroy { return destroy() }
        guard let owner, owner.surface != nil else { return }  // inert
        switch spec.draft.apply(opcode: opcode, a, version: version) {
        case .changed: break
        case .error(let code, let message): return postError(code, message)
        case .preview(let resource): guard setPreview(resource?.object(as: WlSurface.self), given: resource != nil) else { return }
        case .unhandled: return
        }
        owner.markDirty()
    }

    /// Whether the preview was accepted (the error is posted otherwise).
    private func setPreview(_ preview: WlSurface?, given: Bool) -> Bool {
        guard given else { spec.preview = nil; return true }
        // The preview must be our own subsurface somewhere below the region's surface: the
        // compositor moves and scales its pixels, which it may only do for the owner's content.
        var ancestor = (preview?.role as? WlSubsurface)?.parent
        var below = false
        while let a = ancestor {
            if a === owner?.surface { below = true; break }
            ancestor = (a.role as? WlSubsurface)?.parent
        }
        guard let preview, preview.client == client, below else {
            postError(RegionDraft.invalidPreview.code, RegionDraft.invalidPreview.message)
            return false
        }
        spec.preview = preview
        return true
    }

    // MARK: Events

    func sendEntered() { send { adaptive_pointer_region_v1_send_entered($0, spec.identifier) } }
    func sendLeft() { send { adaptive_pointer_region_v1_send_left($0, spec.identifier) } }
    /// Since 4: Scribble read `text` from handwriting in this writing area, its ink over `r`.
    func sendWritten(_ text: String, _ r: Rect<SurfaceLocal>) {
        guard version >= 4 else { return }
        send { adaptive_pointer_region_v1_send_written($0, spec.identifier, text, wl_fixed_from_double(r.minX), wl_fixed_from_double(r.minY),
                                                 wl_fixed_from_double(r.width), wl_fixed_from_double(r.height)) }
    }
    func sendBand(_ state: UInt32, _ r: Rect<SurfaceLocal>) {
        send { adaptive_pointer_region_v1_send_band_selection($0, spec.identifier, state, wl_fixed_from_double(r.minX),
                                                       wl_fixed_from_double(r.minY), wl_fixed_from_double(r.width),
                                                       wl_fixed_from_double(r.height)) }
    }

    // MARK: Lifetime

    /// The surface extension went away: this region is inert from now on.
    func ownerDestroyed() { owner = nil }

    /// Counts this region against its client's limit while it lives.
    var tally: RegionTally?

    override func destroyed() {
        tally?.removed(by: client)
        tally = nil
        owner?.regionDestroyed(self)
        owner = nil
    }
}
