import CWaylandProtocols
import CWaylandServer
import Rendering
import WaylandServer

/// `wp_single_pixel_buffer_manager_v1` (single-pixel-buffer-v1): a wl_buffer that is one
/// pixel of one colour, so a client fills a rectangle (a background, a video's black
/// bars) without an shm pool; with wp_viewporter it is stretched to any size.
final class WpSinglePixelBufferManager: Resource, WpSinglePixelBufferManagerV1Handler {
    static let version: Int32 = 1

    override init?(client: Client, version: UInt32, id: UInt32) {
        super.init(client: client, version: version, id: id)
    }

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        case .destroy: destroy()
        case .createU32RgbaBuffer:
            _ = SinglePixelBuffer(red: a.uint(1), green: a.uint(2), blue: a.uint(3), alpha: a.uint(4),
                                  client: client, id: a.newID(0))
        }
    }
}

/// A single-pixel `wl_buffer`: Lodestone's own wl_buffer implementation (wl_shm's are
/// libwayland's), read by `WlSurface` as a 1×1 texture the renderer stretches.
final class SinglePixelBuffer: Resource, WlBufferHandler {
    /// Premultiplied 0xAARRGGBB, as the protocol's channels are premultiplied.
    let pixel: UInt32

    /// Channels span the whole UInt32 range (0 to 0xffffffff); the top 8 bits of each
    /// are the 8-bit value, which is what rounding to 8 bits gives for all but a sliver.
    init?(red: UInt32, green: UInt32, blue: UInt32, alpha: UInt32, client: Client, id: UInt32) {
        pixel = (alpha >> 24) << 24 | (red >> 24) << 16 | (green >> 24) << 8 | blue >> 24
        super.init(client: client, version: 1, id: id)
    }

    var isOpaque: Bool { pixel >> 24 == 0xff }

    /// The pixel as a 1×1 image.
    func image() -> Image {
        let image = Image(width: 1, height: 1, format: isOpaque ? .xrgb8888 : .argb8888)
        image.withPixels { $0[0] = pixel }
        return image
    }

    func handle(_ request: Request, _ arguments: Arguments) {
        if request == .destroy { destroy() }
    }
}
