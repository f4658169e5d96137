import WaylandServer

/// The seat's window grabs, popup grabs and drags: when a move, resize or drag may start (a
/// held press or touch on the window, with its serial), and how grabs end.
extension Seat {
    /// `xdg_toplevel.move`: only while a button the toplevel's client got is held.
    func startMove(_ toplevel: XdgToplevel, serial: UInt32) {
        guard mayStartGrab(for: toplevel, serial: serial) else { return }
        begin(MoveGrab(window: toplevel, mover: desktop.mover, device: devicePosition))
    }

    /// X11's `_NET_WM_MOVERESIZE` move: X has no serials; the press must be on the window
    /// and still held, as for xdg_toplevel.move.
    func startMove(_ window: XwaylandWindow) {
        if let refused = refusesXGrab(of: window) { return log.debug("xwm: _NET_WM_MOVERESIZE move of '\(window.title)' refused: \(refused)") }
        begin(MoveGrab(window: window, mover: desktop.mover, device: devicePosition))
    }

    func startResize(_ toplevel: XdgToplevel, serial: UInt32, edges: UInt32) {
        guard edges != 0, mayStartGrab(for: toplevel, serial: serial) else { return }
        begin(ResizeGrab(window: toplevel, edges: edges, device: devicePosition))
    }

    /// X11's `_NET_WM_MOVERESIZE` on an edge: as its move, while the press on the window
    /// is held; a maximized or fullscreen window keeps its size.
    func startResize(_ window: XwaylandWindow, edges: UInt32) {
        let refused = edges == 0 ? "no edge" : window.isMaximized ? "maximized" : window.isFullscreen ? "fullscreen" : refusesXGrab(of: window)
        if let refused { return log.debug("xwm: _NET_WM_MOVERESIZE resize of '\(window.title)' refused: \(refused)") }
        begin(ResizeGrab(window: window, edges: edges, device: devicePosition))
    }

    /// Why an X window's move or resize may not start now, or nil: the press that asked
    /// for it must be held, on the window, with no other grab.
    private func refusesXGrab(of window: XwaylandWindow) -> String? {
        if pressedButtons.isEmpty { return "no button is held" }
        if !(grab === defaultGrab || grab === popupGrab) { return "another grab holds the pointer" }
        guard let focus = pointerFocus else { return "the pointer is over no surface" }
        if scene.window(of: focus) !== window { return "the pointer is over another window" }
        return nil
    }

    /// `_NET_WM_MOVERESIZE_CANCEL`: the window's move or resize ends where it is.
    func cancelMoveResize(of window: XwaylandWindow) {
        if let move = grab as? MoveGrab, move.window === window { endGrab() }
        if let resize = grab as? ResizeGrab, resize.window === window {
            window.resizeEnded()
            endGrab()
        }
    }

    /// A move or resize takes the pointer from every client: focus goes, and with it any
    /// lock or confinement.
    func begin(_ windowGrab: PointerGrab) {
        setPointerFocus(nil)
        reevaluateConstraints()
        grab = windowGrab
    }

    private func mayStartGrab(for toplevel: XdgToplevel, serial: UInt32) -> Bool {
        guard !pressedButtons.isEmpty, grab === defaultGrab || grab === popupGrab,
              let focus = pointerFocus, scene.window(of: focus) === toplevel else { return false }
        return isCurrentPointerSerial(serial, of: toplevel.client)
    }

    /// Which constraint holds the pointer, from the seat's focus now; a changed rule reaches
    /// the pointer with the next frame, scheduled here.
    func reevaluateConstraints() {
        let focus = PointerConstraints.Focus(pointer: pointerFocus, surfaceLocal: focusedSurfaceLocal, keyboard: keyboard.focus)
        if constraints.reevaluate(focus) { clock.schedule() }
    }

    /// A client's lock or confinement came or went.
    func constraintAdded(_ constraint: PointerConstraint) {
        constraints.added(constraint)
        reevaluateConstraints()
    }

    func constraintRemoved(_ constraint: PointerConstraint) {
        constraints.removed(constraint)
        reevaluateConstraints()
    }

    /// A move or resize ended: back to the popups' grab, or none.
    func endGrab() { grab = popupGrab.isEmpty ? defaultGrab : popupGrab }

    /// Acts on what a grab answered (`GrabResponse`), once it has returned; delivering the
    /// event itself is left to the caller, which knows which event it was.
    func apply(_ response: GrabResponse) {
        if response.contains(.dismissPopups) { dismissPopupGrabs() }
        if response.contains(.focusAndActivate) { focusAndActivate() }
        if response.contains(.end) { endGrab() }
        if response.contains(.refocus) { updatePointerFocus() }
        if response.contains(.cursorChanged) { pointerWorldChanged(cursor: true) }
    }

    /// Closes every grabbing popup, topmost chain first.
    func dismissPopupGrabs() {
        guard let first = popupGrab.popups.first else { return }
        first.dismiss()
        popupGrab.removeAll()
        if grab === popupGrab { grab = defaultGrab }
        updatePointerFocus()
    }

    func popupGrabbed(_ popup: XdgPopup) {
        // No grab while the session is locked: it would hold the pointer from the lock surfaces.
        guard scene.lock == nil else { return popup.dismiss() }
        popupGrab.push(popup)
        if grab === defaultGrab { grab = popupGrab }
        if let s = popup.xdgSurface.surface { setKeyboardFocus(s) }
        updatePointerFocus()
    }

    func popupUnmapped(_ popup: XdgPopup) {
        guard popupGrab.remove(popup) else { return }
        if popupGrab.isEmpty, grab === popupGrab { grab = defaultGrab }
        if let below = popupGrab.popups.last?.xdgSurface.surface { setKeyboardFocus(below) }
        else if let top = popup.rootToplevel, top.xdgSurface.isMapped, let s = top.xdgSurface.surface { setKeyboardFocus(s) }
        else if let layer = popup.rootLayer, layer.isMapped, let s = layer.surface { setKeyboardFocus(layer.current.keyboard == .none ? nil : s) }
    }

    // MARK: Drags

    /// The drag in progress, the pointer's or a finger's (one at a time).
    var activeDrag: DragGrab? { grab as? DragGrab ?? touchscreen?.drag?.grab }

    /// `wl_data_device.start_drag`: only with the serial of the press this client's surface
    /// holds (the implicit grab) or of a finger still down on one (the implicit touch grab,
    /// which the drag then follows), from that surface's client, while no other grab holds
    /// the pointer and no other drag is under way (as wlroots' `wlr_seat_validate_grab_serial`).
    /// The surface under the pointer or finger hears the drag at once.
    func startDrag(source: WlDataSource?, origin: WlSurface, icon: (surface: WlSurface, role: DragIconRole)?, serial: UInt32, client: Client) -> Bool {
        if activeDrag == nil, origin.client == client, let touch = touchscreen?.point(serial: serial, of: client) {
            let drag = DragGrab(seat: self, client: client, origin: origin, source: source, icon: icon, follows: .touch(id: touch.id), at: (touch.x, touch.y))
            touchscreen?.dragStarted(drag, id: touch.id)
            drag.touchMoved(x: touch.x, y: touch.y, time: clock.now)
            return true
        }
        let refused: String? =
            activeDrag != nil ? "another drag is under way" :
            pressedButtons.isEmpty ? "no button is held, and serial \(serial) is no held touch's" :
            !(grab is DefaultPointerGrab || grab is PopupGrab) ? "another grab holds the pointer" :
            pointerFocus?.client != client || origin.client != client ? "the press is not on this client's surface" :
            pressSerial != serial ? "serial \(serial) is not the held press's" : nil
        if let refused {
            log.debug("wl_data_device.start_drag refused: \(refused)")
            return false
        }
        let drag = DragGrab(seat: self, client: client, origin: origin, source: source, icon: icon)
        begin(drag)
        let (x, y) = (position.logical.x, position.logical.y)
        apply(drag.motion(device: (position.device.x, position.device.y), logical: (x, y), time: clock.now))
        return true
    }
}
