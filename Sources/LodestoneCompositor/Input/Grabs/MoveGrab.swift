/// `xdg_toplevel.move` (or X11's `_NET_WM_MOVERESIZE`): the window follows the hand until
/// the last button comes up. Clients hear nothing meanwhile.
final class MoveGrab: PointerGrab {
    let window: DesktopWindow
    /// The hand's offset from the window's top-left when the move began.
    private let dx: Double, dy: Double

    init(window: DesktopWindow, device: (x: Double, y: Double)) {
        self.window = window
        // A window being moved is no longer held by an earlier resize's edge.
        (window as? XdgToplevel)?.resizeAnchor = nil
        let p = window.position
        dx = device.x - Double(p.x)
        dy = device.y - Double(p.y)
    }

    var routesToClients: Bool { false }

    func motion(_ seat: Seat, device: (x: Double, y: Double), time: UInt32) {
        seat.compositor.desktop.move(window, to: Int32(clamping: Int((device.x - dx).rounded())), Int32(clamping: Int((device.y - dy).rounded())))
    }

    func pressStarted(_ seat: Seat) {}
    func button(_ seat: Seat, _ button: UInt32, pressed: Bool, time: UInt32) {}
    func released(_ seat: Seat) { seat.endGrab() }
    func axis(_ seat: Seat, _ axis: PointerAxis, time: UInt32) {}
    func surfaceDestroyed(_ surface: WlSurface) -> Bool { window.surface === surface }
}
