import CWaylandServer
import LodestoneSystem

/// The display's `wl_event_loop`: the compositor's only thread of control.
///
/// Adding a source throws when libwayland cannot make it (out of file
/// descriptors or memory: timerfd, signalfd and epoll can all fail).
public struct EventLoop {
    /// The `wl_event_loop *`.
    let pointer: OpaquePointer
    /// What destroys the loop (the `Display`), held by each live source: not by the loop
    /// value itself, which objects may keep as long as they like.
    private weak var owner: AnyObject?

    /// A loop that somebody else created and destroys (a host compositor's, for liblodestone-pointer).
    package init(borrowing pointer: OpaquePointer) { self.pointer = pointer }
    init(pointer: OpaquePointer, owner: AnyObject) {
        self.pointer = pointer
        self.owner = owner
    }

    /// A timer armed with `EventSource.arm(milliseconds:)`.
    public func addTimer(_ handler: @escaping () -> Void) throws(SystemError) -> EventSource {
        try EventSource("wl_event_loop_add_timer", owner: owner, handler: { _ in handler() }) { data in
            wl_event_loop_add_timer(pointer, { data in EventSource.fire(data, 0) }, data)
        }
    }

    /// Calls `handler` with the readiness mask when `fd` is readable (or as `mask` says).
    public func addFileDescriptor(_ fd: Int32, mask: UInt32 = UInt32(WL_EVENT_READABLE), _ handler: @escaping (UInt32) -> Void) throws(SystemError) -> EventSource {
        try EventSource("wl_event_loop_add_fd", owner: owner, handler: handler) { data in
            wl_event_loop_add_fd(pointer, fd, mask, { _, mask, data in EventSource.fire(data, mask) }, data)
        }
    }

    /// Delivers a POSIX signal through the loop (libwayland blocks it and reads a signalfd).
    public func addSignal(_ number: Int32, _ handler: @escaping () -> Void) throws(SystemError) -> EventSource {
        try EventSource("wl_event_loop_add_signal", owner: owner, handler: { _ in handler() }) { data in
            wl_event_loop_add_signal(pointer, number, { _, data in EventSource.fire(data, 0) }, data)
        }
    }

    /// Runs `handler` once the loop is idle.
    public func addIdle(_ handler: @escaping () -> Void) throws(SystemError) -> EventSource {
        try EventSource("wl_event_loop_add_idle", owner: owner, handler: { _ in handler() }) { data in
            wl_event_loop_add_idle(pointer, { data in _ = EventSource.fire(data, 0) }, data)
        }
    }

    /// Waits up to `timeout` ms (-1: forever) and dispatches what is ready.
    public func dispatch(timeout: Int32) { wl_event_loop_dispatch(pointer, timeout) }
    public var fileDescriptor: Int32 { wl_event_loop_get_fd(pointer) }
}

/// A `wl_event_source`; removed from the loop when released. While in the loop it holds the
/// loop's owner (the `Display`), so the loop outlives it whatever order owners let go in (a
/// release build at exit: the compositor's last owner freed the display before the frames'
/// timer was removed, and the removal wrote into the freed loop).
public final class EventSource {
    private var source: OpaquePointer?
    private let handler: (UInt32) -> Void
    private var owner: AnyObject?

    /// `add` is the `wl_event_loop_add_*` call named `name`.
    fileprivate init(_ name: String, owner: AnyObject?, handler: @escaping (UInt32) -> Void, add: (UnsafeMutableRawPointer) -> OpaquePointer?) throws(SystemError) {
        self.handler = handler
        self.owner = owner
        let data = Unmanaged.passUnretained(self).toOpaque()
        source = try call(name) { add(data) }
    }

    deinit { remove() }

    fileprivate static func fire(_ data: UnsafeMutableRawPointer?, _ mask: UInt32) -> Int32 {
        guard let data else { return 0 }
        // Held for the call: a handler that removes its own source (a connection that hung
        // up) may drop the last reference, and its closure must outlive its own run (seen on
        // a TTY when seatd went away: heap corruption in the release build).
        let source = Unmanaged<EventSource>.fromOpaque(data).takeUnretainedValue()
        withExtendedLifetime(source) { source.handler(mask) }
        return 0
    }

    /// Arms a timer source to fire once after `milliseconds` (0 disarms).
    public func arm(milliseconds: Int32) {
        if let source { wl_event_source_timer_update(source, milliseconds) }
    }

    /// Changes what a file descriptor source waits for (`WL_EVENT_READABLE`, `WL_EVENT_WRITABLE`).
    public func update(mask: UInt32) {
        if let source { wl_event_source_fd_update(source, mask) }
    }

    /// Has the loop call the handler again, with mask 0, after each of its dispatches
    /// (`wl_event_source_check`): for a connection whose library may read and queue events
    /// while another source waits for a reply, where the fd will not say so.
    public func check() {
        if let source { wl_event_source_check(source) }
    }

    public func remove() {
        if let source { wl_event_source_remove(source) }
        source = nil
        owner = nil
    }
}
