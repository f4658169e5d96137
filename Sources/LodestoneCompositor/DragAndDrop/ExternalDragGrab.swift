import PointerAdaptation

/// The pointer while a drag from the parent session is over Lodestone's window
/// (`ExternalDrag`): the parent's drag holds its own pointer, so Lodestone's hears no
/// motion from it; the drag's positions move it instead, and it says what a drop would
/// do (`cursorName`), as in a drag inside (`DragGrab`). Clients hear no pointer events
/// meanwhile: the surface under the drag hears the drag itself. It lets the pointer go
/// (off the outputs, as the parent's pointer is) when the drag leaves, drops or goes over
/// the window's title bar.
final class ExternalDragGrab: PointerGrab {
    private weak var drag: ExternalDrag?
    private unowned let seat: Seat

    init(drag: ExternalDrag, seat: Seat) {
        self.drag = drag
        self.seat = seat
    }

    var routesToClients: Bool { false }
    func mayFocus(_ surface: WlSurface) -> Bool { false }
    func motion(device: (x: Double, y: Double), logical: (x: Double, y: Double), time: UInt32) -> GrabResponse { .taken }
    func pressStarted(focus: WlSurface?) -> GrabResponse { .taken }
    func button(_ button: UInt32, pressed: Bool, time: UInt32) -> GrabResponse { .taken }
    func axis(_ axis: PointerAxis, time: UInt32) -> GrabResponse { .taken }

    /// What the pointer says of a drop where the drag is.
    var cursorName: CursorName? { drag?.cursorName }

    /// The drag is at global (x, y): the pointer is held there (taken at the first
    /// position, unless another grab holds it).
    func moved(x: Double, y: Double) {
        if seat.grab !== self {
            guard seat.grab === seat.defaultGrab, seat.buttonsHeld == 0 else { return }
            seat.begin(self)
        }
        // On Lodestone's clock: the parent's times are of another.
        let now = seat.clock.now
        seat.handle(.pointerMotion(.absolute(x: x, y: y)), at: now)
        seat.handle(.pointerEnteredOutputs, at: now)
    }

    /// The drag left, dropped or is over the title bar: the pointer is off the outputs again,
    /// where the parent's pointer is, until the parent gives it back.
    func release() {
        guard seat.grab === self else { return }
        seat.endGrab()
        seat.handle(.pointerLeftOutputs, at: seat.clock.now)
        seat.pointerWorldChanged(cursor: true)
    }

    /// The target's answer changed: the pointer's form follows.
    func cursorChanged() { seat.pointerWorldChanged(cursor: true) }
}
