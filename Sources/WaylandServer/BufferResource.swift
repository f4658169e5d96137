import CWaylandServer

/// A `wl_buffer` Lodestone implements itself (wl_shm's `WlShmBuffer`, linux-dmabuf's
/// `DmabufBuffer`): its `wl_buffer.release` waits for every reader besides the surface that
/// shows it, and it knows when the client destroyed it.
///
/// The other reader is a parent compositor showing the buffer on a plane (issue 37): from
/// the attach of its own copy to its `wl_buffer.release` it `hold`s the client's buffer, so
/// the client hears `release` only when both Lodestone (a newer buffer replaced it) and the
/// parent have let go.
open class BufferResource: Resource {
    /// False once the client destroyed it (a reader may still hold this object).
    public private(set) var isAlive = true
    private var holds = 0
    /// The surface let go while a hold remained: `release` waits for the last one.
    private var releaseWaits = false

    /// Another reader starts using the buffer: the client's release waits for it too.
    public func hold() { holds += 1 }

    /// That reader is done: a release that waited for it goes out now.
    public func letGo() {
        guard holds > 0 else { return }
        holds -= 1
        if holds == 0, releaseWaits { release() }
    }

    /// `wl_buffer.release`, now or once the last hold lets go.
    public func release() {
        guard isAlive else { return }
        guard holds == 0 else {
            releaseWaits = true
            return
        }
        releaseWaits = false
        send { wl_buffer_send_release($0) }
    }

    /// Subclasses that override this call it.
    open override func destroyed() { isAlive = false }

    /// The Swift object behind a `wl_buffer` resource when it is one of these.
    static func from(_ resource: OpaquePointer) -> BufferResource? {
        guard wl_resource_instance_of(resource, WaylandInterface.wlBuffer, UnsafeRawPointer(WaylandInterface.wlBuffer)) != 0,
              let data = wl_resource_get_user_data(resource) else { return nil }
        return Unmanaged<Resource>.fromOpaque(data).takeUnretainedValue() as? BufferResource
    }
}
