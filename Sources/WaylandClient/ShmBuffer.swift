import CWaylandClient
import CWaylandProtocols
import Glibc
import LodestoneSystem

/// A `wl_buffer` in its own memfd-backed `wl_shm_pool` (sealed against shrinking), ARGB8888.
public final class ClientShmBuffer {
    public let buffer: Proxy
    public let width: Int32, height: Int32, stride: Int32
    /// The mapped pixels: reached through `subscript` and `withPixels`, never handed out.
    private let data: UnsafeMutablePointer<UInt32>
    private let fd: Int32
    private let size: Int

    /// Pixel `index` (row-major, `stride / 4` pixels a row), ARGB.
    public subscript(index: Int) -> UInt32 {
        get { precondition(index >= 0 && index < size / 4, "pixel \(index) outside the buffer"); return data[index] }
        set { precondition(index >= 0 && index < size / 4, "pixel \(index) outside the buffer"); data[index] = newValue }
    }

    /// Runs `body` with every pixel of the mapping (`width` × `height`, rows `stride / 4` apart).
    public func withPixels<R>(_ body: (UnsafeMutableBufferPointer<UInt32>) throws -> R) rethrows -> R {
        try body(UnsafeMutableBufferPointer(start: data, count: size / 4))
    }

    /// A buffer of `width`×`height` pixels on `shm` (a `wl_shm`); throws with
    /// the reason when the memory or the Wayland objects cannot be made.
    public init(on shm: Proxy, width: Int32, height: Int32, format: UInt32 = WL_SHM_FORMAT_ARGB8888.rawValue) throws(SystemError) {
        let stride = width * 4, size = Int(stride) * Int(height)
        self.width = width; self.height = height
        self.stride = stride
        self.size = size
        func failed(_ call: String) -> String { "\(call) for a \(width)×\(height) buffer failed" }
        let fd = try syscall("memfd_create", what: failed("memfd_create")) { cwc_shm_file("lodestone-client-buffer", size) }
        let map: UnsafeMutableRawPointer
        do throws(SystemError) {
            map = try call("mmap", what: failed("mmap")) {
                mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0).flatMap { $0 == MAP_FAILED ? nil : $0 }
            }
        } catch {
            close(fd)
            throw error
        }
        self.fd = fd
        data = map.assumingMemoryBound(to: UInt32.self)
        let connection = shm.connection
        do {
            let pool = try Proxy(creating: { wl_shm_create_pool(shm.pointer, fd, Int32(size)) }, on: connection, what: "wl_shm.create_pool")
            defer { pool.destroy { wl_shm_pool_destroy($0) } }
            buffer = try Proxy(creating: { wl_shm_pool_create_buffer(pool.pointer, 0, width, height, stride, format) },
                               on: connection, what: "wl_shm_pool.create_buffer")
        } catch {
            munmap(map, size)
            close(fd)
            throw error
        }
    }

    /// The same buffer, nil when it cannot be made (`init(on:…)` says why).
    public convenience init?(shm: Proxy, width: Int32, height: Int32, format: UInt32 = WL_SHM_FORMAT_ARGB8888.rawValue) {
        do { try self.init(on: shm, width: width, height: height, format: format) } catch { return nil }
    }

    deinit {
        buffer.destroy { wl_buffer_destroy($0) }
        munmap(data, size)
        close(fd)
    }

    public func fill(_ color: UInt32) { for i in 0..<Int(width * height) { data[i] = color } }
    public func pixel(x: Int32, y: Int32) -> UInt32 { data[Int(y * width + x)] }
}
