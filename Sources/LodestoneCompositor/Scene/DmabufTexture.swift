import CWaylandServer
import Glibc
import LodestoneSystem
import Rendering

/// A client's linear 32-bit dmabuf, mapped for reading: composed as a wl_shm buffer is
/// (`ShmTexture`), an `Image` over the client's pixels, every read of which is bracketed by
/// `DMA_BUF_IOCTL_SYNC` (start, then end, with `DMA_BUF_SYNC_READ`). The kernel then makes
/// the CPU's view coherent with whatever device wrote the buffer, and waits for its pending
/// writes (the buffer's implicit fence), as wlroots' and Smithay's pixman renderers do.
///
/// Mapped once, when the buffer is created (a buffer that cannot be mapped fails there, where
/// the client can still fall back to wl_shm), and kept with the buffer's fds until the last
/// image over it is gone: when the client destroys a buffer that is on screen, the surface
/// copies it first (`WlSurface.shownBufferDestroyed`), under the same sync.
///
/// A dmabuf never shrinks under a mapping (udmabuf needs its memfd sealed against it; GPU
/// buffers have a fixed size), so no read faults the way a truncated wl_shm pool does.
final class DmabufMapping: PixelAccess {
    let attributes: DmabufAttributes
    private let base: UnsafeMutableRawPointer
    private let length: Int
    /// Where row 0 starts (the plane's offset inside the mapping).
    private let pixels: UnsafeMutableRawPointer

    /// Maps the plane of a mappable format (`DmabufFormat.isMappable`, its bounds already
    /// checked by `DmabufParams`) and checks that it is a dmabuf at all: a memfd maps as well,
    /// but only a dmabuf answers the sync ioctl.
    init(_ attributes: DmabufAttributes) throws(SystemError) {
        precondition(attributes.format.isMappable && attributes.planes.count == 1)
        let plane = attributes.planes[0]
        guard attributes.flags == 0 else {
            throw SystemError("a dmabuf with flags \(attributes.flags) (y_invert 1, interlaced 2) is not read here")
        }
        try Self.sync(plane.fd, start: true, what: "its plane is not a dmabuf")
        try Self.sync(plane.fd, start: false, what: "its plane is not a dmabuf")
        // From the dmabuf's start, whatever the plane's offset: DRM's shmem-backed GEM buffers
        // (virtio-gpu's dumb buffers) fault in pages from the mapping's start and ignore an
        // offset given to mmap, so a mapping at the offset showed the buffer's first bytes.
        length = Int(plane.offset) + Int(plane.stride) * Int(attributes.height)
        let mapped = mmap(nil, length, PROT_READ, MAP_SHARED, plane.fd, 0)
        guard let mapped, mapped != MAP_FAILED else {
            throw SystemError.lastError("cannot map the dmabuf's \(length) bytes", call: "mmap")
        }
        base = mapped
        pixels = mapped + Int(plane.offset)
        self.attributes = attributes
    }

    deinit { munmap(base, length) }

    /// An image over the pixels that syncs around every read; nil when pixman cannot wrap them.
    func image() -> Image? {
        let a = attributes
        let format: Image.Format = a.format.fourcc == DmabufFormat.xrgb8888 ? .xrgb8888 : .argb8888
        guard let image = Image(borrowing: pixels, width: a.width, height: a.height, stride: Int32(a.planes[0].stride), format: format) else {
            return nil
        }
        image.access = self
        return image
    }

    // MARK: PixelAccess

    /// A sync that fails here (the device gone) leaves the pixels as they were: the protocol
    /// forbids an error to the client once its buffer was made.
    func begin() { try? Self.sync(attributes.planes[0].fd, start: true, what: "DMA_BUF_IOCTL_SYNC failed") }
    func end() { try? Self.sync(attributes.planes[0].fd, start: false, what: "DMA_BUF_IOCTL_SYNC failed") }
    var address: UnsafeMutableRawPointer? { pixels }

    /// `DMA_BUF_IOCTL_SYNC`, again while the kernel says to (EINTR, EAGAIN).
    private static func sync(_ fd: Int32, start: Bool, what: String) throws(SystemError) {
        while cws_dmabuf_sync_read(fd, start) != 0 {
            let code = lastErrno
            if code == EINTR || code == EAGAIN { continue }
            throw SystemError(what, call: "DMA_BUF_IOCTL_SYNC", errno: code)
        }
    }
}
