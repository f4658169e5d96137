import CWaylandServer
import WaylandServer

/// `zwp_pointer_gestures_v1` (version 3: swipe, pinch and hold): hands out a client's
/// gesture objects for one of its `wl_pointer`s. `Gestures` decides who hears what.
final class ZwpPointerGestures: Resource, ZwpPointerGesturesV1Handler {
    static let version: Int32 = 3
    unowned let gestures: Gestures

    init?(gestures: Gestures, client: Client, version: UInt32, id: UInt32) {
        self.gestures = gestures
        super.init(client: client, version: version, id: id)
    }

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        case .getSwipeGesture: add(.swipe, id: a.newID(0))
        case .getPinchGesture: add(.pinch, id: a.newID(0))
        case .release: destroy()
        case .getHoldGesture: add(.hold, id: a.newID(0))
        }
    }

    /// The wl_pointer argument only says which seat: Lodestone has one.
    private func add(_ kind: ZwpPointerGesture.Kind, id: UInt32) {
        if let g = ZwpPointerGesture(kind: kind, gestures: gestures, client: client, version: version, id: id) { gestures.objects.append(g) }
    }
}

/// `zwp_pointer_gesture_swipe_v1`, `_pinch_v1` and `_hold_v1`: their events differ only in
/// the update (hold has none), so one class serves the three.
final class ZwpPointerGesture: Resource {
    enum Kind { case swipe, pinch, hold }
    let kind: Kind
    unowned let gestures: Gestures

    init?(kind: Kind, gestures: Gestures, client: Client, version: UInt32, id: UInt32) {
        self.kind = kind
        self.gestures = gestures
        let interface = switch kind {
        case .swipe: WaylandInterface.zwpPointerGestureSwipeV1
        case .pinch: WaylandInterface.zwpPointerGesturePinchV1
        case .hold: WaylandInterface.zwpPointerGestureHoldV1
        }
        // Swipe and pinch objects are at most version 2, hold at 3.
        super.init(client: client, interface: interface, version: kind == .hold ? 3 : min(version, 2), id: id)
    }

    /// One class for three interfaces, so the raw opcode: each one's 0 is destroy.
    override func dispatch(opcode: UInt32, arguments: Arguments) {
        if opcode == 0 { destroy() }  // destroy
    }

    override func destroyed() { gestures.objects.removeAll { $0 === self } }

    // Events (the three interfaces share begin and end; their opcodes differ for hold)

    func begin(serial: UInt32, time: UInt32, surface: WlSurface, fingers: UInt32) {
        switch kind {
        case .swipe: send(surface) { zwp_pointer_gesture_swipe_v1_send_begin($0, serial, time, $1, fingers) }
        case .pinch: send(surface) { zwp_pointer_gesture_pinch_v1_send_begin($0, serial, time, $1, fingers) }
        case .hold: send(surface) { zwp_pointer_gesture_hold_v1_send_begin($0, serial, time, $1, fingers) }
        }
    }

    func swipeUpdate(time: UInt32, dx: Double, dy: Double) {
        send { zwp_pointer_gesture_swipe_v1_send_update($0, time, wl_fixed_from_double(dx), wl_fixed_from_double(dy)) }
    }

    func pinchUpdate(time: UInt32, dx: Double, dy: Double, scale: Double, rotation: Double) {
        send { zwp_pointer_gesture_pinch_v1_send_update($0, time, wl_fixed_from_double(dx), wl_fixed_from_double(dy),
                                                 wl_fixed_from_double(scale), wl_fixed_from_double(rotation)) }
    }

    func end(serial: UInt32, time: UInt32, cancelled: Bool) {
        switch kind {
        case .swipe: send { zwp_pointer_gesture_swipe_v1_send_end($0, serial, time, cancelled ? 1 : 0) }
        case .pinch: send { zwp_pointer_gesture_pinch_v1_send_end($0, serial, time, cancelled ? 1 : 0) }
        case .hold: send { zwp_pointer_gesture_hold_v1_send_end($0, serial, time, cancelled ? 1 : 0) }
        }
    }
}
