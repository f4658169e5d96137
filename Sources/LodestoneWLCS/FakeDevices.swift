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
        if relative { seat.pointerMotion(dx: x, dy: y) } else { seat.pointerMotion(toX: x, y: y) }
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

/// wlcs' touchscreen (`WlcsTouch`): one touch point.
final class FakeTouch {
    private weak var compositor: Compositor?

    init(compositor: Compositor?) { self.compositor = compositor }

    static func from(_ owner: UnsafeMutableRawPointer) -> FakeTouch {
        Unmanaged<FakeTouch>.fromOpaque(owner).takeUnretainedValue()
    }

    // Lodestone has no touch input yet: the device exists so wlcs' touch
    // variants fail cleanly instead of crashing the runner on a NULL device.
    func down(x: Double, y: Double) {}
    func move(x: Double, y: Double) {}
    func up() {}
    func destroy() {}
}
