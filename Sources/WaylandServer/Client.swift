import CWaylandServer

/// A connected client: `struct wl_client *`.
public struct Client: Hashable {
    public let pointer: OpaquePointer

    public init(pointer: OpaquePointer) { self.pointer = pointer }

    public var pid: Int32 {
        var pid: pid_t = 0
        wl_client_get_credentials(pointer, &pid, nil, nil)
        return pid
    }

    public func flush() { wl_client_flush(pointer) }
    /// Disconnects the client now; its resources are destroyed.
    public func destroy() { wl_client_destroy(pointer) }
    public func postNoMemory() { wl_client_post_no_memory(pointer) }

    /// Calls `handler` once when the client goes away. Keep the listener alive
    /// for as long as the call is wanted; dropping it detaches it.
    public func onDestroy(_ handler: @escaping () -> Void) -> Listener {
        let listener = Listener { _ in handler() }
        cws_client_add_destroy_listener(pointer, listener.raw)
        return listener
    }
}
