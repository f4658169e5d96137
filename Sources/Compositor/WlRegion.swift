import CWaylandServer
import Rendering
import WaylandServer

/// `wl_region`: a client-built set of rectangles used for input and opaque regions.
final class WlRegion: Resource, ProtocolObject {
    static var interface: UnsafePointer<wl_interface> { Interface.region }
    let region = PixelRegion()

    enum Request: UInt32 { case destroy, add, subtract }

    init?(client: Client, version: UInt32, id: UInt32) {
        super.init(client: client, interface: Self.interface, version: version, id: id)
    }

    override func dispatch(opcode: UInt32, arguments a: Arguments) {
        switch Request(rawValue: opcode) {
        case .destroy: destroy()
        case .add:
            region.add(.sanitized(x: a.int(0), y: a.int(1), width: a.int(2), height: a.int(3)))
            // A union costs time linear in the rectangles already there: bound them.
            // wl_region defines no errors; code 0 on the region, naming the limit.
            if region.rectangleCount > ClientLimits.regionRectangles {
                postError(0, "wl_region rectangle limit: more than \(ClientLimits.regionRectangles) rectangles")
            }
        case .subtract: region.subtract(.sanitized(x: a.int(0), y: a.int(1), width: a.int(2), height: a.int(3)))
        case nil: break
        }
    }
}
