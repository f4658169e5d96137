import CWaylandClient
import CWaylandProtocols
import Glibc
import WaylandClient
import WaylandServer

/// One client of the in-process compositor: its connection, the common globals, and what
/// its `wl_pointer` and `wl_keyboard` received, in order (frames and axis details left out).
final class TestClient {
    enum ReceivedPointerEvent: Equatable {
        /// Surfaces are named by their object id (`Window.surface.id`).
        case enter(surface: UInt32, x: Double, y: Double)
        case leave(surface: UInt32)
        case motion(x: Double, y: Double)
        case button(UInt32, pressed: Bool)
        case axis(UInt32, value: Double)
    }

    enum KeyboardEvent: Equatable {
        case enter(surface: UInt32)
        case leave(surface: UInt32)
        case key(UInt32, pressed: Bool)
    }

    let connection: Connection
    let globals: Globals
    /// The compositor's side of this client.
    let server: WaylandServer.Client
    private(set) var keyboard: Proxy?
    private(set) var pointerEvents: [ReceivedPointerEvent] = []
    private(set) var keyboardEvents: [KeyboardEvent] = []
    /// `wl_keyboard.modifiers` (depressed, latched, locked), in order.
    private(set) var modifierEvents: [(depressed: UInt32, latched: UInt32, locked: UInt32)] = []
    /// `wl_keyboard.repeat_info` (keys per second, delay in ms), in order.
    private(set) var repeatInfo: [(rate: Int32, delay: Int32)] = []

    init(connection: Connection, server: WaylandServer.Client) throws {
        self.connection = connection
        self.server = server
        globals = try Globals(connection: connection)
        globals.onPointer = { [unowned self] opcode, a in
            switch opcode {
            case 0: self.pointerEvents.append(.enter(surface: Self.id(a.object(1)), x: a.fixed(2), y: a.fixed(3)))
            case 1: self.pointerEvents.append(.leave(surface: Self.id(a.object(1))))
            case 2: self.pointerEvents.append(.motion(x: a.fixed(1), y: a.fixed(2)))
            case 3: self.pointerEvents.append(.button(a.uint(2), pressed: a.uint(3) == 1))
            case 4: self.pointerEvents.append(.axis(a.uint(1), value: a.fixed(2)))
            default: break  // frame, axis source, stop, discrete, value120
            }
        }
        if let seat = globals.seat, let k = seat.request({ wl_seat_get_keyboard($0) }) {
            let keyboard = Proxy(k, on: connection)
            keyboard.onEvent = { [unowned self] opcode, a in
                switch opcode {
                case 0: close(a.fd(1))  // keymap: the fd is ours to close
                case 1: self.keyboardEvents.append(.enter(surface: Self.id(a.object(1))))
                case 2: self.keyboardEvents.append(.leave(surface: Self.id(a.object(1))))
                case 3: self.keyboardEvents.append(.key(a.uint(2), pressed: a.uint(3) == 1))
                case 4: self.modifierEvents.append((a.uint(1), a.uint(2), a.uint(3)))  // after the serial
                case 5: self.repeatInfo.append((a.int(0), a.int(1)))
                default: break
                }
            }
            self.keyboard = keyboard
        }
    }

    private static func id(_ proxy: OpaquePointer?) -> UInt32 { proxy.map { wl_proxy_get_id($0) } ?? 0 }

    func forgetEvents() {
        pointerEvents = []
        keyboardEvents = []
        modifierEvents = []
    }

    /// `pointerEvents` without a motion that only repeats the enter just before it:
    /// Lodestone follows each enter caused by motion with a motion to the same point
    /// (weston and wlroots send none), which is harmless and not what these tests check.
    var distinctPointerEvents: [ReceivedPointerEvent] {
        var result: [ReceivedPointerEvent] = []
        for event in pointerEvents {
            if case .motion(let x, let y) = event, case .enter(_, x, y)? = result.last { continue }
            result.append(event)
        }
        return result
    }

    /// Motion events only, as surface-local points.
    var motions: [(x: Double, y: Double)] {
        pointerEvents.compactMap { if case .motion(let x, let y) = $0 { (x, y) } else { nil } }
    }

    var buttons: [ReceivedPointerEvent] {
        pointerEvents.filter { if case .button = $0 { true } else { false } }
    }

    var keys: [KeyboardEvent] {
        keyboardEvents.filter { if case .key = $0 { true } else { false } }
    }

    /// The serial of the last button press this client got (for move, resize, popup grabs).
    var lastPressSerial: UInt32 { globals.lastButtonSerial }

    /// Binds a global the common set leaves out; nil when the compositor lacks it.
    func bind(_ interface: UnsafePointer<wl_interface>, version: UInt32) -> Proxy? {
        globals.registry.bind(interface, version: version).map { Proxy($0, on: connection) }
    }

    /// A `wl_region` of the given rectangles (the caller destroys it after use).
    func region(_ rects: [(x: Int32, y: Int32, width: Int32, height: Int32)]) -> OpaquePointer {
        let region = globals.compositor.request { wl_compositor_create_region($0) }!
        for r in rects { wl_region_add(region, r.x, r.y, r.width, r.height) }
        return region
    }
}
