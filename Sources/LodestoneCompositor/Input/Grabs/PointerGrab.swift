/// What the pointer does while a grab holds it: the seat forwards every pointer event to
/// its active grab (Smithay's `src/input/pointer/grab.rs`). The default grab routes to the
/// surface under the pointer; a popup grab keeps events within the popups' client; move
/// and resize grabs carry a window and tell clients nothing. One implementation per file.
protocol PointerGrab: AnyObject {
    /// Whether clients get pointer focus and events while it holds.
    var routesToClients: Bool { get }
    /// Whether the surface under the pointer may take pointer focus.
    func mayFocus(_ surface: WlSurface) -> Bool
    /// The pointer moved: `device` is where the hand is (before magnetism), the seat's
    /// x and y where clients see it.
    func motion(_ seat: Seat, device: (x: Double, y: Double), time: UInt32)
    /// The first button went down.
    func pressStarted(_ seat: Seat)
    func button(_ seat: Seat, _ button: UInt32, pressed: Bool, time: UInt32)
    /// The last button came up.
    func released(_ seat: Seat)
    func axis(_ seat: Seat, _ axis: PointerAxis, time: UInt32)
    /// A surface went away; true when that ends the grab.
    func surfaceDestroyed(_ surface: WlSurface) -> Bool
}

extension PointerGrab {
    var routesToClients: Bool { true }
    func mayFocus(_ surface: WlSurface) -> Bool { true }
    func motion(_ seat: Seat, device: (x: Double, y: Double), time: UInt32) { seat.deliverMotion(time: time) }
    func pressStarted(_ seat: Seat) { seat.focusAndActivate() }
    func button(_ seat: Seat, _ button: UInt32, pressed: Bool, time: UInt32) { seat.sendButton(button, pressed: pressed, time: time) }
    func released(_ seat: Seat) {}
    func axis(_ seat: Seat, _ axis: PointerAxis, time: UInt32) { seat.sendAxis(axis, time: time) }
    func surfaceDestroyed(_ surface: WlSurface) -> Bool { false }
}

/// No grab: events go to the surface under the pointer, which keeps them while a button
/// is held (the implicit grab), and a press raises and focuses its window.
final class DefaultPointerGrab: PointerGrab {}
