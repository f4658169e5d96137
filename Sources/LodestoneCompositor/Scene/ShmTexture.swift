import Rendering
import WaylandServer

/// A surface's wl_shm buffer, read where the client drew it (issue 17: copying every buffer
/// into a texture of our own doubled the memory of each window, 2.1 GB for a 16384² one).
///
/// As weston's pixman renderer does: the texture is an `Image` over the pool's pixels, every
/// read inside `wl_shm_buffer_begin_access`/`end_access` (the image's `access`), so a client
/// that truncates its pool gets `wl_shm.error.invalid_fd` and the compositor reads zeros.
///
/// No reference on the pool is kept between reads (issue 23). With one, libwayland 1.21
/// defers the client's `wl_shm_pool.resize` and still judges its next `create_buffer` by the
/// old size, so GTK 4, which grows one pool for its second cursor image, was disconnected
/// for a valid request. Instead the image asks for the pixels' address before every use
/// (`address`) and follows the pool when a resize moved it, as wlroots and weston re-read
/// `wl_shm_buffer_get_data` under the access guard.
/// The buffer is released when another buffer replaces it, not at once: the client must not
/// draw into it while it is shown.
final class ShmTexture: PixelAccess {
    private let attached: AttachedBuffer
    private let shm: ShmBuffer

    /// The image over the client's pixels; nil when pixman cannot wrap them.
    static func image(showing attached: AttachedBuffer, shm: ShmBuffer, format: Image.Format) -> Image? {
        let texture = ShmTexture(attached, shm: shm)
        guard let image = Image(borrowing: shm.data, width: shm.width, height: shm.height, stride: shm.stride, format: format) else {
            return nil
        }
        image.access = texture
        return image
    }

    private init(_ attached: AttachedBuffer, shm: ShmBuffer) {
        self.attached = attached
        self.shm = shm
    }

    /// Guarded only while the buffer exists: `WlSurface` swaps in a copy when the client
    /// destroys a buffer it still shows (while the buffer still exists), so nothing reads
    /// it afterwards.
    func begin() { if attached.buffer != nil { shm.beginAccess() } }
    func end() { if attached.buffer != nil { shm.endAccess() } }
    var address: UnsafeMutableRawPointer? { attached.buffer != nil ? shm.data : nil }
}
