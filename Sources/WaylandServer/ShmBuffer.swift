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

    /// Where the pixels are mapped now. Read them only between `beginAccess` and `endAccess`,
    /// and ask again after the client's next request: its `wl_shm_pool.resize` may move the
    /// mapping. (Lodestone takes no `wl_shm_buffer_ref_pool`: libwayland 1.21 defers a resize
    /// while one is held and then refuses the client's valid `create_buffer`, issue 23.)
    package var data: UnsafeMutableRawPointer { wl_shm_buffer_get_data(pointer) }  // closed-wrappers: allowed (ShmTexture's pixman image borrows the pool past any closure and re-reads this under the access guard)

    /// `wl_shm_buffer_begin_access`: until `endAccess`, a read past the end of a truncated
    /// pool finds zeros instead of raising SIGBUS, and `endAccess` then posts
    /// `wl_shm.error.invalid_fd` on the buffer. One pool at a time.
    public func beginAccess() { wl_shm_buffer_begin_access(pointer) }
    public func endAccess() { wl_shm_buffer_end_access(pointer) }
}
