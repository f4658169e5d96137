import Compositor

/// wlcs' pointer (`WlcsPointer`): drives the seat as a backend's mouse would.
final class FakePointer {
    private weak var compositor: Compositor?
    /// Buttons this device holds down, let go when wlcs destroys it.
    private var held: [UInt32] = []

    init(compositor: Compositor?) { self.compositor = compositor }

    static func from(_ owner: UnsafeMutableRawPointer) -> FakePointer {
        Unmanaged<FakePointer>.fromOpaque(owner).takeUnretainedValue()
    }

    func move(x: Double, y: Double, relative: Bool) {
        guard let seat = compositor?.seat else { return }
        if relative { seat.pointerMotion(dx: x, dy: y) } else { seat.warpPointer(toX: x, y: y) }  // move_to is a harness teleport
    }

    /// `button` is a Linux input code (BTN_LEFT...), as wl_pointer carries it.
    func button(_ button: UInt32, pressed: Bool) {
        guard let seat = compositor?.seat else { return }
        if pressed { held.append(button) } else { held.removeAll { $0 == button } }
        seat.pointerButton(button, pressed: pressed)
    }

    func destroy() {
        for button in held { compositor?.seat.pointerButton(button, pressed: false) }
        held = []
    }
}

/// wlcs' touchscreen (`WlcsTouch`): one touch point, id 0.
final class FakeTouch {
    private weak var compositor: Compositor?
    private var isDown = false

    init(compositor: Compositor?) { self.compositor = compositor }

    static func from(_ owner: UnsafeMutableRawPointer) -> FakeTouch {
        Unmanaged<FakeTouch>.fromOpaque(owner).takeUnretainedValue()
    }

    func down(x: Double, y: Double) {
        isDown = true
        compositor?.touchscreen?.down(id: 0, x: x, y: y)
    }

    func move(x: Double, y: Double) { compositor?.touchscreen?.motion(id: 0, x: x, y: y) }

    func up() {
        isDown = false
        compositor?.touchscreen?.up(id: 0)
    }

    /// A finger still down when wlcs drops the device lifts.
    func destroy() { if isDown { up() } }
}
