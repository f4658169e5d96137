import WaylandServer

/// The seat while the session is locked (`SessionLock`): the scene then shows and hits only
/// lock surfaces, so pointer, touch and tablet input reach nothing else; here the grabs that
/// hold a window end, and the keyboard stays on lock surfaces.
extension Seat {
    /// The session was just locked: a drag is cancelled, a move, resize or popup grab ends,
    /// touch points are cancelled, buttons held on a window no longer hold it, and no window
    /// keeps the pointer or the keyboard.
    func sessionLocked() {
        activeDrag?.cancel()
        if let resize = grab as? ResizeGrab { resize.window.resizeEnded() }
        if !(grab === defaultGrab || grab === popupGrab) { endGrab() }
        dismissPopupGrabs()
        touchscreen?.cancel()
        pressedButtons = []
        setPointerFocus(nil)
        reevaluateConstraints()
        setKeyboardFocus(nil)
    }

    /// See `Scene.mayReceiveInput`.
    func mayReceiveInput(_ surface: WlSurface?) -> Bool { scene.mayReceiveInput(surface) }
}
