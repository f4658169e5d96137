/// `xdg_toplevel.move`: the window follows the hand until the last button comes up.
/// Clients hear nothing meanwhile.
final class MoveGrab: PointerGrab {
    let toplevel: XdgToplevel
    /// The hand's offset from the window's top-left when the move began.
    private let dx: Double, dy: Double

    init(toplevel: XdgToplevel, device: (x: Double, y: Double)) {
        self.toplevel = toplevel
        // A window being moved is no longer held by an earlier resize's edge.
        toplevel.resizeAnchor = nil
        let p = toplevel.xdgSurface.position
        dx = device.x - Double(p.x)
        dy = device.y - Double(p.y)
    }

    var routesToClients: Bool { false }

    func motion(_ seat: Seat, device: (x: Double, y: Double), time: UInt32) {
        seat.compositor.desktop.move(toplevel.xdgSurface, to: Int32(clamping: Int((device.x - dx).rounded())), Int32(clamping: Int((device.y - dy).rounded())))
    }

    func pressStarted(_ seat: Seat) {}
    func button(_ seat: Seat, _ button: UInt32, pressed: Bool, time: UInt32) {}
    func released(_ seat: Seat) { seat.endGrab() }
    func axis(_ seat: Seat, _ axis: PointerAxis, time: UInt32) {}
    func surfaceDestroyed(_ surface: WlSurface) -> Bool { toplevel.xdgSurface.surface === surface }
}
