import WaylandServer

/// `wp_pointer_warp_v1`'s rule: a client may move the pointer only within the window that
/// already has it, as KWin restricts it. The warp then goes through the seat as any motion
/// does, so magnetism resumes from the new place and the client hears the motion.
extension Seat {
    /// Why a warp is refused; nil when it is honoured.
    enum WarpRefusal: Equatable, CustomStringConvertible {
        case notFocused, staleSerial, outsideSurface, locked

        var description: String {
            switch self {
            case .notFocused: "the surface is not in the window under the pointer"
            case .staleSerial: "the serial is not the pointer's current enter"
            case .outsideSurface: "the point is outside the surface"
            case .locked: "a pointer lock holds the pointer"
            }
        }
    }

    /// Moves the pointer to (x, y) surface-local in `surface`, now, when the rule allows it;
    /// a refusal is logged (the protocol has no event for it) and returned.
    @discardableResult
    func warp(to surface: WlSurface, x: Double, y: Double, serial: UInt32) -> WarpRefusal? {
        let refusal = warpIfAllowed(to: surface, x: x, y: y, serial: serial, time: clock.now)
        if let refusal { log.debug("wp_pointer_warp_v1: warp to wl_surface@\(surface.objectID) refused: \(refusal)") }
        return refusal
    }

    private func warpIfAllowed(to surface: WlSurface, x: Double, y: Double, serial: UInt32, time: UInt32) -> WarpRefusal? {
        let scene = scene
        guard let focus = pointerFocus, focus.client == surface.client,
              let window = scene.window(of: focus), scene.window(of: surface) === window else { return .notFocused }
        guard isCurrentPointerSerial(serial, of: surface.client) else { return .staleSerial }
        guard x.isFinite, y.isFinite, surface.acceptsInput(x: x, y: y), let origin = scene.origin(of: surface) else {
            return .outsideSurface
        }
        guard constraints.active?.kind != .lock else { return .locked }
        handle(.pointerMotion(.warp(x: Double(origin.0) + x, y: Double(origin.1) + y)), at: time)
        return nil
    }
}
