import CWaylandServer
import Glibc

/// A connected client: `struct wl_client *`.
public struct Client: Hashable {
    /// The `wl_client *`; reachable through the typed methods, or `withClientPointer`.
    let pointer: OpaquePointer

    /// For the `wl_client *` a C compositor hands liblodestone-pointer.
    package init(pointer: OpaquePointer) { self.pointer = pointer }

    /// Calls `body` with the `wl_client *` (the fuzzer's object walk, liblodestone-pointer).
    package func withClientPointer<R>(_ body: (OpaquePointer) throws -> R) rethrows -> R { try body(pointer) }

    /// The client's object `id` when it is a `T` that Lodestone implements (an id from an
    /// X11 property, a test's surface id); nil otherwise.
    public func object<T: ProtocolObject>(id: UInt32, as type: T.Type) -> T? {
        T.from(wl_client_get_object(pointer, id))
    }

    /// The interface of the client's object `id` ("wl_surface"), nil when it has none.
    public func interfaceName(ofObject id: UInt32) -> String? {
        wl_client_get_object(pointer, id).map { String(cString: wl_resource_get_class($0)) }
    }

    /// Whether `resource` belongs to this client.
    package func owns(_ resource: OpaquePointer) -> Bool { wl_resource_get_client(resource) == pointer }

    public var pid: Int32 {
        var pid: pid_t = 0
        wl_client_get_credentials(pointer, &pid, nil, nil)
        return pid
    }

    /// The client's program name (`/proc/PID/comm`), for log lines; "?" when unknown.
    public var command: String {
        let fd = open("/proc/\(pid)/comm", O_RDONLY)
        guard fd >= 0 else { return "?" }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 64)
        let n = read(fd, &bytes, bytes.count)
        guard n > 0 else { return "?" }
        return String(decoding: bytes[..<n], as: UTF8.self).trimmingSuffixNewline
    }

    public func flush() { wl_client_flush(pointer) }
    /// Disconnects the client now; its resources are destroyed.
    public func destroy() { wl_client_destroy(pointer) }
    public func postNoMemory() { wl_client_post_no_memory(pointer) }

    /// Disconnects the client for passing one of the compositor's limits: `wl_display`'s
    /// no_memory error, with a message naming the limit (logged like every protocol error).
    public func postLimitExceeded(_ message: String) {
        guard let display = wl_client_get_object(pointer, 1) else { return postNoMemory() }
        Resource.postError(on: display, WL_DISPLAY_ERROR_NO_MEMORY.rawValue, message)
    }

    /// Calls `handler` once when the client goes away. Keep the listener alive
    /// for as long as the call is wanted; dropping it detaches it. Nil when the
    /// listener cannot be allocated.
    public func onDestroy(_ handler: @escaping () -> Void) -> Listener? {
        guard let listener = Listener({ _ in handler() }) else { return nil }
        cws_client_add_destroy_listener(pointer, listener.raw)
        return listener
    }
}

private extension String {
    var trimmingSuffixNewline: String { hasSuffix("\n") ? String(dropLast()) : self }
}
