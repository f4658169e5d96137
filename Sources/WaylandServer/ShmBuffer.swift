import CWaylandServer

/// A client's `struct wl_shm_buffer`, read under libwayland's SIGBUS guard so a
/// truncated pool cannot take the compositor down.
public struct ShmBuffer {
    private let pointer: OpaquePointer

    /// The shm buffer behind `buffer`, or nil if it is not one.
    public init?(_ buffer: WlBuffer) {
        guard let shm = wl_shm_buffer_get(buffer.resource) else { return nil }
        pointer = shm
    }

    public var width: Int32 { wl_shm_buffer_get_width(pointer) }
    public var height: Int32 { wl_shm_buffer_get_height(pointer) }
    public var stride: Int32 { wl_shm_buffer_get_stride(pointer) }
    /// A `wl_shm.format` value.
    public var format: UInt32 { wl_shm_buffer_get_format(pointer) }

    /// Runs `body` with the pixels mapped and guarded.
    public func withPixels<R>(_ body: (UnsafeMutableRawPointer) throws -> R) rethrows -> R {
        beginAccess()
        defer { endAccess() }
        return try body(wl_shm_buffer_get_data(pointer))
    }

    /// Where the pixels are mapped. Read them only between `beginAccess` and `endAccess`,
    /// and hold a `PoolReference` for as long as the address is kept: without one, the
    /// client's `wl_shm_pool.resize` may move the mapping.
    public var data: UnsafeMutableRawPointer { wl_shm_buffer_get_data(pointer) }

    /// `wl_shm_buffer_begin_access`: until `endAccess`, a read past the end of a truncated
    /// pool finds zeros instead of raising SIGBUS, and `endAccess` then posts
    /// `wl_shm.error.invalid_fd` on the buffer. One pool at a time.
    public func beginAccess() { wl_shm_buffer_begin_access(pointer) }
    public func endAccess() { wl_shm_buffer_end_access(pointer) }

    /// `wl_shm_buffer_ref_pool`: the pool stays mapped, where it is, until the reference is
    /// released, even when the client destroys the buffer or resizes the pool meanwhile.
    public func referencePool() -> PoolReference { PoolReference(pool: wl_shm_buffer_ref_pool(pointer)) }

    /// A reference to a `struct wl_shm_pool`, released with `release()` exactly once.
    public struct PoolReference {
        fileprivate let pool: OpaquePointer
        /// `wl_shm_pool_unref`: a resize the client asked for meanwhile happens now.
        public func release() { wl_shm_pool_unref(pool) }
    }
}
