import CXCB

/// One X event (`xcb_generic_event_t`), copied out of the buffer xcb allocated (which
/// `XConnection.nextEvent` frees): the window manager reads it as the event struct its
/// code names, and never holds xcb's pointer.
struct XEvent {
    /// The 32 bytes every core and extension event has.
    private var bytes: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    init(copying event: UnsafeRawPointer) {
        withUnsafeMutableBytes(of: &bytes) { $0.copyMemory(from: UnsafeRawBufferPointer(start: event, count: 32)) }
    }

    /// The event code, without SendEvent's bit (0: an X error).
    var code: UInt8 { load(as: UInt8.self) & 0x7f }
    /// Whether a client sent it (SendEvent sets the top bit of the code).
    var sent: Bool { load(as: UInt8.self) & 0x80 != 0 }

    /// The event as `T`, the struct of its code (`xcb_map_request_event_t`).
    func load<T>(as type: T.Type, fromByteOffset offset: Int = 0) -> T {
        precondition(offset + MemoryLayout<T>.size <= 32)  // the window manager's own types, never a client's number
        return withUnsafeBytes(of: bytes) { $0.loadUnaligned(fromByteOffset: offset, as: T.self) }
    }

    /// The event as `--log-level trace` shows it: its code, whether a client sent it, the
    /// window it is about and what it says, with atoms named from `atomNames`.
    func description(naming atomNames: [XAtom: String]) -> String {
        let sent = self.sent ? " sent" : ""
        let atom = { (a: XAtom) in atomNames[a] ?? "atom \(a)" }
        switch Int32(code) {
        case 0: return "X error \(load(as: UInt8.self, fromByteOffset: 1)) for request \(load(as: UInt8.self, fromByteOffset: 10))"
        case XCB_CREATE_NOTIFY: return "CreateNotify\(sent) \(load(as: xcb_create_notify_event_t.self).window)"
        case XCB_DESTROY_NOTIFY: return "DestroyNotify\(sent) \(load(as: xcb_destroy_notify_event_t.self).window)"
        case XCB_MAP_REQUEST: return "MapRequest\(sent) \(load(as: xcb_map_request_event_t.self).window)"
        case XCB_MAP_NOTIFY: return "MapNotify\(sent) \(load(as: xcb_map_notify_event_t.self).window)"
        case XCB_UNMAP_NOTIFY: return "UnmapNotify\(sent) \(load(as: xcb_unmap_notify_event_t.self).window)"
        case XCB_CONFIGURE_REQUEST:
            let e = load(as: xcb_configure_request_event_t.self)
            return "ConfigureRequest\(sent) \(e.window) mask \(e.value_mask) \(e.x) \(e.y) \(e.width)x\(e.height)"
        case XCB_CONFIGURE_NOTIFY:
            let e = load(as: xcb_configure_notify_event_t.self)
            return "ConfigureNotify\(sent) \(e.window) \(e.x) \(e.y) \(e.width)x\(e.height)"
        case XCB_PROPERTY_NOTIFY:
            let e = load(as: xcb_property_notify_event_t.self)
            return "PropertyNotify\(sent) \(e.window) \(atom(e.atom)) state \(e.state)"
        case XCB_CLIENT_MESSAGE:
            let e = load(as: xcb_client_message_event_t.self), d = e.data.data32
            return "ClientMessage\(sent) \(e.window) \(atom(e.type)) [\(d.0) \(d.1) \(d.2) \(d.3) \(d.4)]"
        default: return "event \(code)\(sent)"
        }
    }
}
