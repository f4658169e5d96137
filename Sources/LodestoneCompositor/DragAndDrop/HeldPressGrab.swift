/// The press of an X app whose drag carried on outside Lodestone (`XDragSource.handOff`).
/// X ends a drag at the button's release, so the release that leaves Lodestone's seat when
/// the outside takes the pointer is kept from the app until the outside's drag drops or is
/// cancelled (`letGo`). Meanwhile the pointer stays the app's (its implicit grab), and no
/// client hears pointer events.
final class HeldPressGrab: PointerGrab {
    private unowned let seat: Seat
    /// The app's surface that got the press.
    private weak var surface: WlSurface?
    /// Releases kept from the app.
    private var released: [UInt32] = []

    private init(seat: Seat, surface: WlSurface) {
        self.seat = seat
        self.surface = surface
    }

    /// Holds the press on `surface` (the pointer's focus, with a button held and no other
    /// grab); nil otherwise.
    static func hold(_ surface: WlSurface, on seat: Seat) -> HeldPressGrab? {
        guard seat.grab === seat.defaultGrab, !seat.pressedButtons.isEmpty, seat.pointerFocus === surface else { return nil }
        let grab = HeldPressGrab(seat: seat, surface: surface)
        // Not `Seat.begin`, which takes the focus away: the app must keep its press.
        seat.grab = grab
        return grab
    }

    var routesToClients: Bool { false }
    func mayFocus(_ surface: WlSurface) -> Bool { false }
    func motion(device: (x: Double, y: Double), logical: (x: Double, y: Double), time: UInt32) -> GrabResponse { .taken }
    func pressStarted(focus: WlSurface?) -> GrabResponse { .taken }
    func axis(_ axis: PointerAxis, time: UInt32) -> GrabResponse { .taken }

    func button(_ button: UInt32, pressed: Bool, time: UInt32) -> GrabResponse {
        if !pressed { released.append(button) }
        return .taken
    }

    /// The app went away: nothing is held for it.
    func surfaceDestroyed(_ surface: WlSurface) -> Bool { surface === self.surface }

    /// The outside's drag dropped or was cancelled: the app hears the releases kept from it
    /// (and with them ends its drag), and the pointer is the clients' again.
    func letGo() {
        guard seat.grab === self else { return }
        if let surface, seat.pointerFocus === surface {
            let now = seat.clock.now
            for button in released { seat.sendButton(button, pressed: false, time: now) }
        }
        released = []
        seat.endGrab()
        if seat.pressedButtons.isEmpty { seat.updatePointerFocus() }
    }
}
