import WaylandServer

/// What one client may cost, in one place (issue 17). Each limit, when a client passes it,
/// ends in a protocol error whose message names the limit; every other client carries on.
///
/// | limit | value | why |
/// |---|---|---|
/// | rectangles in a `wl_region` | 4,096 | adds and subtracts join in batches of 512 (`WlRegion`, `PixelRegion.apply`), but the region they make is walked whole by every batch, read and copy; real input and opaque regions hold a handful |
/// | pending damage rectangles | 64, then merged | a client may damage without ever committing; past 64 the rectangles merge into their bounding box, so memory and the cost of a commit stay flat |
/// | subsurface depth | `WlSubsurface.maxDepth` (32) | bounds every walk of a surface tree; toolkits nest a few levels |
/// | adaptive pointer regions per surface | `AdaptivePointerSurface.maximumRegions` (512) | the protocol's too_many_regions |
/// | frame callbacks per surface | 256 | a surface that asks for frames and is never drawn (unmapped, or committing nothing) would hold them all; a frame needs one |
/// | adaptive pointer regions per client | 2,048 | many surfaces of one client must not get past the per-surface limit; the engine's index and the scene's placement grow with every region |
/// | dmabuf fds held per client | 256 | linux-dmabuf keeps every plane's fd for the buffer's life (and params' until `create`), and fds are Lodestone's to run out of; a swapchain holds 2-4 buffers of 1-4 planes, a video decoder a few dozen |
enum ClientLimits {
    static let regionRectangles = 4096
    static let pendingDamageRectangles = 64
    static let adaptiveRegionsPerClient = 2048
    static let frameCallbacksPerSurface = 256
    static let dmabufFdsPerClient = 256
}

/// Live adaptive pointer regions per client, for `ClientLimits.adaptiveRegionsPerClient`.
final class RegionTally {
    private var counts: [Client: Int] = [:]

    func count(of client: Client) -> Int { counts[client] ?? 0 }
    func added(by client: Client) { counts[client, default: 0] += 1 }
    func removed(by client: Client) {
        guard let n = counts[client] else { return }
        counts[client] = n > 1 ? n - 1 : nil
    }
}

