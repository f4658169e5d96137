import CWaylandServer
import Glibc

/// `wl_shm`: shared-memory pools, Lodestone's own instead of libwayland's (`ShmPool` says
/// why). Version 1, the formats every compositor has (ARGB8888 and XRGB8888), and the
/// errors, with their words, that libwayland 1.21 posts.
final class WlShm: Resource, WlShmHandler {
    static let version: Int32 = 1
    private let files: ShmFiles

    init?(files: ShmFiles, client: Client, version: UInt32, id: UInt32) {
        self.files = files
        super.init(client: client, version: version, id: id)
        for format in [WL_SHM_FORMAT_ARGB8888, WL_SHM_FORMAT_XRGB8888] { send { wl_shm_send_format($0, format.rawValue) } }
    }

    static func supports(_ format: UInt32) -> Bool {
        format == WL_SHM_FORMAT_ARGB8888.rawValue || format == WL_SHM_FORMAT_XRGB8888.rawValue
    }

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        case .createPool:
            let fd = a.fd(1), size = a.int(2)
            guard size > 0 else {
                close(fd)
                return postError(WL_SHM_ERROR_INVALID_STRIDE.rawValue, "invalid size (\(size))")
            }
            let pool: ShmPool
            do {
                pool = try ShmPool(file: fd, size: Int(size), owner: client, files: files)
            } catch {
                return postError(WL_SHM_ERROR_INVALID_FD.rawValue, error.description)
            }
            _ = WlShmPool(pool: pool, client: client, version: version, id: a.newID(0))
        }
    }
}

/// `wl_shm_pool`: buffers at offsets in a client's pool, and its growth.
final class WlShmPool: Resource, WlShmPoolHandler {
    private let pool: ShmPool

    init?(pool: ShmPool, client: Client, version: UInt32, id: UInt32) {
        self.pool = pool
        super.init(client: client, version: version, id: id)
    }

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        case .createBuffer:
            let offset = a.int(1), width = a.int(2), height = a.int(3), stride = a.int(4), format = a.uint(5)
            guard WlShm.supports(format) else {
                return postError(WL_SHM_ERROR_INVALID_FORMAT.rawValue, "invalid format 0x\(String(format, radix: 16))")
            }
            // libwayland's own test, in 64 bits: the buffer lies inside the pool.
            guard offset >= 0, width > 0, height > 0, stride >= width, Int64(stride) * Int64(height) <= Int64(Int32.max),
                  Int64(offset) + Int64(stride) * Int64(height) <= Int64(pool.size) else {
                return postError(WL_SHM_ERROR_INVALID_STRIDE.rawValue, "invalid width, height or stride (\(width)x\(height), \(UInt32(bitPattern: stride)))")
            }
            _ = WlShmBuffer(pool: pool, offset: Int(offset), width: width, height: height, stride: stride, format: format,
                            client: client, id: a.newID(0))
        case .destroy: destroy()
        case .resize:
            let size = a.int(0)
            guard size >= pool.size else { return postError(WL_SHM_ERROR_INVALID_FD.rawValue, "shrinking pool invalid") }
            if !pool.resize(to: Int(size)) { client.postNoMemory() }
        }
    }
}

/// A `wl_buffer` in a client's pool: where it is and how its pixels are laid out. The pool's
/// mapping lives while the buffer does (and while a reader holds it: `ShmBuffer`).
final class WlShmBuffer: BufferResource, WlBufferHandler {
    let pool: ShmPool
    let offset: Int
    let width: Int32, height: Int32, stride: Int32
    let format: UInt32

    init?(pool: ShmPool, offset: Int, width: Int32, height: Int32, stride: Int32, format: UInt32, client: Client, id: UInt32) {
        self.pool = pool
        self.offset = offset
        self.width = width; self.height = height; self.stride = stride
        self.format = format
        super.init(client: client, version: 1, id: id)
    }

    func handle(_ request: Request, _ a: Arguments) {
        if request == .destroy { destroy() }
    }
}
