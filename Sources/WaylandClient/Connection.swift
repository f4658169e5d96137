import CWaylandClient
import Glibc
import LodestoneSystem

/// A client connection: `struct wl_display *` on the client side.
public final class Connection {
    /// The `wl_display *`; requests on it go through `withDisplay { }`.
    let pointer: OpaquePointer

    /// Connects to `name` (or $WAYLAND_DISPLAY when nil).
    public init(name: String? = nil) throws(SystemError) {
        let shown = name ?? getenv("WAYLAND_DISPLAY").map { String(cString: $0) } ?? "wayland-0"
        pointer = try call("wl_display_connect", what: "cannot connect to Wayland display '\(shown)'") { wl_display_connect(name) }
    }

    /// Adopts a socket already connected to a compositor (one end of a socketpair,
    /// the other given to `Display.createClient(fd:)`); the connection owns the fd.
    public init(fd: Int32) throws(SystemError) {
        pointer = try call("wl_display_connect_to_fd", what: "cannot adopt fd \(fd) as a Wayland connection") { wl_display_connect_to_fd(fd) }
    }

    deinit { wl_display_disconnect(pointer) }

    /// A compositor on this same thread (in-process tests): when set, `roundtrip` runs one
    /// turn of it between sending and reading instead of blocking, which would wait forever.
    public var serve: (() -> Void)?

    /// Sends everything queued and waits until the server has answered it all.
    public func roundtrip() throws(SystemError) {
        guard let serve else {
            if wl_display_roundtrip(pointer) < 0 { throw failure() }
            return
        }
        // wl_display_roundtrip's sync/done handshake, with the server run in between.
        var done = false
        let callback = Proxy(wl_display_sync(pointer), on: self)
        callback.onEvent = { _, _ in done = true }
        var turns = 0
        while !done {
            try flushChecked()
            serve()
            try readAndDispatch()
            turns += 1
            // A live in-process server answers in a turn or two; many more means it never will.
            guard turns < 1000 || done else { throw SystemError("the in-process server did not answer a roundtrip") }
        }
    }

    /// Blocks until at least one event is dispatched.
    public func dispatch() throws(SystemError) {
        if wl_display_dispatch(pointer) < 0 { throw failure() }
    }

    public func flush() { wl_display_flush(pointer) }
    public var fileDescriptor: Int32 { wl_display_get_fd(pointer) }

    /// `wl_display_get_error`: the errno that ended the connection (EPROTO for a protocol
    /// error), 0 while it is alive.
    public var lastError: Int32 { wl_display_get_error(pointer) }

    /// The protocol error that ended the connection, if any: (interface, object id, code).
    public var protocolError: (interface: String, id: UInt32, code: UInt32)? {
        var interface: UnsafePointer<wl_interface>?
        var id: UInt32 = 0
        let code = wl_display_get_protocol_error(pointer, &interface, &id)
        guard let interface else { return nil }
        return (String(cString: interface.pointee.name), id, code)
    }

    private func failure() -> SystemError {
        if let e = protocolError { return SystemError("protocol error \(e.code) on \(e.interface)@\(e.id)") }
        return SystemError("connection lost", errno: wl_display_get_error(pointer))
    }

    public func registry() -> Registry { Registry(connection: self) }

    /// Why the request `what` returned no object: errno from libwayland's
    /// allocation, or the connection's error when it has one.
    func creationFailure(_ what: String) -> SystemError {
        let saved = lastErrno
        if protocolError != nil || wl_display_get_error(pointer) != 0 {
            return SystemError("\(what) returned no object", reason: failure().description)
        }
        if saved != 0 { return SystemError("\(what) returned no object", errno: saved) }
        return SystemError("\(what) returned no object", reason: "libwayland returned NULL")
    }
}

/// A client-side protocol object (`struct wl_proxy *`) whose events reach a closure.
open class Proxy {
    /// The `wl_proxy *`; requests reach it inside `request { }`. (Package-level, not public:
    /// the package's tests and demo clients still pass it to libwayland directly.)
    let pointer: OpaquePointer
    /// Kept alive so the display outlives every proxy made on it.
    public let connection: Connection
    private var alive = true
    /// Receives (opcode, arguments) for each event.
    public var onEvent: ((UInt32, EventArguments) -> Void)?

    /// Adopts a proxy a request on `connection` just created.
    ///
    /// Prefer `init(creating:on:what:)`, which turns a constructor request
    /// that returned no object into a thrown error instead of a crash.
    public init(_ pointer: OpaquePointer, on connection: Connection) {
        self.pointer = pointer
        self.connection = connection
        wl_proxy_add_dispatcher(pointer, { _, target, opcode, _, args in
            guard let data = wl_proxy_get_user_data(OpaquePointer(target)) else { return 0 }
            let proxy = Unmanaged<Proxy>.fromOpaque(data).takeUnretainedValue()
            proxy.onEvent?(opcode, EventArguments(base: args!))
            return 0
        }, nil, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit { if alive { wl_proxy_destroy(pointer) } }

    /// For destructor requests: `send` marshals the request that destroys the proxy.
    public func destroy(_ send: (OpaquePointer) -> Void) {
        guard alive else { return }
        alive = false
        send(pointer)
    }

    /// Sends one request: `body` calls the generated request function (`wl_surface_commit`)
    /// with the `wl_proxy *`, reachable only there; a constructor request returns its new proxy.
    public func request<R>(_ body: (OpaquePointer) throws -> R) rethrows -> R { try body(pointer) }

    /// A request that names another object (`wl_surface.attach`'s buffer).
    public func request<R>(_ object: Proxy, _ body: (OpaquePointer, OpaquePointer) throws -> R) rethrows -> R {
        try body(pointer, object.pointer)
    }

    /// A request that names two other objects (`wl_subcompositor.get_subsurface`).
    public func request<R>(_ first: Proxy, _ second: Proxy, _ body: (OpaquePointer, OpaquePointer, OpaquePointer) throws -> R) rethrows -> R {
        try body(pointer, first.pointer, second.pointer)
    }

    /// Whether an event's object argument is this proxy.
    public func isObject(_ object: OpaquePointer?) -> Bool { object == pointer }

    public var id: UInt32 { wl_proxy_get_id(pointer) }
    public var version: UInt32 { wl_proxy_get_version(pointer) }
}

extension Proxy {
    /// Runs `request`, a constructor request such as `wl_seat_get_pointer`,
    /// and adopts the object it returns.
    ///
    /// The one place where a constructor that returned NULL becomes a Swift
    /// error; `what` names the request in it ("wl_seat.get_pointer").
    /// libwayland returns NULL when it cannot make the proxy (no memory, no
    /// free object id); on a connection that already failed it still returns
    /// one, and the failure shows on the next read.
    public convenience init(creating request: () -> OpaquePointer?, on connection: Connection, what: String) throws(SystemError) {
        guard let pointer = request() else { throw connection.creationFailure(what) }
        self.init(pointer, on: connection)
    }
}

/// The arguments of one event: `union wl_argument[]`.
public struct EventArguments {
    let base: UnsafeMutablePointer<wl_argument>
    public func int(_ i: Int) -> Int32 { base[i].i }
    public func uint(_ i: Int) -> UInt32 { base[i].u }
    public func fixed(_ i: Int) -> Double { wl_fixed_to_double(base[i].f) }
    public func string(_ i: Int) -> String { base[i].s.map { String(cString: $0) } ?? "" }
    /// An object argument's `wl_proxy *` (package-level, for the event enums and tests).
    package func object(_ i: Int) -> OpaquePointer? { base[i].o }  // closed-wrappers: allowed (not yet closed, issue 35: the nested backend and the demo adopt event-made objects from it)
    public func fd(_ i: Int) -> Int32 { base[i].h }
    public func array(_ i: Int) -> [UInt32] {
        guard let a = base[i].a, a.pointee.size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: a.pointee.data.assumingMemoryBound(to: UInt32.self), count: a.pointee.size / 4))
    }
    /// An array argument's bytes, whatever its elements (linux-dmabuf's 16-bit indices and
    /// 64-bit `dev_t`s).
    public func arrayBytes(_ i: Int) -> [UInt8] {
        guard let a = base[i].a, a.pointee.size > 0, let data = a.pointee.data else { return [] }
        return Array(UnsafeRawBufferPointer(start: data, count: a.pointee.size))
    }
}

/// `wl_registry`: the globals the server offers.
public final class Registry: Proxy {
    public private(set) var globals: [(name: UInt32, interface: String, version: UInt32)] = []

    init(connection: Connection) {
        super.init(wl_display_get_registry(connection.pointer), on: connection)
        handleEvents(RegistryEvent.self) { [unowned self] event in
            switch event {
            case .global(let name, let interface, let version): self.globals.append((name, interface, version))
            case .globalRemove(let name): self.globals.removeAll { $0.name == name }
            }
        }
        try? connection.roundtrip()
    }

    /// Binds the first global of `interface` at min(version, offered); nil if absent.
    package func bind(_ interface: UnsafePointer<wl_interface>, version: UInt32) -> OpaquePointer? {  // closed-wrappers: allowed (not yet closed, issue 35: 30 callers, the raw test clients among them)
        let name = String(cString: interface.pointee.name)
        guard let g = globals.first(where: { $0.interface == name }) else { return nil }
        return OpaquePointer(wl_registry_bind(pointer, g.name, interface, min(version, g.version)))
    }

    public func has(_ interface: String) -> Bool { globals.contains { $0.interface == interface } }
}
