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
        wl_shm_buffer_begin_access(pointer)
        defer { wl_shm_buffer_end_access(pointer) }
        return try body(wl_shm_buffer_get_data(pointer))
    }
}
