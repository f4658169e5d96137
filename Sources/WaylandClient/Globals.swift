import CWaylandClient
import CWaylandProtocols

/// The common globals a simple client binds, and the ping answer every
/// xdg_wm_base client owes.
public final class Globals {
    public let connection: Connection
    public let registry: Registry
    public let compositor: Proxy
    public let shm: Proxy
    public let wmBase: Proxy
    public let subcompositor: Proxy?
    public let seat: Proxy?
    public private(set) var pointer: Proxy?
    /// Pointer events: (opcode, arguments) of wl_pointer.
    public var onPointer: ((UInt32, EventArguments) -> Void)?
    /// The serial of the last button press, for xdg_toplevel.move/resize and popups.
    public private(set) var lastButtonSerial: UInt32 = 0

    public struct Missing: Error, CustomStringConvertible { public let description: String }

    public init(connection: Connection) throws {
        self.connection = connection
        let registry = connection.registry()
        self.registry = registry
        func bind(_ i: UnsafePointer<wl_interface>, _ v: UInt32) -> Proxy? {
            registry.bind(i, version: v).map { Proxy($0, on: connection) }
        }
        guard let compositor = bind(cwp_wl_compositor_interface(), 5), let shm = bind(cwp_wl_shm_interface(), 1),
              let wmBase = bind(cwp_xdg_wm_base_interface(), 5) else {
            throw Missing(description: "the compositor lacks wl_compositor, wl_shm or xdg_wm_base")
        }
        self.compositor = compositor
        self.shm = shm
        self.wmBase = wmBase
        subcompositor = bind(cwp_wl_subcompositor_interface(), 1)
        seat = bind(cwp_wl_seat_interface(), 8)
        wmBase.onEvent = { [unowned wmBase] opcode, a in
            if opcode == 0 { xdg_wm_base_pong(wmBase.pointer, a.uint(0)) }  // ping
        }
        if let seat, let p = wl_seat_get_pointer(seat.pointer) {
            let pointer = Proxy(p, on: connection)
            pointer.onEvent = { [unowned self] opcode, a in
                if opcode == 3, a.uint(3) == 1 { self.lastButtonSerial = a.uint(0) }  // button pressed
                self.onPointer?(opcode, a)
            }
            self.pointer = pointer
        }
        try connection.roundtrip()
    }
}
