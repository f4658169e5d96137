import CWaylandClient
import CWaylandProtocols
import LodestoneCompositor
import Logging
import WaylandClient
import WaylandServer

/// Client buffers as the parent's own `wl_buffer`s, for the planes (`ParentPlanes`): the
/// parent reads the client's pixels where the client drew them, and nothing is copied.
///
/// Why sharing, not copying the damaged rectangles into a buffer of Lodestone's: a copy is
/// the very work planes are there to save (a still window copies nothing either way, but an
/// animating one would copy every frame what the parent then composes again), and a shared
/// buffer's `wl_buffer.release` is the parent's own. So:
/// - wl_shm: Lodestone's own wl_shm keeps the client's pool file (`ShmPool`); the parent gets
///   a pool made from it (`wl_shm.create_pool` sends the descriptor), grown when the
///   client's grows, and a buffer at the same offset, size, stride and format. Only a file
///   sealed against shrinking is shared (`ShmPool.shareableFile`): a client truncating an
///   unsealed one would fault the parent, which would end its connection with Lodestone.
///   Surfaces of such pools (GTK 3's) are composed.
/// - linux-dmabuf: the parent's own `wl_buffer` for the client's dmabuf, which `ParentDmabuf`
///   imported through the parent's `zwp_linux_dmabuf_v1` when the client made it (the same
///   planes, fds, offsets, strides and modifier), once the parent took it.
///
/// Release: a parent buffer holds its client buffer (`BufferResource.hold`) from its attach
/// to the parent's `wl_buffer.release`, so the client's release waits for both Lodestone and
/// the parent. A parent buffer of wl_shm lives while its client buffer does, or until the
/// parent releases it after the client destroyed it; a dmabuf's is `ParentDmabufBuffer`'s.
final class ParentBuffers {
    /// One client buffer as the parent's.
    final class Buffer {
        let proxy: Proxy
        /// The client's buffer, held while the parent holds its copy.
        let source: BufferResource
        /// The parent's pool it is in (wl_shm), nil for a dmabuf, whose proxy is its import's.
        fileprivate let pool: Pool?
        /// Attached to a parent surface and not yet released by the parent.
        private(set) var heldByParent = false

        fileprivate init(proxy: Proxy, source: BufferResource, pool: Pool?) {
            self.proxy = proxy
            self.source = source
            self.pool = pool
        }

        /// Attached (again): until the parent releases it, the client's release waits.
        func attached() {
            guard !heldByParent else { return }
            heldByParent = true
            source.hold()
        }

        fileprivate func released() {
            guard heldByParent else { return }
            heldByParent = false
            source.letGo()
        }

        deinit {
            released()
            if pool != nil { proxy.destroy { wl_buffer_destroy($0) } }
        }
    }

    /// A client pool as the parent's, while buffers of it are.
    fileprivate final class Pool {
        let proxy: Proxy
        /// Held so the pool (and its identity) outlives its parent copy.
        let client: ShmPool
        var size: Int
        var buffers = 0

        init(proxy: Proxy, client: ShmPool, size: Int) {
            self.proxy = proxy
            self.client = client
            self.size = size
        }

        deinit { proxy.destroy { wl_shm_pool_destroy($0) } }
    }

    private let shm: Proxy
    private let log: Logger
    private var buffers: [ObjectIdentifier: Buffer] = [:]
    private var pools: [ObjectIdentifier: Pool] = [:]

    init(shm: Proxy, logger: Logger) {
        self.shm = shm
        log = logger
    }

    /// Whether the parent can be given `buffer`: a pool file that is safe to share, or a
    /// dmabuf the parent took.
    func canShare(_ buffer: PlaneBuffer) -> Bool {
        switch buffer {
        case .shm(let shm): shm.share != nil
        case .dmabuf(let imported, _): (imported as? ParentDmabufBuffer)?.buffer != nil
        }
    }

    /// The parent's buffer for `buffer`, made on first use; nil when it cannot be shared or
    /// the parent's objects cannot be made.
    func parentBuffer(for buffer: PlaneBuffer) -> Buffer? {
        let key = ObjectIdentifier(buffer.resource)
        if let existing = buffers[key] { return existing }
        let made: Buffer
        switch buffer {
        case .shm(let shm):
            guard let share = shm.share, let pool = pool(for: share),
                  let proxy = try? Proxy(creating: { pool.proxy.request { wl_shm_pool_create_buffer($0, share.offset, share.width, share.height, share.stride, share.format) } },
                                         on: self.shm.connection, what: "wl_shm_pool.create_buffer") else { return nil }
            made = Buffer(proxy: proxy, source: shm.resource, pool: pool)
            pool.buffers += 1
        case .dmabuf(let imported, let source):
            guard let proxy = (imported as? ParentDmabufBuffer)?.buffer else { return nil }
            made = Buffer(proxy: proxy, source: source, pool: nil)
        }
        made.proxy.handleEvents(BufferEvent.self) { [unowned self, unowned made] event in
            switch event {
            case .release:
                made.released()
                // The client destroyed it meanwhile: nothing will attach it again.
                if !made.source.isAlive { self.forget(made) }
            }
        }
        buffers[key] = made
        return made
    }

    /// Drops the parent's copies of client buffers that are gone, once the parent let go of
    /// them (a copy the parent still shows goes when it releases it). A dmabuf's copy went
    /// with the client's buffer (`ParentDmabufBuffer`): no release will come for it, and
    /// holding on would keep the client's fds and mapping.
    func collect() {
        for buffer in buffers.values where !buffer.source.isAlive && (!buffer.heldByParent || buffer.pool == nil) { forget(buffer) }
    }

    private func forget(_ buffer: Buffer) {
        guard buffers.removeValue(forKey: ObjectIdentifier(buffer.source)) != nil, let pool = buffer.pool else { return }
        pool.buffers -= 1
        if pool.buffers == 0 { pools.removeValue(forKey: ObjectIdentifier(pool.client)) }
    }

    /// The parent's pool for a client pool, grown to the client's size.
    private func pool(for share: ShmShare) -> Pool? {
        let key = ObjectIdentifier(share.pool)
        if let pool = pools[key] {
            if share.poolSize > pool.size {
                let size = Int32(clamping: share.poolSize)
                pool.proxy.request { wl_shm_pool_resize($0, size) }
                pool.size = Int(size)
            }
            return pool
        }
        let size = Int32(clamping: share.poolSize)
        // libwayland sends a duplicate of the descriptor: the client's stays Lodestone's.
        guard let proxy = try? Proxy(creating: { shm.request { wl_shm_create_pool($0, share.file, size) } },
                                     on: shm.connection, what: "wl_shm.create_pool") else {
            log.error("cannot share a client's wl_shm pool with the parent")
            return nil
        }
        let pool = Pool(proxy: proxy, client: share.pool, size: Int(size))
        pools[key] = pool
        return pool
    }
}
