import CWaylandClient
import Glibc
import LodestoneSystem

/// Reading a connection from someone else's event loop (the nested backend
/// watches the parent's fd from Lodestone's `wl_event_loop`): libwayland's
/// prepare_read / read_events / dispatch_pending protocol, without blocking.
extension Connection {
    /// Reads whatever the socket holds and dispatches every queued event.
    /// Call it when the fd is readable; it never blocks. Throws when the
    /// connection is gone (server exited, protocol error).
    public func readAndDispatch() throws(SystemError) {
        // Events already queued (read during a roundtrip) must go first:
        // prepare_read refuses until the queue is empty.
        while wl_display_prepare_read(pointer) != 0 {
            if wl_display_dispatch_pending(pointer) < 0 { throw lostConnection() }
        }
        // Flush before reading so the server sees our requests; EAGAIN is
        // fine (the rest goes with the next flush).
        _ = wl_display_flush(pointer)
        if wl_display_read_events(pointer) < 0 { throw lostConnection() }
        if wl_display_dispatch_pending(pointer) < 0 { throw lostConnection() }
        try flushChecked()
    }

    /// Dispatches events already queued (after a roundtrip) without reading.
    public func dispatchPending() throws(SystemError) {
        if wl_display_dispatch_pending(pointer) < 0 { throw lostConnection() }
    }

    /// Sends queued requests; a full socket (EAGAIN) is not an error.
    public func flushChecked() throws(SystemError) {
        if wl_display_flush(pointer) < 0 && lastErrno != EAGAIN { throw lostConnection() }
    }

    /// Why the connection ended, in words.
    public func lostConnection() -> SystemError {
        if let e = protocolError { return SystemError("protocol error \(e.code) on \(e.interface)@\(e.id)") }
        let code = wl_display_get_error(pointer)
        return SystemError("connection lost", errno: code != 0 ? code : lastErrno)
    }
}
