import CWaylandClient
import LodestoneCompositor
import Glibc
import Logging
import WaylandClient

/// Input from the parent's `wl_seat`, turned into `InputEvent`s for Lodestone's seat.
///
/// - Pointer: events are grouped by `wl_pointer.frame` (seat 5+) and applied
///   together, so an axis event carries its source and discrete steps. Over
///   the window the parent's cursor is hidden: only Lodestone's own (adaptive)
///   pointer shows. Window-local coordinates are the nested output's global
///   logical coordinates.
///   Off the window (leave) Lodestone's pointer hides until the next enter,
///   so it never stays drawn where the user's pointer left.
/// - Relative motion (`zwp_relative_pointer_v1`, when the parent has it)
///   moves the pointer when a frame has no absolute motion: the parent's
///   pointer is held at a screen edge or confined, but the hand still moves.
///   With absolute motion it still reaches relative listeners inside.
/// - Lodestone's own title bar (`ParentTitleBar`, when the parent draws none): its
///   pointer events never reach the seat; presses there move, resize, maximize,
///   minimize or close the window through the parent, and the parent's cursor shows
///   an arrow or the edge's resize cursor (`ParentDecorationCursor`).
/// - Keyboard: the parent's keymap, modifiers and repeat rate become the
///   nested seat's, so clients inside type what the user's layout says.
final class ParentInput {
    let seat: Proxy
    let relativePointerManager: Proxy?
    unowned let window: ParentWindow
    unowned let target: Seat
    let clock: FrameClock
    let log: Logger
    var pointer: Proxy?
    var relativePointer: Proxy?
    let pointerGestures: Proxy?
    let tabletManager: Proxy?
    /// The swipe, pinch and hold objects for `pointer`.
    var gestureObjects: [Proxy] = []
    var tabletSeat: Proxy?
    /// The parent's tablets and tools (tablets are kept only to destroy them).
    var tablets: [Proxy] = []
    var tools: [ObjectIdentifier: ParentTool] = [:]
    var keyboard: Proxy?
    /// Keys we pressed in the nested seat, released if the parent takes the keyboard away.
    var pressedKeys: Set<UInt32> = []
    var frame = PointerFrame()
    /// The parent's pointer is over our own title bar or its resize margin.
    var onTitleBar = false
    /// The serial of the pointer's last enter, for the cursor.
    var enterSerial: UInt32 = 0
    var cursor: ParentDecorationCursor?
    /// The parent's cursor over the output (`ParentPointerPlane`).
    var cursorPlane: ParentPointerPlane?
    let globals: ParentGlobals
    /// The parent's keyboard came (with its serial) or went (nil), or a key or button gave
    /// a newer input serial: what the parent's selection may be set with (`ParentSelection`).
    var keyboardSerial: ((UInt32?) -> Void)?
    var hasKeyboardFocus = false
    /// Buttons held on our window, and the serial of the last press there.
    var heldButtons: Set<UInt32> = []
    var buttonSerial: UInt32 = 0
    /// The pointer left the window with a button held (the parent's implicit grab still
    /// reports it): a drag inside may carry on in the parent with this press's serial. True
    /// when it did: the parent has the pointer now, and the held buttons are let go inside.
    var pointerLeftWindowHeld: ((UInt32) -> Bool)?

    /// Pointer events between two `wl_pointer.frame`s.
    struct PointerFrame {
        var position: (x: Double, y: Double)?
        var relative: (dx: Double, dy: Double)?
        /// The pointer entered (true) or left (false) the window.
        var presence: Bool?
        var buttons: [(button: UInt32, pressed: Bool)] = []
        var source: UInt32 = WL_POINTER_AXIS_SOURCE_WHEEL.rawValue
        /// Per axis (0 vertical, 1 horizontal): value, discrete steps, stop.
        var axes: [UInt32: (value: Double, discrete: Int32, stop: Bool)] = [:]
        var isEmpty: Bool { position == nil && relative == nil && presence == nil && buttons.isEmpty && axes.isEmpty }
        /// Wheel steps add up within a frame, saturating: the parent's numbers are not ours to trust.
        mutating func addSteps(_ steps: Int32, on axis: UInt32) {
            axes[axis, default: (0, 0, false)].discrete = axes[axis, default: (0, 0, false)].discrete.clampedAdding(steps)
        }
    }

    init(seat: Proxy, globals: ParentGlobals, window: ParentWindow, target: Seat, clock: FrameClock, logger: Logger) {
        self.clock = clock
        self.seat = seat
        relativePointerManager = globals.relativePointerManager
        pointerGestures = globals.pointerGestures
        tabletManager = globals.tabletManager
        self.globals = globals
        self.window = window
        self.target = target
        log = logger
        seat.handleEvents(SeatEvent.self) { [unowned self] event in
            switch event {
            case .capabilities(let caps): self.capabilitiesChanged(caps)
            case .name: break
            }
        }
    }

    deinit {
        releaseGestures()
        for t in tools.values { t.proxy.destroy { zwp_tablet_tool_v2_destroy($0) } }
        for t in tablets { t.destroy { zwp_tablet_v2_destroy($0) } }
        tabletSeat?.destroy { zwp_tablet_seat_v2_destroy($0) }
        relativePointer?.destroy { zwp_relative_pointer_v1_destroy($0) }
        releasePointer()
        releaseKeyboard()
    }

    func capabilitiesChanged(_ caps: UInt32) {
        let hasPointer = caps & WL_SEAT_CAPABILITY_POINTER.rawValue != 0
        let hasKeyboard = caps & WL_SEAT_CAPABILITY_KEYBOARD.rawValue != 0
        if hasPointer && pointer == nil {
            getPointer()
        } else if !hasPointer && pointer != nil {
            relativePointer?.destroy { zwp_relative_pointer_v1_destroy($0) }
            relativePointer = nil
            releaseGestures()
            releasePointer()
        }
        // Tablets are a seat's whatever its capabilities say.
        if tabletSeat == nil, tabletManager != nil { getTabletSeat() }
        if hasKeyboard && keyboard == nil {
            getKeyboard()
        } else if !hasKeyboard && keyboard != nil {
            keyboardLeft()
            releaseKeyboard()
        }
    }

    // An event handler cannot throw: a device whose proxy cannot be made is
    // logged and left out; the other devices still work.

    /// The `wl_pointer`, and its relative pointer when the parent has the manager.
    func getPointer() {
        let seat = seat, connection = seat.connection
        do {
            let p = try Proxy(creating: { seat.request { wl_seat_get_pointer($0) } }, on: connection, what: "wl_seat.get_pointer")
            p.handleEvents(WlPointerEvent.self) { [unowned self] in self.pointerEvent($0) }
            pointer = p
            cursor = ParentDecorationCursor(pointer: p, globals: globals, logger: log)
        } catch {
            log.error("no pointer input from the parent: \(error)")
            return
        }
        getGestures()
        guard let manager = relativePointerManager, let p = pointer else { return }
        do {
            let r = try Proxy(creating: { manager.request(p) { zwp_relative_pointer_manager_v1_get_relative_pointer($0, $1) } },
                              on: connection, what: "zwp_relative_pointer_manager_v1.get_relative_pointer")
            r.handleEvents(RelativePointerEvent.self) { [unowned self] event in
                switch event {
                case .relativeMotion(_, let dx, let dy, _, _): self.relativeMotion(dx: dx, dy: dy)
                }
            }
            relativePointer = r
        } catch {
            log.error("no relative motion from the parent: \(error)")
        }
    }

    func getKeyboard() {
        let seat = seat
        do {
            let k = try Proxy(creating: { seat.request { wl_seat_get_keyboard($0) } }, on: seat.connection, what: "wl_seat.get_keyboard")
            k.handleEvents(KeyboardEvent.self) { [unowned self] in self.keyboardEvent($0) }
            keyboard = k
        } catch {
            log.error("no keyboard input from the parent: \(error)")
        }
    }

    func releasePointer() {
        cursor = nil
        cursorPlane?.pointerReleased()
        onTitleBar = false
        guard let p = pointer else { return }
        if p.version >= 3 { p.destroy { wl_pointer_release($0) } }
        pointer = nil
    }

    func releaseKeyboard() {
        guard let k = keyboard else { return }
        if k.version >= 3 { k.destroy { wl_keyboard_release($0) } }
        keyboard = nil
    }

    // MARK: Pointer

    func pointerEvent(_ event: WlPointerEvent) {
        if titleBarEvent(event) { return }
        switch event {
        case .enter(let serial, let surface, let x, let y):
            guard window.surface.isObject(surface) else { return }
            // The parent's cursor is the plain pointer, or hidden while Lodestone draws it.
            if let p = pointer { cursorPlane?.entered(p, serial: serial) }
            frame.position = (x, y)
            frame.presence = true
        case .leave(_, let surface):  // the user's pointer is elsewhere, so ours must not show
            guard window.surface.isObject(surface) else { return }
            cursorPlane?.left()
            frame.presence = false
        case .motion(_, let x, let y): frame.position = (x, y)
        case .button(let serial, _, let button, let state):
            if hasKeyboardFocus { keyboardSerial?(serial) }
            if state == WL_POINTER_BUTTON_STATE_PRESSED.rawValue { buttonSerial = serial }
            frame.buttons.append((button, state == WL_POINTER_BUTTON_STATE_PRESSED.rawValue))
        case .axis(_, let axis, let value): frame.axes[axis, default: (0, 0, false)].value += value
        case .frame: applyFrame(); return
        case .axisSource(let source): frame.source = source
        case .axisStop(_, let axis): frame.axes[axis, default: (0, 0, false)].stop = true
        case .axisDiscrete(let axis, let discrete): frame.addSteps(discrete, on: axis)
        case .axisValue120(let axis, let value120):  // whole steps only; a high-resolution wheel's fractions add up in `value`
            let steps = value120 / 120
            if steps != 0 { frame.addSteps(steps, on: axis) }
        }
        // Before wl_pointer 5 there are no frames: every event stands alone.
        if let p = pointer, p.version < 5 { applyFrame() }
    }

    func relativeMotion(dx: Double, dy: Double) {
        // Over our title bar the hand moves the parent's pointer, not ours.
        guard !onTitleBar else { return }
        let r = frame.relative ?? (0, 0)
        frame.relative = (r.dx + dx, r.dy + dy)
    }

    func applyFrame() {
        let f = frame
        frame = PointerFrame()
        guard !f.isEmpty else { return }
        if let p = f.position, !heldButtons.isEmpty, p.x < 0 || p.y < 0 || p.x >= Double(window.width) || p.y >= Double(window.height),
           pointerLeftWindowHeld?(buttonSerial) == true {
            for button in heldButtons.sorted() { send(.pointerButton(button: button, pressed: false)) }
            heldButtons = []
            return
        }
        if f.presence == false { send(.pointerLeftOutputs) }
        switch (f.position, f.relative) {
        case (let p?, let r?): send(.pointerMotion(.absoluteWithDelta(x: p.x, y: p.y, dx: r.dx, dy: r.dy)))
        case (let p?, nil): send(.pointerMotion(.absolute(x: p.x, y: p.y)))
        case (nil, let r?): send(.pointerMotion(.relative(dx: r.dx, dy: r.dy)))
        case (nil, nil): break
        }
        // Shown only after the move, so it fades in where it entered, not where it left.
        if f.presence == true { send(.pointerEnteredOutputs) }
        for b in f.buttons {
            if b.pressed { heldButtons.insert(b.button) } else { heldButtons.remove(b.button) }
            send(.pointerButton(button: b.button, pressed: b.pressed))
        }
        // Scrolling with fingers means a trackpad, with a wheel a mouse: the adaptive pointer
        // hides sooner after a trackpad.
        if !f.axes.isEmpty, f.source == WL_POINTER_AXIS_SOURCE_FINGER.rawValue { send(.pointerDevice(.trackpad)) }
        if !f.axes.isEmpty, f.source == WL_POINTER_AXIS_SOURCE_WHEEL.rawValue { send(.pointerDevice(.mouse)) }
        for (axis, v) in f.axes.sorted(by: { $0.key < $1.key }) {
            // A stop is a zero value (the seat sends axis_stop for it).
            send(.pointerAxis(PointerAxis(axis: axis, value: v.stop && v.value == 0 ? 0 : v.value, discrete: v.discrete, source: f.source)))
        }
    }

    /// Everything the parent says reaches the seat as an `InputEvent`, at our clock's time.
    func send(_ event: InputEvent) { target.handle(event, at: clock.now) }
}
