import CWaylandServer
import Rendering
import WaylandServer

/// `wl_region`: a client-built set of rectangles used for input and opaque regions.
///
/// Added rectangles wait in a batch that joins the region in one pass when it is read, before
/// a subtract, or every `batchSize` rectangles: one by one, each union walks every band already
/// there, and 40,000 rectangles took 15.8 s (issue 17); a batch is sorted (n log n) and joined
/// once. The rectangles a region may hold stay capped (`ClientLimits.regionRectangles`).
final class WlRegion: Resource, ProtocolObject {
    static var interface: UnsafePointer<wl_interface> { Interface.region }
    private let built = PixelRegion()
    private var batch: [PixelRect] = []
    static let batchSize = 512

    /// The region as the client has built it so far.
    var region: PixelRegion {
        joinBatch()
        return built
    }

    enum Request: UInt32 { case destroy, add, subtract }

    init?(client: Client, version: UInt32, id: UInt32) {
        super.init(client: client, interface: Self.interface, version: version, id: id)
    }

    override func dispatch(opcode: UInt32, arguments a: Arguments) {
        switch Request(rawValue: opcode) {
        case .destroy: destroy()
        case .add:
            batch.append(.sanitized(x: a.int(0), y: a.int(1), width: a.int(2), height: a.int(3)))
            guard batch.count >= Self.batchSize || batch.count + built.rectangleCount > ClientLimits.regionRectangles else { return }
            joinBatch()
            // wl_region defines no errors; code 0 on the region, naming the limit.
            if built.rectangleCount > ClientLimits.regionRectangles {
                postError(0, "wl_region rectangle limit: more than \(ClientLimits.regionRectangles) rectangles")
            }
        case .subtract:
            joinBatch()
            built.subtract(.sanitized(x: a.int(0), y: a.int(1), width: a.int(2), height: a.int(3)))
        case nil: break
        }
    }

    private func joinBatch() {
        guard !batch.isEmpty else { return }
        built.add(batch)
        batch.removeAll(keepingCapacity: true)
    }
}
