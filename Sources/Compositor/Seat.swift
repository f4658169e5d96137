import CWaylandServer
import Rendering
import WaylandServer

/// Routes input to clients: pointer focus, implicit and interactive grabs,
/// popup grabs, keyboard focus and the cursor.
public final class Seat {
    unowned let compositor: Compositor
    /// Relative pointers and pointer locks/confinements.
    private(set) lazy var constraints = PointerConstraints(seat: self)
    var pointers: [WlPointer] = []
    var keyboards: [WlKeyboard] = []
    private(set) var keymap: Keymap
    /// Key repeat sent to clients: keys per second and delay in ms (the
    /// common desktop default until a backend passes the parent's on).
    private(set) var repeatRate: Int32 = 25, repeatDelay: Int32 = 600

    /// The pointer in global logical coordinates.
    public private(set) var x: Double = 0, y: Double = 0
    private(set) weak var pointerFocus: WlSurface?
    private var focusOrigin: (x: Double, y: Double) = (0, 0)
    private(set) var pressedButtons: [UInt32] = []
    private(set) weak var keyboardFocus: WlSurface?
    private(set) var pressedKeys: [UInt32] = []
    private(set) var modifiers = Keymap.Modifiers()

    private enum Grab {
        case none
        case move(XdgToplevel, dx: Double, dy: Double)
        case resize(XdgToplevel, edges: UInt32, startX: Double, startY: Double, width: Int32, height: Int32)
    }
    private var grab = Grab.none
    /// Popups holding an explicit grab, bottom first.
    private var popupGrabs: [XdgPopup] = []

    // A legacy client's cursor: its set_cursor surface, or hidden (the adaptive pointer is drawn otherwise).
    private(set) weak var cursorSurface: WlSurface?
    private var hotspot: (x: Int32, y: Int32) = (0, 0)
    private var cursorHidden = false
    /// The pointer is off every output (the parent's pointer left a nested window): no cursor is drawn.
    private(set) var pointerOutside = false
    private var cursorRole: CursorRole?
    /// set_cursor requests accepted so far (the test protocol's cursor_state).
    private(set) var cursorSets: UInt32 = 0
    private var lastCursorBounds: Rect?

    init(compositor: Compositor) {
        self.compositor = compositor
        guard let keymap = Keymap() else { fatalError("xkbcommon could not compile the default 'us' keymap (is xkb-data installed?)") }
        self.keymap = keymap
        x = Double(compositor.output.width) / 2
        y = Double(compositor.output.height) / 2
    }

    private var time: UInt32 { compositor.clock.now }
    private func serial() -> UInt32 { compositor.display.nextSerial() }
    private func pointers(of surface: WlSurface) -> [WlPointer] { pointers.filter { $0.client == surface.client } }
    private func keyboards(of surface: WlSurface) -> [WlKeyboard] { keyboards.filter { $0.client == surface.client } }

    public var focusedSurfaceLocal: (x: Double, y: Double)? {
        pointerFocus.map { _ in (x - focusOrigin.x, y - focusOrigin.y) }
    }
    public var buttonsHeld: Int { pressedButtons.count }

    // MARK: Binding

    func pointerBound(_ pointer: WlPointer) {
        pointers.append(pointer)
        if let focus = pointerFocus, focus.client == pointer.client {
            pointer.enter(serial: serial(), surface: focus, x: x - focusOrigin.x, y: y - focusOrigin.y)
            pointer.frame()
        }
    }

    func keyboardBound(_ keyboard: WlKeyboard) {
        keyboards.append(keyboard)
        keyboard.keymap(keymap)
        keyboard.repeatInfo()
        if let focus = keyboardFocus, focus.client == keyboard.client {
            keyboard.enter(serial: serial(), surface: focus, keys: pressedKeys)
            keyboard.modifiers(serial: serial(), modifiers)
        }
    }

    // MARK: Pointer input

    /// Moves the pointer to a global position (clamped to the output). `relative` is the hand's
    /// own motion when the device reports it too (a nested parent's zwp_relative_pointer_v1):
    /// relative listeners hear it as they would from a relative device.
    public func pointerMotion(toX newX: Double, y newY: Double, relative: (dx: Double, dy: Double)? = nil) {
        if let r = relative { constraints.relativeMotion(dx: r.dx, dy: r.dy, time: time) }
        // An absolute device under a lock or confinement moves by the same rules as a relative one.
        if constraints.active != nil, case .none = grab {
            let (cx, cy) = constraints.constrain(fromX: x, y: y, dx: newX - x, dy: newY - y)
            if (cx, cy) != (x, y) { movePointer(toX: cx, y: cy) }
            return
        }
        movePointer(toX: newX, y: newY)
    }

    /// Puts the pointer at a global position regardless of locks and
    /// confinements: a harness teleport (wlcs' absolute fake pointer), not device motion.
    public func warpPointer(toX newX: Double, y newY: Double) { movePointer(toX: newX, y: newY) }

    private func movePointer(toX newX: Double, y newY: Double) {
        let bounds = compositor.output.bounds
        let px = min(max(newX, 0), Double(bounds.width) - 1 / 256)
        let py = min(max(newY, 0), Double(bounds.height) - 1 / 256)
        // Clients get the adaptive pointer's logical position: magnetism may hold it on an
        // element, so a click lands there. Grabs follow the device itself.
        (x, y) = compositor.pointerController.deviceMoved(toX: px, y: py)
        damageCursor()
        switch grab {
        case .move(let toplevel, let dx, let dy):
            compositor.move(toplevel.xdgSurface, to: Int32((px - dx).rounded()), Int32((py - dy).rounded()))
            return
        case .resize(let toplevel, let edges, let sx, let sy, let w, let h):
            resize(toplevel, edges: edges, dx: px - sx, dy: py - sy, width: w, height: h)
            return
        case .none: break
        }
        deliverMotion()
    }

    /// The adaptive pointer moved the logical position without device motion (magnetism
    /// settling, a region appearing under the pointer).
    func logicalPositionChanged(toX newX: Double, y newY: Double) {
        guard case .none = grab else { return }
        x = newX; y = newY
        damageCursor()
        deliverMotion()
    }

    private func deliverMotion() {
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

    public func pointerMotion(dx: Double, dy: Double) {
        // Relative listeners hear every step, even when the pointer cannot move.
        constraints.relativeMotion(dx: dx, dy: dy, time: time)
        if constraints.active != nil, case .none = grab {
            let (cx, cy) = constraints.constrain(fromX: x, y: y, dx: dx, dy: dy)
            if (cx, cy) != (x, y) { movePointer(toX: cx, y: cy) }
            return
        }
        let device = compositor.pointerController.devicePosition
        movePointer(toX: device.x + dx, y: device.y + dy)
    }

    /// The pointer left every output (the parent's pointer left a nested window), or came
    /// back: no pointer is drawn meanwhile, so none stays frozen where the user's hand left.
    public func pointerLeftOutputs() { setPointerOutside(true) }
    public func pointerEnteredOutputs() { setPointerOutside(false) }

    private func setPointerOutside(_ outside: Bool) {
        guard outside != pointerOutside else { return }
        pointerOutside = outside
        compositor.pointerController.setOutsideOutputs(outside)
        damageCursor()
        // Clients hear wl_pointer.leave when the pointer goes and enter when it is back,
        // so their hover states end (unless a button holds the implicit grab).
        if pressedButtons.isEmpty, case .none = grab { updatePointerFocus() }
    }

    /// Re-evaluates what is under the pointer after the scene changed.
    func sceneChanged() {
        guard case .none = grab else { return }
        let old = pointerFocus, oldLocal = focusedSurfaceLocal
        updatePointerFocus()
        // The surface under a still pointer moved: its client hears the new local position.
        if let focus = pointerFocus, focus === old, let local = focusedSurfaceLocal, let oldLocal, local != oldLocal {
            for p in pointers(of: focus) { p.motion(time: time, x: local.x, y: local.y); p.frame() }
        }
        constraints.reevaluate()
    }

    private func updatePointerFocus() {
        // While buttons are held the surface that got the press keeps the pointer.
        if !pressedButtons.isEmpty, let focus = pointerFocus, compositor.origin(of: focus) != nil {
            if let (ox, oy) = compositor.origin(of: focus) { focusOrigin = (Double(ox), Double(oy)) }
            return
        }
        // Off the outputs (the nested window lost the parent's pointer) nothing is under it.
        var hit = pointerOutside ? nil : compositor.surfaceAt(x: x, y: y)
        // A popup grab keeps pointer events within the grabbing client.
        if let top = popupGrabs.last, let h = hit, h.surface.client != top.client { hit = nil }
        if hit?.surface !== pointerFocus {
            if let old = pointerFocus {
                let s = serial()
                for p in pointers(of: old) { p.leave(serial: s, surface: old); p.frame() }
            }
            pointerFocus = hit?.surface
            resetCursor()
            if let h = hit {
                focusOrigin = (x - h.sx, y - h.sy)
                let s = serial()
                for p in pointers(of: h.surface) { p.enter(serial: s, surface: h.surface, x: h.sx, y: h.sy); p.frame() }
            }
        } else if let h = hit {
            focusOrigin = (x - h.sx, y - h.sy)
        }
    }

    public func pointerButton(_ button: UInt32, pressed: Bool) {
        if pressed {
            guard !pressedButtons.contains(button) else { return }
            if pressedButtons.isEmpty {
                compositor.pointerController.buttonChanged(pressed: true)
                pressStarted()
            }
            pressedButtons.append(button)
        } else {
            guard pressedButtons.contains(button) else { return }
            pressedButtons.removeAll { $0 == button }
            if pressedButtons.isEmpty {
                compositor.pointerController.buttonChanged(pressed: false)
                endGrab()
            }
        }
        if case .none = grab, let focus = pointerFocus {
            let s = serial()
            lastButtonSerial = s
            for p in pointers(of: focus) {
                p.button(serial: s, time: time, button: button, pressed: pressed)
                p.frame()
            }
        }
        if pressedButtons.isEmpty { updatePointerFocus() }
    }

    private(set) var lastButtonSerial: UInt32 = 0

    /// The first button goes down: click-to-focus, and popups close on outside clicks.
    private func pressStarted() {
        updatePointerFocus()
        // Owner-events grab (xdg_popup.grab): presses on the grabbing client's
        // own surfaces go through; a press anywhere else closes its popups.
        if !popupGrabs.isEmpty, pointerFocus == nil || pointerFocus?.client != popupGrabs.last?.client {
            dismissPopupGrabs()
        }
        guard let focus = pointerFocus, let toplevel = toplevel(of: focus) else { return }
        if popupGrabs.isEmpty { compositor.activate(toplevel) }
    }

    public func pointerAxis(_ axis: UInt32, value: Double, discrete: Int32, source: UInt32) {
        guard let focus = pointerFocus, case .none = grab else { return }
        for p in pointers(of: focus) {
            p.axis(time: time, axis: axis, value: value, discrete: discrete, source: source)
            p.frame()
        }
    }

    // MARK: Interactive move and resize

    func startMove(_ toplevel: XdgToplevel, serial: UInt32) {
        guard !pressedButtons.isEmpty, case .none = grab, let focus = pointerFocus, self.toplevel(of: focus) === toplevel else { return }
        leaveFocusForGrab()
        let p = toplevel.xdgSurface.position
        let device = compositor.pointerController.devicePosition
        grab = .move(toplevel, dx: device.x - Double(p.x), dy: device.y - Double(p.y))
    }

    func startResize(_ toplevel: XdgToplevel, serial: UInt32, edges: UInt32) {
        guard edges != 0, !pressedButtons.isEmpty, case .none = grab, let focus = pointerFocus, self.toplevel(of: focus) === toplevel else { return }
        leaveFocusForGrab()
        let g = toplevel.xdgSurface.geometry
        let p = toplevel.xdgSurface.position
        toplevel.resizeAnchor = (edges, p.x + g.width, p.y + g.height)
        toplevel.setResizing(true)
        let device = compositor.pointerController.devicePosition
        grab = .resize(toplevel, edges: edges, startX: device.x, startY: device.y, width: g.width, height: g.height)
    }

    private func resize(_ toplevel: XdgToplevel, edges: UInt32, dx: Double, dy: Double, width: Int32, height: Int32) {
        var w = Double(width), h = Double(height)
        if edges & XDG_TOPLEVEL_RESIZE_EDGE_LEFT.rawValue != 0 { w -= dx }
        if edges & XDG_TOPLEVEL_RESIZE_EDGE_RIGHT.rawValue != 0 { w += dx }
        if edges & XDG_TOPLEVEL_RESIZE_EDGE_TOP.rawValue != 0 { h -= dy }
        if edges & XDG_TOPLEVEL_RESIZE_EDGE_BOTTOM.rawValue != 0 { h += dy }
        var nw = max(Int32(w.rounded()), max(1, toplevel.minSize.width))
        var nh = max(Int32(h.rounded()), max(1, toplevel.minSize.height))
        if toplevel.maxSize.width > 0 { nw = min(nw, toplevel.maxSize.width) }
        if toplevel.maxSize.height > 0 { nh = min(nh, toplevel.maxSize.height) }
        toplevel.configure(width: nw, height: nh)
    }

    /// Interactive grabs take the pointer away from the client.
    private func leaveFocusForGrab() {
        if let old = pointerFocus {
            let s = serial()
            for p in pointers(of: old) { p.leave(serial: s, surface: old); p.frame() }
        }
        pointerFocus = nil
    }

    private func endGrab() {
        if case .resize(let toplevel, _, _, _, _, _) = grab {
            toplevel.setResizing(false)
            toplevel.reconfigure()
        }
        grab = .none
    }

    // MARK: Popup grabs

    /// Closes every grabbing popup, topmost chain first.
    func dismissPopupGrabs() {
        guard let first = popupGrabs.first else { return }
        first.dismiss()
        popupGrabs.removeAll()
        updatePointerFocus()
    }

    func popupGrabbed(_ popup: XdgPopup) {
        popupGrabs.append(popup)
        if let s = popup.xdgSurface.surface { setKeyboardFocus(s) }
        updatePointerFocus()
    }

    func popupUnmapped(_ popup: XdgPopup) {
        guard let index = popupGrabs.firstIndex(where: { $0 === popup }) else { return }
        popupGrabs.remove(at: index)
        if let below = popupGrabs.last?.xdgSurface.surface { setKeyboardFocus(below) }
        else if let top = popup.rootToplevel, top.xdgSurface.isMapped, let s = top.xdgSurface.surface { setKeyboardFocus(s) }
    }

    // MARK: Keyboard

    public func key(_ key: UInt32, pressed: Bool) {
        if pressed {
            guard !pressedKeys.contains(key) else { return }
            pressedKeys.append(key)
            compositor.pointerController.keyTyped()
        }
        else { guard pressedKeys.contains(key) else { return }; pressedKeys.removeAll { $0 == key } }
        let newModifiers = keymap.update(key: key, pressed: pressed)
        guard let focus = keyboardFocus else { modifiers = newModifiers; return }
        let s = serial()
        for k in keyboards(of: focus) { k.key(serial: s, time: time, key: key, pressed: pressed) }
        if newModifiers != modifiers {
            modifiers = newModifiers
            for k in keyboards(of: focus) { k.modifiers(serial: s, modifiers) }
        }
    }

    /// Replaces the keymap with one in xkb text format (a nested parent's
    /// layout) and sends it to every keyboard. False when it does not compile.
    @discardableResult
    public func useKeymap(text: String) -> Bool {
        guard let new = Keymap(text: text) else { return false }
        use(new)
        return true
    }

    /// Replaces the keymap with an xkb layout by name ("de", "fr"). False
    /// when xkbcommon does not know it.
    @discardableResult
    public func useKeymap(layout: String) -> Bool {
        guard let new = Keymap(layout: layout) else { return false }
        use(new)
        return true
    }

    private func use(_ new: Keymap) {
        keymap = new
        // Keys held now were pressed under the old keymap; the parent sends
        // the modifiers that stay in effect.
        modifiers = Keymap.Modifiers()
        for k in keyboards { k.keymap(new) }
        if let focus = keyboardFocus {
            let s = serial()
            for k in keyboards(of: focus) { k.modifiers(serial: s, modifiers) }
        }
    }

    /// Modifier state decided elsewhere (the parent compositor's
    /// `wl_keyboard.modifiers`: a Caps Lock turned on outside our window).
    public func keyboardModifiers(depressed: UInt32, latched: UInt32, locked: UInt32, group: UInt32) {
        let newModifiers = keymap.update(Keymap.Modifiers(depressed: depressed, latched: latched, locked: locked, group: group))
        guard newModifiers != modifiers else { return }
        modifiers = newModifiers
        guard let focus = keyboardFocus else { return }
        let s = serial()
        for k in keyboards(of: focus) { k.modifiers(serial: s, modifiers) }
    }

    /// Key repeat clients should use (the parent's, when nested).
    public func setKeyRepeat(rate: Int32, delay: Int32) {
        repeatRate = max(0, rate); repeatDelay = max(0, delay)
        for k in keyboards { k.repeatInfo() }
    }

    public var keyboardModifiers: (depressed: UInt32, latched: UInt32, locked: UInt32) { (modifiers.depressed, modifiers.latched, modifiers.locked) }

    func setKeyboardFocus(_ surface: WlSurface?) {
        guard surface !== keyboardFocus else { return }
        let s = serial()
        if let old = keyboardFocus { for k in keyboards(of: old) { k.leave(serial: s, surface: old) } }
        keyboardFocus = surface
        if let surface {
            for k in keyboards(of: surface) {
                k.enter(serial: s, surface: surface, keys: pressedKeys)
                k.modifiers(serial: s, modifiers)
            }
        }
        compositor.selection.keyboardFocusChanged(to: surface?.client)
        constraints.reevaluate()
    }

    // MARK: Surfaces going away

    func surfaceDestroyed(_ surface: WlSurface) {
        if pointerFocus === surface { pointerFocus = nil; resetCursor() }
        if keyboardFocus === surface { keyboardFocus = nil; compositor.selection.keyboardFocusChanged(to: nil) }
        if cursorSurface === surface { cursorSurface = nil; cursorRole = nil; cursorHidden = true }
        if case .move(let t, _, _) = grab, t.xdgSurface.surface === surface { grab = .none }
        if case .resize(let t, _, _, _, _, _) = grab, t.xdgSurface.surface === surface { grab = .none }
    }

    /// The toplevel a surface belongs to (through subsurfaces and popups).
    func toplevel(of surface: WlSurface) -> XdgToplevel? {
        var s: WlSurface? = surface
        while let current = s {
            if let sub = current.role as? WlSubsurface { s = sub.parent; continue }
            if let xdg = current.role as? XdgSurface { return xdg.toplevel ?? xdg.popup?.rootToplevel }
            return nil
        }
        return nil
    }

    private func isInTree(_ surface: WlSurface, _ root: WlSurface) -> Bool {
        var s: WlSurface? = surface
        while let current = s {
            if current === root { return true }
            s = (current.role as? WlSubsurface)?.parent
        }
        return false
    }

    // MARK: Cursor

    func setCursor(from pointer: WlPointer, serial: UInt32, surface: WlSurface?, hotspotX: Int32, hotspotY: Int32) {
        // Only the client under the pointer may set its image.
        guard let focus = pointerFocus, focus.client == pointer.client else { return }
        cursorSets &+= 1
        damageCursor()
        guard let surface else {
            cursorSurface = nil
            cursorHidden = true
            return
        }
        if surface !== cursorSurface {
            // Toolkits set the same cursor surface again after every enter: a surface that
            // is already a cursor keeps its role object.
            let role = surface.role as? CursorRole ?? CursorRole(seat: self)
            guard surface.assignRole(role, error: (pointer, WL_POINTER_ERROR_ROLE.rawValue)) else { return }
            cursorRole = role
        }
        cursorSurface = surface
        cursorHidden = false
        hotspot = (hotspotX, hotspotY)
        damageCursor()
    }

    func cursorOffset(dx: Int32, dy: Int32) { hotspot = (hotspot.x - dx, hotspot.y - dy) }

    var cursorOrigin: (Int32, Int32) { (Int32(x.rounded(.down)) - hotspot.x, Int32(y.rounded(.down)) - hotspot.y) }

    private func resetCursor() {
        damageCursor()
        cursorSurface = nil
        cursorHidden = false
        damageCursor()
    }

    /// Whether the focused client chose its own cursor image (or none) with set_cursor.
    var showsClientCursor: Bool { cursorSurface != nil || cursorHidden }

    /// Where a client's cursor surface is drawn, in global logical coordinates; nil while
    /// the adaptive pointer (PointerController) draws the pointer, and while the client's
    /// cursor has no buffer (an empty cursor surface shows nothing).
    private var cursorBounds: Rect? {
        if pointerOutside || compositor.pointerController.drawsAdaptivePointer { return nil }
        guard let s = cursorSurface, s.hasContent else { return nil }
        let (ox, oy) = cursorOrigin
        return Rect(x: ox, y: oy, width: s.width, height: s.height)
    }

    func damageCursor() {
        if let last = lastCursorBounds { compositor.output.damage(logical: last) }
        lastCursorBounds = cursorBounds
        if let now = lastCursorBounds { compositor.output.damage(logical: now) }
        compositor.scheduleFrame()
    }

    /// A client's cursor image, when it is the one to show.
    func cursorElement(scale: Int32) -> RenderElement? {
        guard let bounds = cursorBounds, let s = cursorSurface, let texture = s.texture else { return nil }
        let toImage = s.surfaceToBuffer.concatenating(.translation(-Double(bounds.x), -Double(bounds.y)))
            .concatenating(.scale(1 / Double(scale), 1 / Double(scale)))
        return RenderElement(image: texture, bounds: bounds.scaled(by: scale), outputToImage: toImage)
    }
}

/// The role a surface gets from `wl_pointer.set_cursor`.
final class CursorRole: SurfaceRole {
    unowned let seat: Seat
    let roleName = "wl_pointer cursor"
    init(seat: Seat) { self.seat = seat }
    func surfaceCommitted() { seat.damageCursor() }
}
