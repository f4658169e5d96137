import PointerAdaptation
import CWaylandServer
import AdaptivePointerEngine
import Logging
import WaylandServer

/// Routes input to clients. `handle(_:at:)` takes every backend's `InputEvent`s; its
/// pointer (`SeatPointer`, the engine's only writer) says where the pointer is, the active
/// grab (`Grabs/`) says what happens, and the seat sends `wl_pointer` events to the surface
/// under the pointer. A legacy client's own cursor (`ComposedClientCursor`), the touchscreen
/// and what is pushed to the pointer (`SeatPointerInputs.swift`) are its parts; the keyboard
/// focus (`KeyboardFocus`) is built before it and handed to it with its other peers.
public final class Seat {
    // Its peers, built before it and handed to it by the assembly (`Compositor.init`); none
    // of them holds the seat. The seat never holds the compositor.
    let display: Display, scene: Scene, output: Output, clock: FrameClock, log: Logger
    /// The scene's adaptive regions in global space (pushed to the pointer).
    let regions: SceneRegions
    public let keyboard: KeyboardFocus
    let cursorThemes: CursorThemes
    /// Any input but a device coming or going tells it the user is there.
    let idleNotifier: IdleNotifier
    /// They follow the keyboard's focus.
    let selection: DataSelection, primarySelection: PrimarySelection
    let shortcutsInhibitors: ShortcutsInhibitors
    /// A window activated while the session is locked gets the keyboard at unlock.
    let sessionLock: SessionLock
    /// Asked by the seat; what they need done comes back as a value (`Tablets.Outcome`).
    let tablets: Tablets
    let textInputs: TextInputs
    // Peers built after the seat (they need its keyboard focus, or accessibility, whose
    // change closure captures the seat), each set once by the assembly before any input.
    unowned var accessibility: Accessibility!
    unowned var desktop: Desktop!
    unowned var gestures: Gestures!
    unowned var layerShell: LayerShell!
    unowned var shortcuts: Shortcuts!
    /// The X11 window manager while Xwayland runs (set and cleared with `Compositor.xwm`).
    weak var xwm: XWM?

    /// Relative pointers and pointer locks/confinements.
    private(set) lazy var constraints = PointerConstraints(scene: scene)
    /// The client's own cursor choice, composed into the frame when it shows.
    private(set) lazy var cursor: ComposedClientCursor = {
        let cursor = ComposedClientCursor(output: output, themes: cursorThemes, clock: clock,
                                          settings: AppCursorPolicy(mode: pointerMode, legacyApps: legacyApps),
                                          pointerAt: (position.logical.x, position.logical.y))
        // A commit of the cursor's surface comes from its client, not through the seat.
        cursor.onChange = { [unowned self] in self.clientCursorChanged() }
        return cursor
    }()
    /// The clients' bound `wl_pointer`s (not to be confused with `pointer`, the one pointer they follow).
    var wlPointers: [WlPointer] = []
    /// Bound `wl_seat`s: they hear the capabilities again when a touchscreen comes or goes.
    var seatResources: [WlSeat] = []
    /// Touch routing, which `wl_seat` announces and `wl_touch` objects follow; nil while there
    /// is no touchscreen: `Options.touch`'s is there for good, a TTY's while libinput has a
    /// touch device (`touchscreenPresent`, SeatTouch.swift).
    public internal(set) var touchscreen: Touchscreen?
    /// `Options.touch`: the touchscreen stays whatever devices come and go.
    let keepsTouchscreen: Bool

    /// The pointer: device input and the world it moves over go in, positions and steps come out.
    private(set) var pointer: any PointerOwner
    /// Where the pointer is, as the pointer last answered (an input or a step): clients see
    /// `position.logical`, grabs follow `position.device`.
    var position: PointerPosition {
        // An app's element the pointer came onto is confirmed before the pointer takes its form.
        didSet {
            cursor.follow((position.logical.x, position.logical.y), outside: pointerOutside)
            let accessibility = self.accessibility!
            accessibility.pointer.device = position.device
            accessibility.pointer.awaitingConfirmation = position.awaitingConfirmation
            if let id = position.awaitingConfirmation { accessibility.confirm(id) }
            if position.device != oldValue.device { accessibility.pointerMoved(to: position.device) }
        }
    }
    /// The pointer as the last step left it (what frames draw and the test protocol reads).
    var pointerSnapshot: PointerSnapshot
    /// Which pointer shows over apps that declare no regions, and how they are read (`appCursor`).
    var pointerMode: PointerMode
    var legacyApps: LegacyApps
    /// What changed since the last push to the pointer (see `pushPointerWorld`).
    var pointerWorld = PointerWorldPending()
    private(set) weak var pointerFocus: WlSurface?
    private var focusOrigin: (x: Double, y: Double) = (0, 0)
    var pressedButtons: [UInt32] = []
    /// The serial of the last press sent to a client: a drag starts only with it (`startDrag`).
    var pressSerial: UInt32?
    /// The pointer is off every output (the parent's pointer left a nested window): no cursor is drawn.
    private(set) var pointerOutside = false

    let defaultGrab = DefaultPointerGrab()
    /// Popups holding an xdg_popup grab; the active grab whenever no move or resize is.
    let popupGrab = PopupGrab()
    var grab: PointerGrab

    /// Its peers are built before it (see the stored properties above); `touch`: a
    /// touchscreen for good (`Compositor.Options.touch`).
    init(display: Display, scene: Scene, regions: SceneRegions, output: Output, clock: FrameClock, log: Logger,
         keyboard: KeyboardFocus, cursorThemes: CursorThemes, idleNotifier: IdleNotifier, selection: DataSelection,
         primarySelection: PrimarySelection, shortcutsInhibitors: ShortcutsInhibitors, sessionLock: SessionLock,
         tablets: Tablets, textInputs: TextInputs, pointer: SeatPointer, pointerMode: PointerMode, legacyApps: LegacyApps, touch: Bool) {
        self.display = display; self.scene = scene; self.regions = regions; self.output = output; self.clock = clock; self.log = log
        self.keyboard = keyboard; self.cursorThemes = cursorThemes; self.idleNotifier = idleNotifier; self.selection = selection
        self.primarySelection = primarySelection; self.shortcutsInhibitors = shortcutsInhibitors; self.sessionLock = sessionLock
        self.tablets = tablets; self.textInputs = textInputs
        grab = defaultGrab
        self.pointer = pointer
        position = pointer.position
        pointerSnapshot = pointer.snapshot
        self.pointerMode = pointerMode
        self.legacyApps = legacyApps
        keepsTouchscreen = touch
        if touch { touchscreen = Touchscreen(scene: scene, display: display, clock: clock) }
    }

    /// Puts `wrap`'s answer in front of the pointer: for tests that record every call into it.
    func interposePointer(_ wrap: (any PointerOwner) -> any PointerOwner) { pointer = wrap(pointer) }

    func serial() -> UInt32 { display.nextSerial() }
    func wlPointers(of surface: WlSurface) -> [WlPointer] { wlPointers.filter { $0.client == surface.client } }
    /// The pointer in global logical coordinates, as clients see it (after magnetism).
    var x: Double { position.logical.x }
    var y: Double { position.logical.y }
    /// Where the device is, before magnetism (grabs follow it).
    var devicePosition: (x: Double, y: Double) { (position.device.x, position.device.y) }

    public var focusedSurfaceLocal: (x: Double, y: Double)? {
        pointerFocus.map { _ in (x - focusOrigin.x, y - focusOrigin.y) }
    }
    public var buttonsHeld: Int { pressedButtons.count }

    func pointerBound(_ pointer: WlPointer) {
        wlPointers.append(pointer)
        if let focus = pointerFocus, focus.client == pointer.client {
            pointer.enter(serial: serial(), surface: focus, x: x - focusOrigin.x, y: y - focusOrigin.y)
            pointer.frame()
        }
    }

    /// A touchscreen came or went: every bound `wl_seat` hears the capabilities again.
    func capabilitiesChanged() { for s in seatResources { s.sendCapabilities() } }

    // MARK: Input

    /// The one entry point for input: every backend's events come through here.
    public func handle(_ event: InputEvent, at time: UInt32) {
        // Any input but a device coming or going is the user: idle notifications resume.
        if event != .touchscreen(present: true), event != .touchscreen(present: false) { idleNotifier.activity() }
        // What changed since the last input reaches the pointer before this one does.
        pushPointerWorld()
        switch event {
        case .pointerMotion(let motion): pointerMoved(motion, time: time)
        case .pointerButton(let button, let pressed): pointerButton(button, pressed: pressed, time: time)
        case .pointerAxis(let axis):
            if grab.routesToClients { pointerAxis(axis, time: time) }
        case .pointerDevice(let kind): pointerInput(.device(kind == .trackpad ? .trackpad : .mouse))
        case .pointerLeftOutputs: setPointerOutside(true)
        case .pointerEnteredOutputs: setPointerOutside(false)
        case .key(let code, let pressed):
            if let drag = activeDrag { return apply(drag.key(code, pressed: pressed)) }
            // Holding a modifier (a shortcut, a Shift-click) is not typing.
            if pressed && !keyboard.keymap.isModifier(key: code) {
                pointerInput(.keyTyped)
                // A key may scroll what is under the pointer (Page Down): it is confirmed again.
                accessibility.keyPressed()
            }
            keyboardKey(code, pressed: pressed, time: time)
        case .modifiers(let depressed, let latched, let locked, let group):
            keyboard.setModifiers(depressed: depressed, latched: latched, locked: locked, group: group)
        case .touchDown, .touchMotion, .touchUp, .touchCancel, .touchscreen: touchInput(event, time: time)
        case .gesture(let gesture):
            // A move or resize holds the pointer: no client hears gestures meanwhile.
            // Nor while the session is locked: the system's swipes would switch windows.
            if grab.routesToClients, scene.lock == nil {
                let outcome = gestures.handle(gesture, time: time, pointerFocus: pointerFocus)
                for input in outcome.pointer { pointerInput(input) }
                if let window = outcome.activate { apply(desktop.activate(window)) }
            }
        case .tabletTool(let tool): tabletInput(tool, time: time)
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
            constraints.relativeMotion(dx: dx, dy: dy, time: time, focus: pointerFocus)
            input = .relativeMotion(Vector(dx: dx, dy: dy))
        case .absoluteWithDelta(let ax, let ay, let dx, let dy):
            constraints.relativeMotion(dx: dx, dy: dy, time: time, focus: pointerFocus)
            input = .motion(to: Point(x: ax, y: ay))
        }
        let before = position.logical
        // Clients get the adaptive pointer's logical position: magnetism may hold it on an
        // element, so a click lands there. Grabs follow the device itself.
        pointerInput(input)
        // A locked or confined pointer that could not move tells no one.
        if position.isConstrained, grab.routesToClients, position.logical == before { return }
        cursor.damage()
        let response = grab.motion(device: devicePosition, logical: (x, y), time: time)
        if response.contains(.deliver) { deliverMotion(time: time) }
        apply(response)
    }

    /// Motion for the surface under the pointer (the routing grabs' motion).
    func deliverMotion(time: UInt32) {
        updatePointerFocus()
        if let focus = pointerFocus {
            // Not `wlPointers(of:)`: motion is the hot path and its filtered array would be
            // allocated for every event.
            for p in wlPointers where p.client == focus.client {
                p.motion(time: time, x: x - focusOrigin.x, y: y - focusOrigin.y)
                p.frame()
            }
        }
        reevaluateConstraints()
    }

    private func setPointerOutside(_ outside: Bool) {
        guard outside != pointerOutside else { return }
        pointerOutside = outside
        cursor.follow((position.logical.x, position.logical.y), outside: outside)
        pointerInput(.outsideOutputs(outside))
        cursor.damage()
        // Clients hear wl_pointer.leave when the pointer goes and enter when it is back,
        // so their hover states end (unless a button holds the implicit grab).
        if pressedButtons.isEmpty, grab.routesToClients { updatePointerFocus() }
    }

    // MARK: Pointer focus

    /// The scene's change notification: the pointer's regions and the app's cursor are
    /// pushed before the next input or frame; a layout change re-evaluates what is under it.
    func sceneChanged(_ change: Scene.Change) {
        pointerWorldChanged(regions: true, cursor: true)
        guard change == .layout, grab.routesToClients else { return }
        let old = pointerFocus, oldLocal = focusedSurfaceLocal
        updatePointerFocus()
        // The surface under a still pointer moved: its client hears the new local position.
        if let focus = pointerFocus, focus === old, let local = focusedSurfaceLocal, let oldLocal, local != oldLocal {
            for p in wlPointers(of: focus) { p.motion(time: clock.now, x: local.x, y: local.y); p.frame() }
        }
        reevaluateConstraints()
    }

    func updatePointerFocus() {
        // While buttons are held the surface that got the press keeps the pointer.
        if !pressedButtons.isEmpty, let focus = pointerFocus, let (ox, oy) = scene.origin(of: focus) {
            focusOrigin = (Double(ox), Double(oy))
            return
        }
        // Off the outputs (the nested window lost the parent's pointer) nothing is under it.
        var hit = pointerOutside ? nil : scene.surfaceAt(x: x, y: y)
        if let h = hit, !grab.mayFocus(h.surface) { hit = nil }
        if hit?.surface !== pointerFocus {
            setPointerFocus(hit?.surface)
            if let h = hit {
                focusOrigin = (x - h.sx, y - h.sy)
                let s = serial()
                for p in wlPointers(of: h.surface) { p.enter(serial: s, surface: h.surface, x: h.sx, y: h.sy); p.frame() }
            }
        } else if let h = hit {
            focusOrigin = (x - h.sx, y - h.sy)
        }
    }

    /// Leaves the old focus (its client hears leave) and forgets its cursor choice.
    func setPointerFocus(_ surface: WlSurface?) {
        if let old = pointerFocus {
            let s = serial()
            for p in wlPointers(of: old) { p.leave(serial: s, surface: old); p.frame() }
        }
        pointerFocus = surface
        cursor.reset()
        pointerWorldChanged(cursor: true)
    }

    /// A surface went away: nothing of the seat's may point at it.
    func surfaceDestroyed(_ surface: WlSurface) {
        if pointerFocus === surface { pointerFocus = nil; cursor.reset(); pointerWorldChanged(cursor: true) }
        if keyboard.surfaceDestroyed(surface) {
            shortcutsInhibitors.focusChanged()
            selection.keyboardFocusChanged(to: nil)
            primarySelection.keyboardFocusChanged(to: nil)
            textInputs.focusedSurfaceDestroyed()
        }
        if cursor.surfaceDestroyed(surface) { pointerWorldChanged(cursor: true) }
        if grab.surfaceDestroyed(surface) { endGrab() }
        touchscreen?.surfaceDestroyed(surface)
    }
}
