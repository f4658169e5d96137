import CWaylandServer
import Glibc

/// A client's buffer: `struct wl_resource *` of interface `wl_buffer`.
///
/// Several implementations stand behind a wl_buffer (wl_shm's `WlShmBuffer`, linux-dmabuf's,
/// single-pixel buffers), so this is not a `Resource`; it names the resource so a buffer cannot be taken
/// for a surface or a region, and it is the one way Lodestone releases a buffer or posts an
/// error on it.
public struct WlBuffer: Hashable {
    let resource: OpaquePointer

    /// The buffer `resource` is, or nil when it is null or of another interface.
    /// (libwayland has already checked a request's `wl_buffer` argument; this
    /// keeps any other resource from being wrapped by mistake.)
    init?(_ resource: OpaquePointer?) {
        guard let resource, strcmp(wl_resource_get_class(resource), "wl_buffer") == 0 else { return nil }
        self.resource = resource
    }

    /// The buffer's pixels if it is a `wl_shm` buffer.
    public var shm: ShmBuffer? { ShmBuffer(self) }

    /// The buffer's Swift object when it is a `T` (a single-pixel buffer).
    public func object<T: ProtocolObject>(_ type: T.Type) -> T? { T.from(resource) }

    /// The buffer as Lodestone's own implementation of it (wl_shm's, linux-dmabuf's), whose
    /// release can wait for another reader; nil for another (a single-pixel buffer).
    public var held: BufferResource? { BufferResource.from(resource) }

    /// `wl_buffer.release`: the compositor no longer reads the buffer (one another reader
    /// still holds is released when that one lets go too: `BufferResource.hold`).
    public func release() {
        if let held { return held.release() }
        wl_buffer_send_release(resource)
    }

    /// Posts a protocol error on the buffer (a `wl_shm` error code); logged as
    /// every protocol error is, see `Resource.postError(on:_:_:)`.
    public func postError(_ code: UInt32, _ message: String) {
        Resource.postError(on: resource, code, message)
    }

    /// Calls `listener` when the client destroys the buffer.
    public func onDestroy(_ listener: Listener) { listener.attach(toDestroyOf: resource) }
}
