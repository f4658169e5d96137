import CWaylandServer
import WaylandServer

/// `wl_seat`: hands out the pointer and keyboard, and touch while there is a touchscreen
/// (the capabilities are sent again when one comes or goes).
final class WlSeat: Resource, WlSeatHandler {
    static let version: Int32 = 8
    unowned let seat: Seat

    init?(seat: Seat, client: Client, version: UInt32, id: UInt32) {
        self.seat = seat
        super.init(client: client, version: version, id: id)
        seat.seatResources.append(self)
        sendCapabilities()
        // Since 2
        if has(2) { send { wl_seat_send_name($0, "seat0") } }
    }

    override func destroyed() { seat.seatResources.removeAll { $0 === self } }

    func sendCapabilities() {
        var capabilities = WL_SEAT_CAPABILITY_POINTER.rawValue | WL_SEAT_CAPABILITY_KEYBOARD.rawValue
        if seat.touchscreen != nil { capabilities |= WL_SEAT_CAPABILITY_TOUCH.rawValue }
        send { wl_seat_send_capabilities($0, capabilities) }
    }

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        case .getPointer:
            if let p = WlPointer(seat: seat, client: client, version: version, id: a.newID(0)) { seat.pointerBound(p) }
        case .getKeyboard:
            if let k = WlKeyboard(seat: seat, client: client, version: version, id: a.newID(0)) { seat.keyboard.bound(k) }
        case .getTouch:
            // Without a touchscreen the object exists but never sends anything.
            _ = WlTouch(touchscreen: seat.touchscreen, client: client, version: version, id: a.newID(0))
        case .release: destroy()
        }
    }
}
