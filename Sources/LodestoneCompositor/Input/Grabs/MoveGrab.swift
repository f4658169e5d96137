/// `xdg_toplevel.move` (or X11's `_NET_WM_MOVERESIZE`): the window follows the hand until
/// the last button comes up. Clients hear nothing meanwhile.
final class MoveGrab: PointerGrab {
    let window: DesktopWindow
    /// Places the window (the seat is not asked: it is on the stack during motion).
    private unowned let mover: WindowMover
    /// The hand's offset from the window's top-left when the move began.
    private let dx: Double, dy: Double

    init(window: DesktopWindow, mover: WindowMover, device: (x: Double, y: Double)) {
        self.window = window
        self.mover = mover
        // A window being moved is no longer held by an earlier resize's edge.
        (window as? XdgToplevel)?.resizeAnchor = nil
        let p = window.position
        dx = device.x - Double(p.x)
        dy = device.y - Double(p.y)
    }

    var routesToClients: Bool { false }

    func motion(device: (x: Double, y: Double), logical: (x: Double, y: Double), time: UInt32) -> GrabResponse {
        mover.move(window, to: Int32(clamping: Int((device.x - dx).rounded())), Int32(clamping: Int((device.y - dy).rounded())))
        return .taken
    }

    func pressStarted(focus: WlSurface?) -> GrabResponse { .taken }
    func button(_ button: UInt32, pressed: Bool, time: UInt32) -> GrabResponse { .taken }
    func released(at logical: (x: Double, y: Double)) -> GrabResponse { .end }
    func axis(_ axis: PointerAxis, time: UInt32) -> GrabResponse { .taken }
    func surfaceDestroyed(_ surface: WlSurface) -> Bool { window.surface === surface }
}
