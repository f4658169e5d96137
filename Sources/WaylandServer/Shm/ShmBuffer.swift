import CWaylandServer

/// A client's `wl_shm` buffer (`WlShmBuffer`, in a pool of Lodestone's own wl_shm), read under
/// the SIGBUS guard so a truncated pool cannot take the compositor down. Holding one keeps
/// the pool mapped.
public struct ShmBuffer {
    private let buffer: WlShmBuffer

    /// The shm buffer behind `buffer`, or nil if it is not one.
    public init?(_ buffer: WlBuffer) {
        guard let shm = buffer.object(WlShmBuffer.self) else { return nil }
        self.buffer = shm
    }

    public var width: Int32 { buffer.width }
    public var height: Int32 { buffer.height }
    public var stride: Int32 { buffer.stride }
    /// A `wl_shm.format` value.
    public var format: UInt32 { buffer.format }

    /// Runs `body` with the pixels mapped and guarded.
    public func withPixels<R>(_ body: (UnsafeMutableRawPointer) throws -> R) rethrows -> R {
        beginAccess()
        defer { endAccess() }
        return try body(data)
    }

    /// Where the pixels are mapped now. Read them only between `beginAccess` and `endAccess`,
    /// and ask again after the client's next request: its `wl_shm_pool.resize` may move the
    /// mapping.
    package var data: UnsafeMutableRawPointer { buffer.pool.data + buffer.offset }  // closed-wrappers: allowed (ShmTexture's pixman image borrows the pool past any closure and re-reads this under the access guard)

    /// Until `endAccess`, a read past the end of a truncated pool finds zeros instead of
    /// raising SIGBUS, and `endAccess` then posts `wl_shm.error.invalid_fd` on the buffer.
    public func beginAccess() { buffer.pool.beginAccess() }
    public func endAccess() {
        // The buffer may be gone (its pool still mapped, held here): then nobody is told.
        if buffer.pool.endAccess(), buffer.isAlive {
            buffer.postError(WL_SHM_ERROR_INVALID_FD.rawValue, "error accessing SHM buffer")
        }
    }

    // MARK: Sharing the buffer with a parent compositor

    /// The pool, its file and where the buffer lies in it, for a parent compositor to show the
    /// client's pixels itself (`ShmPool.shareableFile`): nil when the pool cannot be shared.
    public var share: ShmShare? {
        let end = buffer.offset + Int(buffer.stride) * Int(buffer.height)
        guard let file = buffer.pool.shareableFile(covering: end) else { return nil }
        return ShmShare(pool: buffer.pool, file: file, offset: Int32(buffer.offset), width: buffer.width, height: buffer.height,
                        stride: buffer.stride, format: buffer.format)
    }

    /// The client's buffer itself: its release can wait for another reader (`hold`), and it
    /// says when the client destroyed it.
    public var resource: BufferResource { buffer }
    /// False once the client destroyed the buffer.
    public var isAlive: Bool { buffer.isAlive }
}

/// What a parent compositor needs to map a client's shm buffer: the pool's file (Lodestone's;
/// dup it to send it), its size and identity, and the buffer's place and layout in it.
public struct ShmShare {
    public let pool: ShmPool
    public let file: Int32
    public let offset: Int32, width: Int32, height: Int32, stride: Int32
    public let format: UInt32
    /// The pool's size now: a parent's copy grows with it (`wl_shm_pool.resize`).
    public var poolSize: Int { pool.size }
}
