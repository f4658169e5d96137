import LodestoneCompositor

/// wlcs' pointer (`WlcsPointer`): drives the seat as a backend's mouse would.
final class FakePointer {
    private weak var compositor: Compositor?
    /// Buttons this device holds down, let go when wlcs destroys it.
    private var held: [UInt32] = []

    init(compositor: Compositor?) { self.compositor = compositor }

    private var now: UInt32 { compositor?.clock.now ?? 0 }

    static func from(_ owner: UnsafeMutableRawPointer) -> FakePointer {
        Unmanaged<FakePointer>.fromOpaque(owner).takeUnretainedValue()
    }

    func move(x: Double, y: Double, relative: Bool) {
        guard let seat = compositor?.seat else { return }
        // move_to is a harness teleport, not device motion.
        seat.handle(.pointerMotion(relative ? .relative(dx: x, dy: y) : .warp(x: x, y: y)), at: now)
    }

    /// `button` is a Linux input code (BTN_LEFT...), as wl_pointer carries it.
    func button(_ button: UInt32, pressed: Bool) {
        guard let seat = compositor?.seat else { return }
        if pressed { held.append(button) } else { held.removeAll { $0 == button } }
        seat.handle(.pointerButton(button: button, pressed: pressed), at: now)
    }

    func destroy() {
        for button in held { compositor?.seat.handle(.pointerButton(button: button, pressed: false), at: now) }
        held = []
    }
}

/// wlcs' touchscreen (`WlcsTouch`): one touch point, id 0.
final class FakeTouch {
    private weak var compositor: Compositor?
    private var isDown = false

    init(compositor: Compositor?) { self.compositor = compositor }

    private var now: UInt32 { compositor?.clock.now ?? 0 }

    static func from(_ owner: UnsafeMutableRawPointer) -> FakeTouch {
        Unmanaged<FakeTouch>.fromOpaque(owner).takeUnretainedValue()
    }

    func down(x: Double, y: Double) {
        isDown = true
        compositor?.seat.handle(.touchDown(id: 0, x: x, y: y), at: now)
    }

    func move(x: Double, y: Double) { compositor?.seat.handle(.touchMotion(id: 0, x: x, y: y), at: now) }

    func up() {
        isDown = false
        compositor?.seat.handle(.touchUp(id: 0), at: now)
    }

    /// A finger still down when wlcs drops the device lifts.
    func destroy() { if isDown { up() } }
}
