// liblodestone-pointer's server helper: adaptive_pointer_region_v1, every request checked by
// the shared `RegionDraft` (the same checks and errors as Compositor/AdaptivePointerRegion.swift).

import AdaptivePointerProtocol
import CWaylandProtocols
import CWaylandServer
import AdaptivePointerEngine
import WaylandServer

/// `adaptive_pointer_region_v1`: one element; requests edit `draft`, checked by `RegionDraft`.
final class ServerRegion: Resource, AdaptivePointerRegionV1Interface {
    private weak var owner: ServerSurface?
    let id: RegionID
    private(set) var draft = RegionDraft()

    init?(owner: ServerSurface, client: Client, version: UInt32, id: UInt32, regionID: RegionID) {
        self.owner = owner
        self.id = regionID
        super.init(client: client, version: version, id: id)
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
            guard let preview = preview?.withResource({ $0 }) else { break }
            guard isOwnSubsurface(preview, below: state.surface, server: server) else {
                return postError(RegionDraft.invalidPreview.code, RegionDraft.invalidPreview.message)
            }
        case .unhandled: return
        }
        owner.dirty = true
    }

    /// Whether `preview` belongs to this client and is a subsurface somewhere below `surface`.
    private func isOwnSubsurface(_ preview: OpaquePointer, below surface: OpaquePointer, server: ServerHandle) -> Bool {
        guard client.owns(preview), let parent = server.callbacks.subsurface_parent else { return false }
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
        send { adaptive_pointer_region_v1_send_band_selection($0, identifier, state, wl_fixed_from_double(r.minX),
                                                       wl_fixed_from_double(r.minY), wl_fixed_from_double(r.width),
                                                       wl_fixed_from_double(r.height)) }
    }

    func ownerDestroyed() { owner = nil }

    override func destroyed() {
        owner?.regionDestroyed(self)
        owner = nil
    }
}
