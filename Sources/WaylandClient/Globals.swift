import CWaylandClient
import CWaylandProtocols
import LodestoneSystem

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
    /// Pointer events, decoded.
    public var onPointerEvent: ((WlPointerEvent) -> Void)?
    /// Pointer events as raw (opcode, arguments) of wl_pointer, unknown opcodes
    /// included; kept for existing callers, prefer `onPointerEvent`.
    public var onPointer: ((UInt32, EventArguments) -> Void)?
    /// The serial of the last button press, for xdg_toplevel.move/resize and popups.
    public private(set) var lastButtonSerial: UInt32 = 0
    /// The serial of the last wl_pointer.enter, for set_cursor and pointer warps.
    public private(set) var lastEnterSerial: UInt32 = 0

    public init(connection: Connection) throws {
        self.connection = connection
        let registry = connection.registry()
        self.registry = registry
        func bind(_ i: UnsafePointer<wl_interface>, _ v: UInt32) -> Proxy? {
            registry.bind(i, version: v).map { Proxy($0, on: connection) }
        }
        guard let compositor = bind(cwp_wl_compositor_interface(), 5), let shm = bind(cwp_wl_shm_interface(), 1),
              let wmBase = bind(cwp_xdg_wm_base_interface(), 5) else {
            throw SystemError("the compositor lacks wl_compositor, wl_shm or xdg_wm_base")
        }
        self.compositor = compositor
        self.shm = shm
        self.wmBase = wmBase
        subcompositor = bind(cwp_wl_subcompositor_interface(), 1)
        seat = bind(cwp_wl_seat_interface(), 8)
        wmBase.handleEvents(WmBaseEvent.self) { [unowned wmBase] event in
            switch event {
            case .ping(let serial): xdg_wm_base_pong(wmBase.pointer, serial)
            }
        }
        if let seat {
            let pointer = try Proxy(creating: { wl_seat_get_pointer(seat.pointer) }, on: connection, what: "wl_seat.get_pointer")
            // Not `handleEvents`: `onPointer` still sees every opcode.
            pointer.onEvent = { [unowned self] opcode, a in
                if let event = WlPointerEvent(opcode: opcode, arguments: a) {
                    if case .button(let serial, _, _, let state) = event, state == WL_POINTER_BUTTON_STATE_PRESSED.rawValue {
                        self.lastButtonSerial = serial
                    }
                    if case .enter(let serial, _, _, _) = event { self.lastEnterSerial = serial }
                    self.onPointerEvent?(event)
                }
                self.onPointer?(opcode, a)
            }
            self.pointer = pointer
        }
        try connection.roundtrip()
    }
}
