import CWaylandServer
import Logging

/// A `wl_resource` whose requests a Swift object handles.
///
/// The resource owns its Swift object: it is retained as the resource's user
/// data and released in the resource's destroy callback, so the object lives
/// exactly as long as the client's protocol object. Requests arrive through one
/// dispatcher as (opcode, arguments), which libwayland has already checked
/// against the interface's signature.
open class Resource {
    /// The `wl_resource *`: reachable only inside `send` and through the typed methods
    /// here, so a surface's resource cannot be handed where a region's is wanted.
    let pointer: OpaquePointer
    public let client: Client
    public let version: UInt32
    /// The object id the client knows it by.
    public var objectID: UInt32 { wl_resource_get_id(pointer) }

    /// Creates the client's object `id` of the interface the `ProtocolObject` subclass names;
    /// nil (after posting no_memory) when libwayland cannot allocate it.
    public init?(client: Client, version: UInt32, id: UInt32) {
        guard let type = Self.self as? any ProtocolObject.Type else {
            preconditionFailure("\(Self.self) names no interface: it must be a ProtocolObject")  // a build-time mistake
        }
        guard let pointer = Resource.create(client: client, interface: type.interface, version: version, id: id) else { return nil }
        self.pointer = pointer
        self.client = client
        self.version = version
        attach(interface: type.interface)
    }

    /// Creates the client's object `id` of `interface` (an object whose interface depends on
    /// the request that made it); nil (after posting no_memory) when libwayland cannot allocate it.
    public init?(client: Client, interface: UnsafePointer<wl_interface>, version: UInt32, id: UInt32) {
        guard let pointer = Resource.create(client: client, interface: interface, version: version, id: id) else { return nil }
        self.pointer = pointer
        self.client = client
        self.version = version
        attach(interface: interface)
    }

    private static func create(client: Client, interface: UnsafePointer<wl_interface>, version: UInt32, id: UInt32) -> OpaquePointer? {
        guard let pointer = wl_resource_create(client.pointer, interface, Int32(version), id) else {
            client.postNoMemory()
            return nil
        }
        return pointer
    }

    /// Installs the dispatcher and hands the resource its Swift object (retained until the
    /// resource's destroy callback).
    private func attach(interface: UnsafePointer<wl_interface>) {
        // The interface address doubles as our implementation tag, so
        // `ProtocolObject.from` can tell our resources from libwayland's own.
        wl_resource_set_dispatcher(
            pointer,
            { _, target, opcode, _, args in
                guard let target, let args, let data = wl_resource_get_user_data(OpaquePointer(target)) else { return 0 }
                Unmanaged<Resource>.fromOpaque(data).takeUnretainedValue()
                    .dispatch(opcode: opcode, arguments: Arguments(base: args))
                return 0
            },
            UnsafeRawPointer(interface),
            Unmanaged.passRetained(self).toOpaque(),
            { resource in
                guard let data = wl_resource_get_user_data(resource) else { return }
                wl_resource_set_user_data(resource, nil)
                Unmanaged<Resource>.fromOpaque(data).takeRetainedValue().destroyed()
            })
    }

    /// Sends one event: `event` calls the generated `*_send_*` function with this
    /// resource's `wl_resource *`, which is reachable only there.
    public func send(_ event: (OpaquePointer) -> Void) { event(pointer) }

    /// Sends an event that names another object (`wl_pointer.enter`'s surface): `event`
    /// gets both `wl_resource *`s.
    public func send(_ object: Resource, _ event: (OpaquePointer, OpaquePointer) -> Void) { event(pointer, object.pointer) }

    /// Sends an event that names two other objects (`zwp_tablet_tool_v2.proximity_in`).
    public func send(_ first: Resource, _ second: Resource, _ event: (OpaquePointer, OpaquePointer, OpaquePointer) -> Void) {
        event(pointer, first.pointer, second.pointer)
    }

    /// Handles request `opcode`: a `RequestHandler` gets it decoded (`handle`); a subclass
    /// that needs the raw opcode (one shared with a C library's table) overrides this.
    open func dispatch(opcode: UInt32, arguments: Arguments) {
        (self as? any RequestHandler)?.decode(opcode: opcode, arguments: arguments)
    }

    /// The resource is being destroyed (by request, by the client leaving or by
    /// the compositor). Subclasses unlink themselves from compositor state here.
    open func destroyed() {}

    /// Destroys the resource, as a destructor request does.
    public func destroy() { wl_resource_destroy(pointer) }

    /// Posts a protocol error; libwayland then disconnects the client.
    public func postError(_ code: UInt32, _ message: String) {
        Resource.postError(on: pointer, code, message)
    }

    /// Every protocol error Lodestone posts goes through here, on our resources and on
    /// libwayland's own (`WlBuffer.postError`). The `Display` logs it, with the errors
    /// libwayland posts itself, as the wl_display.error event goes out.
    static func postError(on resource: OpaquePointer, _ code: UInt32, _ message: String) {
        cws_resource_post_error(resource, code, message)
    }

    /// Whether the client bound a version that has an event introduced in `since`.
    public func has(_ since: UInt32) -> Bool { version >= since }

    /// Calls `body` with `elements` as a `struct wl_array`, an event's array argument.
    /// When libwayland cannot allocate the array, the client is sent no_memory
    /// instead and `body` is not called.
    public func withArray<Element: BitwiseCopyable>(_ elements: [Element], _ body: (UnsafeMutablePointer<wl_array>) -> Void) {
        var array = wl_array()
        wl_array_init(&array)
        defer { wl_array_release(&array) }
        let copied = elements.withUnsafeBytes { bytes -> Bool in
            guard let source = bytes.baseAddress, bytes.count > 0 else { return true }
            guard let slot = wl_array_add(&array, bytes.count) else { return false }
            slot.copyMemory(from: source, byteCount: bytes.count)
            return true
        }
        guard copied else { return client.postNoMemory() }
        body(&array)
    }
}

/// A `Resource` subclass that implements one Wayland interface.
///
/// A handler class does not write `interface` itself: it conforms to its interface's
/// generated protocol (`WlSurfaceHandler`, or `WlSurfaceInterface` for one that takes raw
/// opcodes; ProtocolInterfaces.swift, from the protocol XMLs by Scripts/generate-protocols),
/// which supplies it. It is checked by `from(_:)` as wlroots' `*_from_resource` asserts it
/// (CONTRIBUTING.md); a subclass creates its resource with `super.init(client:version:id:)`,
/// which reads it from here.
public protocol ProtocolObject: Resource {
    /// The `wl_interface` this class implements.
    static var interface: UnsafePointer<wl_interface> { get }
}

extension ProtocolObject {
    /// The Swift object behind a `wl_resource *` of `Self.interface`: nil when the
    /// pointer is null, of another interface, not implemented by Lodestone
    /// (libwayland's own, or another Resource class), or already inert. Lodestone's
    /// handlers reach it through `Arguments.object(_:as:)` and `Client.object(id:as:)`.
    package static func from(_ resource: OpaquePointer?) -> Self? {
        guard let resource, wl_resource_instance_of(resource, interface, UnsafeRawPointer(interface)) != 0,
              let data = wl_resource_get_user_data(resource) else { return nil }
        return Unmanaged<Resource>.fromOpaque(data).takeUnretainedValue() as? Self
    }
}

/// A `ProtocolObject` whose requests arrive decoded, the one dispatch skeleton for every
/// handler: `handle` gets the case of its `Request` enum (generated in opcode order, as
/// `WlSurfaceRequest`, and fixed by the interface's `…Handler` protocol), after libwayland
/// has checked the opcode and the arguments against the interface.
public protocol RequestHandler: ProtocolObject {
    associatedtype Request: RawRepresentable where Request.RawValue == UInt32
    func handle(_ request: Request, _ arguments: Arguments)
}

extension RequestHandler {
    /// Decodes `opcode`; an opcode the enum does not list (a request of a newer version
    /// than Lodestone knows, which libwayland would not let through) is ignored.
    func decode(opcode: UInt32, arguments: Arguments) {
        guard let request = Request(rawValue: opcode) else { return }
        handle(request, arguments)
    }
}

/// The arguments of one request: `union wl_argument[]`.
public struct Arguments {
    let base: UnsafeMutablePointer<wl_argument>

    public func int(_ i: Int) -> Int32 { base[i].i }
    public func uint(_ i: Int) -> UInt32 { base[i].u }
    public func fixed(_ i: Int) -> Double { wl_fixed_to_double(base[i].f) }
    public func string(_ i: Int) -> String? { base[i].s.map { String(cString: $0) } }
    /// An object argument, nil when the request allows null and got it.
    public func object(_ i: Int) -> ObjectArgument? { base[i].o.map(ObjectArgument.init) }
    /// An object argument's Swift object: nil when null, or not a `T` (see `ProtocolObject.from`).
    public func object<T: ProtocolObject>(_ i: Int, as type: T.Type) -> T? { T.from(base[i].o) }
    /// A `wl_buffer` argument, nil when null.
    public func buffer(_ i: Int) -> WlBuffer? { WlBuffer(base[i].o) }
    public func newID(_ i: Int) -> UInt32 { base[i].n }
    /// A file descriptor the handler now owns and must close.
    public func fd(_ i: Int) -> Int32 { base[i].h }
    /// Calls `body` with the bytes of an array argument (empty when it has none).
    public func withArrayBytes<R>(_ i: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        guard let array = base[i].a, array.pointee.size > 0, let data = array.pointee.data else {
            return try body(UnsafeRawBufferPointer(start: nil, count: 0))
        }
        return try body(UnsafeRawBufferPointer(start: data, count: array.pointee.size))
    }
}

/// An object argument of a request (`wl_resource *`), kept closed: what it is comes out
/// through the typed lookups, so it cannot be taken for another kind of object.
public struct ObjectArgument {
    private let resource: OpaquePointer

    package init(_ resource: OpaquePointer) { self.resource = resource }

    /// Runs `body` with the `wl_resource *`: for liblodestone-pointer, whose surfaces a C
    /// compositor owns, so no Swift object stands for them.
    package func withResource<R>(_ body: (OpaquePointer) throws -> R) rethrows -> R { try body(resource) }

    /// The Swift object, when it is a `T` (see `ProtocolObject.from`).
    public func object<T: ProtocolObject>(as type: T.Type) -> T? { T.from(resource) }
    /// The argument as a `wl_buffer`, nil when it is another kind of object.
    public var buffer: WlBuffer? { WlBuffer(resource) }
}
