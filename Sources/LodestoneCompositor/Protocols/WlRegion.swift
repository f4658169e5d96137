import CWaylandServer
import Rendering
import WaylandServer

/// `wl_region`: a client-built set of rectangles used for input and opaque regions.
///
/// Its requests wait in a batch that joins the region in one pass when it is read, or every
/// `batchSize` requests (`PixelRegion.apply`, adds and subtracts in any order): one by one,
/// each union or subtract walks every band already there, so 40,000 adds took 15.8 s
/// (issue 17), and adds and subtracts alternating near the limit cost time in the square
/// of their count. The rectangles a region may hold stay capped (`ClientLimits.regionRectangles`),
/// checked whenever a batch joins.
final class WlRegion: Resource, WlRegionHandler {
    private let built = PixelRegion()
    private var batch: [PixelRegion.Edit] = []
    /// How many of the batch add: the region can hold at most that many more rectangles
    /// from them, so joining early keeps the limit's check ahead of a flood of adds.
    private var batchAdds = 0
    static let batchSize = 512

    /// The region as the client has built it so far.
    var region: PixelRegion {
        joinBatch()
        return built
    }

    override init?(client: Client, version: UInt32, id: UInt32) {
        super.init(client: client, version: version, id: id)
    }

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        case .destroy: destroy()
        case .add:
            batch.append(.init(.sanitized(x: a.int(0), y: a.int(1), width: a.int(2), height: a.int(3)), adds: true))
            batchAdds += 1
            guard batch.count >= Self.batchSize || batchAdds + built.rectangleCount > ClientLimits.regionRectangles else { return }
            joinBatchWithinLimit()
        case .subtract:
            // A subtract can split the rectangles it cuts: the limit holds for it too.
            batch.append(.init(.sanitized(x: a.int(0), y: a.int(1), width: a.int(2), height: a.int(3)), adds: false))
            guard batch.count >= Self.batchSize else { return }
            joinBatchWithinLimit()
        }
    }

    private func joinBatchWithinLimit() {
        joinBatch()
        // wl_region defines no errors; code 0 on the region, naming the limit.
        if built.rectangleCount > ClientLimits.regionRectangles {
            postError(0, "wl_region rectangle limit: more than \(ClientLimits.regionRectangles) rectangles")
        }
    }

    private func joinBatch() {
        guard !batch.isEmpty else { return }
        built.apply(batch)
        batch.removeAll(keepingCapacity: true)
        batchAdds = 0
    }
}
