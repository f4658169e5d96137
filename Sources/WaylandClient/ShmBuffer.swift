import CWaylandClient
import CWaylandProtocols
import Glibc

/// A `wl_buffer` in its own memfd-backed `wl_shm_pool`, ARGB8888.
public final class ClientShmBuffer {
    public let buffer: Proxy
    public let width: Int32, height: Int32, stride: Int32
    public let data: UnsafeMutablePointer<UInt32>
    private let fd: Int32
    private let size: Int

    public init?(shm: Proxy, width: Int32, height: Int32, format: UInt32 = WL_SHM_FORMAT_ARGB8888.rawValue) {
        self.width = width; self.height = height
        stride = width * 4
        size = Int(stride) * Int(height)
        fd = cwc_memfd_create("lodestone-client-buffer", 1 /* MFD_CLOEXEC */)
        guard fd >= 0, ftruncate(fd, off_t(size)) == 0,
              let map = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), map != MAP_FAILED else { return nil }
        data = map.assumingMemoryBound(to: UInt32.self)
        let pool = wl_shm_create_pool(shm.pointer, fd, Int32(size))!
        buffer = Proxy(wl_shm_pool_create_buffer(pool, 0, width, height, stride, format)!, on: shm.connection)
        wl_shm_pool_destroy(pool)
    }

    deinit {
        buffer.destroy { wl_buffer_destroy($0) }
        munmap(data, size)
        close(fd)
    }

    public func fill(_ color: UInt32) { for i in 0..<Int(width * height) { data[i] = color } }
    public func pixel(x: Int32, y: Int32) -> UInt32 { data[Int(y * width + x)] }
}
