import CWaylandServer
import PointerEngine
import WaylandServer

/// Routes input to clients. `handle(_:at:)` takes every backend's `InputEvent`s; the
/// pointer engine says where the pointer is, the active grab (`Grabs/`) says what happens,
/// and the seat sends `wl_pointer` events to the surface under the pointer. The keyboard
/// (`KeyboardFocus`) and a legacy client's own cursor (`ClientCursor`) are its parts.
public final class Seat {
    unowned let compositor: Compositor
    /// Relative pointers and pointer locks/confinements.
    private(set) lazy var constraints = PointerConstraints(seat: self)
    public private(set) lazy var keyboard = KeyboardFocus(seat: self, keymap: initialKeymap)
    private let initialKeymap: Keymap
    private(set) lazy var cursor = ClientCursor(seat: self)
    var pointers: [WlPointer] = []

    /// The pointer in global logical coordinates, as clients see it (after magnetism).
    public private(set) var x: Double = 0, y: Double = 0
    private(set) weak var pointerFocus: WlSurface?
    private var focusOrigin: (x: Double, y: Double) = (0, 0)
    private(set) var pressedButtons: [UInt32] = []
    /// The serial of the last press sent to a client: a drag starts only with it (`startDrag`).
    private(set) var pressSerial: UInt32?
    /// The pointer is off every output (the parent's pointer left a nested window): no cursor is drawn.
    private(set) var pointerOutside = false

    private let defaultGrab = DefaultPointerGrab()
    /// Popups holding an xdg_popup grab; the active grab whenever no move or resize is.
    private let popupGrab = PopupGrab()
    private(set) var grab: PointerGrab

    init(compositor: Compositor, keymap: Keymap) {
        self.compositor = compositor
        grab = defaultGrab
        x = Double(compositor.output.width) / 2
        y = Double(compositor.output.height) / 2
        initialKeymap = keymap
    }

    private func serial() -> UInt32 { compositor.display.nextSerial() }
    private func pointers(of surface: WlSurface) -> [WlPointer] { pointers.filter { $0.client == surface.client } }
    private var engine: PointerController { compositor.pointerController }

    public var focusedSurfaceLocal: (x: Double, y: Double)? {
        pointerFocus.map { _ in (x - focusOrigin.x, y - focusOrigin.y) }
    }
    public var buttonsHeld: Int { pressedButtons.count }

    func pointerBound(_ pointer: WlPointer) {
        pointers.append(pointer)
        if let focus = pointerFocus, focus.client == pointer.client {
            pointer.enter(serial: serial(), surface: focus, x: x - focusOrigin.x, y: y - focusOrigin.y)
            pointer.frame()
        }
    }

    // MARK: Input

    /// The one entry point for input: every backend's events come through here.
    public func handle(_ event: InputEvent, at time: UInt32) {
        switch event {
        case .pointerMotion(let motion): pointerMoved(motion, time: time)
        case .pointerButton(let button, let pressed): pointerButton(button, pressed: pressed, time: time)
        case .pointerAxis(let axis):
            if grab.routesToClients { grab.axis(self, axis, time: time) }
        case .pointerDevice(let kind): engine.setDevice(kind == .trackpad ? .trackpad : .mouse)
        case .pointerLeftOutputs: setPointerOutside(true)
        case .pointerEnteredOutputs: setPointerOutside(false)
        case .key(let code, let pressed):
            if let drag = grab as? DragGrab { return drag.key(code, pressed: pressed) }
            // Holding a modifier (a shortcut, a Shift-click) is not typing.
            if pressed && !keyboard.keymap.isModifier(key: code) { engine.apply(.keyTyped) }
            keyboard.key(code, pressed: pressed, time: time)
        case .modifiers(let depressed, let latched, let locked, let group):
            keyboard.setModifiers(depressed: depressed, latched: latched, locked: locked, group: group)
        case .touchDown(let id, let x, let y): compositor.touchscreen?.down(id: id, x: x, y: y, time: time)
        case .touchMotion(let id, let x, let y): compositor.touchscreen?.motion(id: id, x: x, y: y, time: time)
        case .touchUp(let id): compositor.touchscreen?.up(id: id, time: time)
        case .gesture(let gesture):
            // A move or resize holds the pointer: no client hears gestures meanwhile.
            if grab.routesToClients { compositor.gestures.handle(gesture, time: time) }
        case .tabletTool(let tool): compositor.tablets.handle(tool, time: time)
        }
    }

    /// The device moved: the engine decides where the pointer goes (output edges, a
    /// client's lock or confinement, magnetism); the seat tells clients where it went.
    private func pointerMoved(_ motion: PointerMotion, time: UInt32) {
        let input: PointerInput
        switch motion {
        case .warp(let wx, let wy): input = .warp(to: Point(x: wx, y: wy))
        case .absolute(let ax, let ay): input = .motion(to: Point(x: ax, y: ay))
        case .relative(let dx, let dy):
            // Relative listeners hear every step, even when the pointer cannot move.
            constraints.relativeMotion(dx: dx, dy: dy, time: time)
            input = .relativeMotion(Vector(dx: dx, dy: dy))
        case .absoluteWithDelta(let ax, let ay, let dx, let dy):
            constraints.relativeMotion(dx: dx, dy: dy, time: time)
            input = .motion(to: Point(x: ax, y: ay))
        }
        let before = (x, y)
        engine.deviceMoved(input)
        // Clients get the adaptive pointer's logical position: magnetism may hold it on an
        // element, so a click lands there. Grabs follow the device itself.
        (x, y) = engine.logicalPosition
        // A locked or confined pointer that could not move tells no one.
        if engine.isConstrained, grab.routesToClients, (x, y) == before { return }
        cursor.damage()
        grab.motion(self, device: engine.devicePosition, time: time)
    }

    /// The adaptive pointer moved the logical position without device motion (magnetism
    /// settling, a region appearing under the pointer). Sent after the frame, never while
    /// composing one.
    func logicalPositionChanged(toX newX: Double, y newY: Double) {
        guard grab.routesToClients else { return }
        x = newX; y = newY
        cursor.damage()
        deliverMotion(time: compositor.clock.now)
    }

    /// Motion for the surface under the pointer (the routing grabs' motion).
    func deliverMotion(time: UInt32) {
        updatePointerFocus()
        if let focus = pointerFocus {
            // Not `pointers(of:)`: motion is the hot path and its filtered array would be
            // allocated for every event.
            for p in pointers where p.client == focus.client {
                p.motion(time: time, x: x - focusOrigin.x, y: y - focusOrigin.y)
                p.frame()
            }
        }
        constraints.reevaluate()
    }

    private func setPointerOutside(_ outside: Bool) {
        guard outside != pointerOutside else { return }
        pointerOutside = outside
        engine.apply(.outsideOutputs(outside))
        cursor.damage()
        // Clients hear wl_pointer.leave when the pointer goes and enter when it is back,
        // so their hover states end (unless a button holds the implicit grab).
        if pressedButtons.isEmpty, grab.routesToClients { updatePointerFocus() }
    }

    private func pointerButton(_ button: UInt32, pressed: Bool, time: UInt32) {
        if pressed {
            guard !pressedButtons.contains(button) else { return }
            if pressedButtons.isEmpty {
                engine.buttonChanged(pressed: true)
                if grab === defaultGrab, !pointerOutside, let window = compositor.scene.titleBarAt(x: x, y: y) {
                    pressedTitleBar(of: window, time: time)
                } else {
                    grab.pressStarted(self)
                }
            }
            pressedButtons.append(button)
            grab.button(self, button, pressed: true, time: time)
        } else {
            guard pressedButtons.contains(button) else { return }
            pressedButtons.removeAll { $0 == button }
            // The grab that got the press hears its release, even if it ends with it.
            let holder = grab
            if pressedButtons.isEmpty {
                engine.buttonChanged(pressed: false)
                holder.released(self)
            }
            holder.button(self, button, pressed: false, time: time)
        }
        if pressedButtons.isEmpty, grab.routesToClients { updatePointerFocus() }
    }

    func sendButton(_ button: UInt32, pressed: Bool, time: UInt32) {
        guard let focus = pointerFocus else { return }
        let s = serial()
        if pressed { pressSerial = s }
        for p in pointers(of: focus) {
            p.button(serial: s, time: time, button: button, pressed: pressed)
            p.frame()
        }
    }

    func sendAxis(_ axis: PointerAxis, time: UInt32) {
        guard let focus = pointerFocus else { return }
        for p in pointers(of: focus) {
            p.axis(time: time, axis: axis.axis, value: axis.value, discrete: axis.discrete, source: axis.source)
            p.frame()
        }
    }

    /// A press on a title bar Lodestone draws: the window comes forward; a button acts when
    /// released over it; a double click maximizes or restores; otherwise a drag moves it.
    private func pressedTitleBar(of window: DesktopWindow, time: UInt32) {
        guard let bar = window.titleBar else { return }
        compositor.desktop.activate(window)
        if let button = bar.button(atX: x, y: y) {
            bar.lastPress = nil
            return begin(TitleBarButtonGrab(window: window, button: button))
        }
        if let last = bar.lastPress, time &- last <= TitleBar.doubleClickMilliseconds {
            bar.lastPress = nil
            window.toggleMaximized()
            return begin(TitleBarButtonGrab(window: window, button: nil))
        }
        bar.lastPress = time
        begin(MoveGrab(window: window, device: engine.devicePosition))
    }

    /// Click to focus: the window under a press is raised and gets the keyboard.
    func focusAndActivate() {
        updatePointerFocus()
        guard let focus = pointerFocus, let toplevel = compositor.scene.window(of: focus) else { return }
        compositor.desktop.activate(toplevel)
    }

    // MARK: Pointer focus

    /// Re-evaluates what is under the pointer after the scene changed.
    func sceneChanged() {
        guard grab.routesToClients else { return }
        let old = pointerFocus, oldLocal = focusedSurfaceLocal
        updatePointerFocus()
        // The surface under a still pointer moved: its client hears the new local position.
        if let focus = pointerFocus, focus === old, let local = focusedSurfaceLocal, let oldLocal, local != oldLocal {
            for p in pointers(of: focus) { p.motion(time: compositor.clock.now, x: local.x, y: local.y); p.frame() }
        }
        constraints.reevaluate()
    }

    func updatePointerFocus() {
        // While buttons are held the surface that got the press keeps the pointer.
        if !pressedButtons.isEmpty, let focus = pointerFocus, let (ox, oy) = compositor.origin(of: focus) {
            focusOrigin = (Double(ox), Double(oy))
            return
        }
        // Off the outputs (the nested window lost the parent's pointer) nothing is under it.
        var hit = pointerOutside ? nil : compositor.scene.surfaceAt(x: x, y: y)
        if let h = hit, !grab.mayFocus(h.surface) { hit = nil }
        if hit?.surface !== pointerFocus {
            setPointerFocus(hit?.surface)
            if let h = hit {
                focusOrigin = (x - h.sx, y - h.sy)
                let s = serial()
                for p in pointers(of: h.surface) { p.enter(serial: s, surface: h.surface, x: h.sx, y: h.sy); p.frame() }
            }
        } else if let h = hit {
            focusOrigin = (x - h.sx, y - h.sy)
        }
    }

    /// Leaves the old focus (its client hears leave) and forgets its cursor choice.
    private func setPointerFocus(_ surface: WlSurface?) {
        if let old = pointerFocus {
            let s = serial()
            for p in pointers(of: old) { p.leave(serial: s, surface: old); p.frame() }
        }
        pointerFocus = surface
        cursor.reset()
    }

    // MARK: Grabs

    /// `xdg_toplevel.move`: only while a button the toplevel's client got is held.
    func startMove(_ toplevel: XdgToplevel, serial: UInt32) {
        guard mayStartGrab(for: toplevel, serial: serial) else { return }
        begin(MoveGrab(window: toplevel, device: engine.devicePosition))
    }

    /// X11's `_NET_WM_MOVERESIZE` move: X has no serials; the press must be on the window
    /// and still held, as for xdg_toplevel.move.
    func startMove(_ window: XwaylandWindow) {
        if let refused = refusesXGrab(of: window) { return compositor.log.debug("xwm: _NET_WM_MOVERESIZE move of '\(window.title)' refused: \(refused)") }
        begin(MoveGrab(window: window, device: engine.devicePosition))
    }

    func startResize(_ toplevel: XdgToplevel, serial: UInt32, edges: UInt32) {
        guard edges != 0, mayStartGrab(for: toplevel, serial: serial) else { return }
        begin(ResizeGrab(window: toplevel, edges: edges, device: engine.devicePosition))
    }

    /// X11's `_NET_WM_MOVERESIZE` on an edge: as its move, while the press on the window
    /// is held; a maximized or fullscreen window keeps its size.
    func startResize(_ window: XwaylandWindow, edges: UInt32) {
        let refused = edges == 0 ? "no edge" : window.isMaximized ? "maximized" : window.isFullscreen ? "fullscreen" : refusesXGrab(of: window)
        if let refused { return compositor.log.debug("xwm: _NET_WM_MOVERESIZE resize of '\(window.title)' refused: \(refused)") }
        begin(ResizeGrab(window: window, edges: edges, device: engine.devicePosition))
    }

    /// Why an X window's move or resize may not start now, or nil: the press that asked
    /// for it must be held, on the window, with no other grab.
    private func refusesXGrab(of window: XwaylandWindow) -> String? {
        if pressedButtons.isEmpty { return "no button is held" }
        if !(grab === defaultGrab || grab === popupGrab) { return "another grab holds the pointer" }
        guard let focus = pointerFocus else { return "the pointer is over no surface" }
        if compositor.scene.window(of: focus) !== window { return "the pointer is over another window" }
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
        constraints.reevaluate()
        grab = windowGrab
    }

    private func mayStartGrab(for toplevel: XdgToplevel, serial: UInt32) -> Bool {
        guard !pressedButtons.isEmpty, grab === defaultGrab || grab === popupGrab,
              let focus = pointerFocus, compositor.scene.window(of: focus) === toplevel else { return false }
        return isCurrentPointerSerial(serial, of: toplevel.client)
    }

    /// A move or resize ended: back to the popups' grab, or none.
    func endGrab() { grab = popupGrab.isEmpty ? defaultGrab : popupGrab }

    /// Closes every grabbing popup, topmost chain first.
    func dismissPopupGrabs() {
        guard let first = popupGrab.popups.first else { return }
        first.dismiss()
        popupGrab.removeAll()
        if grab === popupGrab { grab = defaultGrab }
        updatePointerFocus()
    }

    func popupGrabbed(_ popup: XdgPopup) {
        popupGrab.push(popup)
        if grab === defaultGrab { grab = popupGrab }
        if let s = popup.xdgSurface.surface { keyboard.setFocus(s) }
        updatePointerFocus()
    }

    func popupUnmapped(_ popup: XdgPopup) {
        guard popupGrab.remove(popup) else { return }
        if popupGrab.isEmpty, grab === popupGrab { grab = defaultGrab }
        if let below = popupGrab.popups.last?.xdgSurface.surface { keyboard.setFocus(below) }
        else if let top = popup.rootToplevel, top.xdgSurface.isMapped, let s = top.xdgSurface.surface { keyboard.setFocus(s) }
    }

    /// A surface went away: nothing of the seat's may point at it.
    func surfaceDestroyed(_ surface: WlSurface) {
        if pointerFocus === surface { pointerFocus = nil; cursor.reset() }
        keyboard.surfaceDestroyed(surface)
        cursor.surfaceDestroyed(surface)
        if grab.surfaceDestroyed(surface) { endGrab() }
    }
}
