import WaylandServer

/// The seat's touchscreen (`Touchscreen`), which it owns: touch input is routed there, and
/// one comes and goes with a TTY's touch devices.
extension Seat {
    func touchInput(_ event: InputEvent, time: UInt32) {
        switch event {
        case .touchDown(let id, let x, let y):
            guard let touchscreen, let hit = touchscreen.hit(id: id, x: x, y: y) else { return }
            // Like a click, a finger raises and focuses the window it lands on.
            if let toplevel = scene.window(of: hit.surface) { apply(desktop.activate(toplevel)) }
            touchscreen.down(id: id, on: hit, x: x, y: y, time: time)
        case .touchMotion(let id, let x, let y): touchscreen?.motion(id: id, x: x, y: y, time: time)
        case .touchUp(let id): touchscreen?.up(id: id, time: time)
        case .touchCancel: touchscreen?.cancel()
        case .touchscreen(let present): touchscreenPresent(present)
        default: break
        }
    }

    /// The seat's first touchscreen came or its last went (`InputEvent.touchscreen`). Points
    /// down when it goes are cancelled; bound `wl_seat`s hear the new capabilities, and the
    /// `wl_touch` objects of the old one stay inert (clients release them).
    private func touchscreenPresent(_ present: Bool) {
        guard present != (touchscreen != nil), !keepsTouchscreen else { return }
        if present { touchscreen = Touchscreen(scene: scene, display: display, clock: clock) } else { touchscreen?.cancel(); touchscreen = nil }
        capabilitiesChanged()
    }
}
