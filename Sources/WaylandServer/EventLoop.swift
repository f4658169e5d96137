import CWaylandServer

/// The display's `wl_event_loop`: the compositor's only thread of control.
public struct EventLoop {
    public let pointer: OpaquePointer

    /// A timer armed with `EventSource.arm(milliseconds:)`.
    public func addTimer(_ handler: @escaping () -> Void) -> EventSource {
        EventSource(handler: { _ in handler() }) { data in
            wl_event_loop_add_timer(pointer, { data in EventSource.fire(data, 0) }, data)
        }
    }

    /// Calls `handler` with the readiness mask when `fd` is readable (or as `mask` says).
    public func addFileDescriptor(_ fd: Int32, mask: UInt32 = UInt32(WL_EVENT_READABLE), _ handler: @escaping (UInt32) -> Void) -> EventSource {
        EventSource(handler: handler) { data in
            wl_event_loop_add_fd(pointer, fd, mask, { _, mask, data in EventSource.fire(data, mask) }, data)
        }
    }

    /// Delivers a POSIX signal through the loop (libwayland blocks it and reads a signalfd).
    public func addSignal(_ number: Int32, _ handler: @escaping () -> Void) -> EventSource {
        EventSource(handler: { _ in handler() }) { data in
            wl_event_loop_add_signal(pointer, number, { _, data in EventSource.fire(data, 0) }, data)
        }
    }

    /// Runs `handler` once the loop is idle.
    public func addIdle(_ handler: @escaping () -> Void) -> EventSource {
        EventSource(handler: { _ in handler() }) { data in
            wl_event_loop_add_idle(pointer, { data in _ = EventSource.fire(data, 0) }, data)
        }
    }

    /// Waits up to `timeout` ms (-1: forever) and dispatches what is ready.
    public func dispatch(timeout: Int32) { wl_event_loop_dispatch(pointer, timeout) }
    public var fileDescriptor: Int32 { wl_event_loop_get_fd(pointer) }
}

/// A `wl_event_source`; removed from the loop when released.
public final class EventSource {
    private var source: OpaquePointer?
    private let handler: (UInt32) -> Void

    fileprivate init(handler: @escaping (UInt32) -> Void, add: (UnsafeMutableRawPointer) -> OpaquePointer?) {
        self.handler = handler
        source = add(Unmanaged.passUnretained(self).toOpaque())
        precondition(source != nil, "wl_event_loop could not add a source")
    }

    deinit { remove() }

    fileprivate static func fire(_ data: UnsafeMutableRawPointer?, _ mask: UInt32) -> Int32 {
        guard let data else { return 0 }
        Unmanaged<EventSource>.fromOpaque(data).takeUnretainedValue().handler(mask)
        return 0
    }

    /// Arms a timer source to fire once after `milliseconds` (0 disarms).
    public func arm(milliseconds: Int32) {
        if let source { wl_event_source_timer_update(source, milliseconds) }
    }

    public func remove() {
        if let source { wl_event_source_remove(source) }
        source = nil
    }
}
