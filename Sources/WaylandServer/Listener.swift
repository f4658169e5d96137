import CWaylandServer

/// A `wl_listener` calling a Swift closure.
///
/// The C listener is heap-allocated (its address sits in a signal list) and is
/// unlinked before it is freed, whichever side goes first.
public final class Listener {
    let raw: UnsafeMutablePointer<cws_listener>
    private let handler: (UnsafeMutableRawPointer?) -> Void

    /// Nil when the C listener cannot be allocated (out of memory).
    public init?(_ handler: @escaping (UnsafeMutableRawPointer?) -> Void) {
        self.handler = handler
        guard let raw = cws_listener_create(nil, { owner, data in
            guard let owner else { return }
            Unmanaged<Listener>.fromOpaque(owner).takeUnretainedValue().handler(data)
        }) else { return nil }
        self.raw = raw
        raw.pointee.owner = Unmanaged.passUnretained(self).toOpaque()
    }

    deinit { cws_listener_destroy(raw) }

    /// The embedded `wl_listener`, for libwayland's add-listener calls.
    var listener: UnsafeMutablePointer<wl_listener> {
        UnsafeMutableRawPointer(raw).assumingMemoryBound(to: wl_listener.self)
    }

    /// Listens to `signal`, leaving any signal it listened to before.
    package func attach(to signal: UnsafeMutablePointer<wl_signal>) { cws_listener_add(raw, signal) }

    /// Listens for the destruction of a resource (`WlBuffer.onDestroy`; the server helper's
    /// surfaces, which a C compositor owns).
    package func attach(toDestroyOf resource: OpaquePointer) {
        detach()
        wl_resource_add_destroy_listener(resource, listener)
    }

    /// Stops listening; safe to call when not attached.
    public func detach() {
        wl_list_remove(&listener.pointee.link)
        wl_list_init(&listener.pointee.link)
    }
}
