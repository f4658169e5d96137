import CWaylandClient
import Compositor
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
///   an arrow or the edge's resize cursor (`ParentCursor`).
/// - Keyboard: the parent's keymap, modifiers and repeat rate become the
///   nested seat's, so clients inside type what the user's layout says.
final class ParentInput {
    private let seat: Proxy
    private let relativePointerManager: Proxy?
    private unowned let window: ParentWindow
    private unowned let target: Seat
    private let clock: FrameClock
    private let log: Logger
    private var pointer: Proxy?
    private var relativePointer: Proxy?
    private let pointerGestures: Proxy?
    private let tabletManager: Proxy?
    /// The swipe, pinch and hold objects for `pointer`.
    private var gestureObjects: [Proxy] = []
    private var tabletSeat: Proxy?
    /// The parent's tablets and tools (tablets are kept only to destroy them).
    private var tablets: [Proxy] = []
    private var tools: [ObjectIdentifier: ParentTool] = [:]
    private var keyboard: Proxy?
    /// Keys we pressed in the nested seat, released if the parent takes the keyboard away.
    private var pressedKeys: Set<UInt32> = []
    private var frame = PointerFrame()
    /// The parent's pointer is over our own title bar or its resize margin.
    private var onTitleBar = false
    /// The serial of the pointer's last enter, for the cursor.
    private var enterSerial: UInt32 = 0
    private var cursor: ParentCursor?
    /// The parent's cursor over the output (`ParentPointerPlane`).
    var cursorPlane: ParentPointerPlane?
    private let globals: ParentGlobals

    /// Pointer events between two `wl_pointer.frame`s.
    private struct PointerFrame {
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

    private func capabilitiesChanged(_ caps: UInt32) {
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
    private func getPointer() {
        let seat = seat, connection = seat.connection
        do {
            let p = try Proxy(creating: { wl_seat_get_pointer(seat.pointer) }, on: connection, what: "wl_seat.get_pointer")
            p.handleEvents(PointerEvent.self) { [unowned self] in self.pointerEvent($0) }
            pointer = p
            cursor = ParentCursor(pointer: p, globals: globals, logger: log)
        } catch {
            log.error("no pointer input from the parent: \(error)")
            return
        }
        getGestures()
        guard let manager = relativePointerManager, let p = pointer else { return }
        do {
            let r = try Proxy(creating: { zwp_relative_pointer_manager_v1_get_relative_pointer(manager.pointer, p.pointer) },
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

    private func getKeyboard() {
        let seat = seat
        do {
            let k = try Proxy(creating: { wl_seat_get_keyboard(seat.pointer) }, on: seat.connection, what: "wl_seat.get_keyboard")
            k.handleEvents(KeyboardEvent.self) { [unowned self] in self.keyboardEvent($0) }
            keyboard = k
        } catch {
            log.error("no keyboard input from the parent: \(error)")
        }
    }

    private func releasePointer() {
        cursor = nil
        cursorPlane?.pointerReleased()
        onTitleBar = false
        guard let p = pointer else { return }
        if p.version >= 3 { p.destroy { wl_pointer_release($0) } }
        pointer = nil
    }

    private func releaseKeyboard() {
        guard let k = keyboard else { return }
        if k.version >= 3 { k.destroy { wl_keyboard_release($0) } }
        keyboard = nil
    }

    // MARK: Pointer

    private func pointerEvent(_ event: PointerEvent) {
        if titleBarEvent(event) { return }
        switch event {
        case .enter(let serial, let surface, let x, let y):
            guard surface == window.surface.pointer else { return }
            // The parent's cursor is the plain pointer, or hidden while Lodestone draws it.
            if let p = pointer { cursorPlane?.entered(p, serial: serial) }
            frame.position = (x, y)
            frame.presence = true
        case .leave(_, let surface):  // the user's pointer is elsewhere, so ours must not show
            guard surface == window.surface.pointer else { return }
            cursorPlane?.left()
            frame.presence = false
        case .motion(_, let x, let y): frame.position = (x, y)
        case .button(_, _, let button, let state):
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

    /// Handles `event` when it belongs to our own title bar; false for the output's events.
    private func titleBarEvent(_ event: PointerEvent) -> Bool {
        guard let bar = window.titleBar else { return false }
        switch event {
        case .enter(let serial, let surface, let x, let y):
            guard surface == bar.surface.pointer else { return false }
            onTitleBar = true
            enterSerial = serial
            _ = bar.pointerMoved(x: x, y: y)
            updateCursor(bar)
        case .leave(_, let surface):
            guard surface == bar.surface.pointer else { return false }
            onTitleBar = false
            bar.pointerLeft()
        case .motion(_, let x, let y) where onTitleBar:
            if let (action, serial) = bar.pointerMoved(x: x, y: y) { window.perform(action, seat: seat, serial: serial) }
            updateCursor(bar)
        case .button(let serial, let time, let button, let state) where onTitleBar:
            if let (action, serial) = bar.button(button, pressed: state == WL_POINTER_BUTTON_STATE_PRESSED.rawValue, time: time, serial: serial) {
                window.perform(action, seat: seat, serial: serial)
            }
        case .frame:
            // A frame may close the output's leave as the bar's enter opens.
            return false
        case .axis, .axisSource, .axisStop, .axisDiscrete, .axisValue120, .motion, .button:
            // Scrolling over the bar does nothing.
            return onTitleBar
        }
        return true
    }

    private func updateCursor(_ bar: ParentTitleBar) {
        let name: ParentCursor.Name
        switch bar.part(atX: bar.pointer.x, y: bar.pointer.y) {
        case .edge(let edge)?: name = .resize(edge)
        default: name = .arrow
        }
        cursor?.show(name, serial: enterSerial, scale: window.scale.ceiling)
        seat.connection.flush()
    }

    private func relativeMotion(dx: Double, dy: Double) {
        // Over our title bar the hand moves the parent's pointer, not ours.
        guard !onTitleBar else { return }
        let r = frame.relative ?? (0, 0)
        frame.relative = (r.dx + dx, r.dy + dy)
    }

    private func applyFrame() {
        let f = frame
        frame = PointerFrame()
        guard !f.isEmpty else { return }
        if f.presence == false { send(.pointerLeftOutputs) }
        switch (f.position, f.relative) {
        case (let p?, let r?): send(.pointerMotion(.absoluteWithDelta(x: p.x, y: p.y, dx: r.dx, dy: r.dy)))
        case (let p?, nil): send(.pointerMotion(.absolute(x: p.x, y: p.y)))
        case (nil, let r?): send(.pointerMotion(.relative(dx: r.dx, dy: r.dy)))
        case (nil, nil): break
        }
        // Shown only after the move, so it fades in where it entered, not where it left.
        if f.presence == true { send(.pointerEnteredOutputs) }
        for b in f.buttons { send(.pointerButton(button: b.button, pressed: b.pressed)) }
        // Scrolling with fingers means a trackpad, with a wheel a mouse: the adaptive pointer
        // hides sooner after a trackpad.
        if !f.axes.isEmpty, f.source == WL_POINTER_AXIS_SOURCE_FINGER.rawValue { send(.pointerDevice(.trackpad)) }
        if !f.axes.isEmpty, f.source == WL_POINTER_AXIS_SOURCE_WHEEL.rawValue { send(.pointerDevice(.mouse)) }
        for (axis, v) in f.axes.sorted(by: { $0.key < $1.key }) {
            // A stop is a zero value (the seat sends axis_stop for it).
            send(.pointerAxis(PointerAxis(axis: axis, value: v.stop && v.value == 0 ? 0 : v.value, discrete: v.discrete, source: f.source)))
        }
    }

    // MARK: Gestures

    /// Swipe, pinch and (version 3) hold objects for the pointer; their events arrive already
    /// grouped, each one an `InputEvent` at once.
    private func getGestures() {
        guard let manager = pointerGestures, let p = pointer else { return }
        var kinds: [(PointerGestureEvent.Kind, () -> OpaquePointer?)] = [
            (.swipe, { zwp_pointer_gestures_v1_get_swipe_gesture(manager.pointer, p.pointer) }),
            (.pinch, { zwp_pointer_gestures_v1_get_pinch_gesture(manager.pointer, p.pointer) }),
        ]
        if manager.version >= 3 { kinds.append((.hold, { zwp_pointer_gestures_v1_get_hold_gesture(manager.pointer, p.pointer) })) }
        for (kind, create) in kinds {
            do {
                let g = try Proxy(creating: create, on: manager.connection, what: "zwp_pointer_gestures_v1.get_\(kind)_gesture")
                g.onEvent = { [unowned self] opcode, a in
                    if let event = PointerGestureEvent(kind: kind, opcode: opcode, arguments: a) { self.gestureEvent(kind, event) }
                }
                gestureObjects.append(g)
            } catch {
                log.error("no \(kind) gestures from the parent: \(error)")
            }
        }
    }

    private func gestureEvent(_ kind: PointerGestureEvent.Kind, _ event: PointerGestureEvent) {
        switch (kind, event) {
        case (.swipe, .begin(_, _, _, let fingers)): send(.gesture(.swipeBegin(fingers: fingers)))
        case (.swipe, .update(_, let dx, let dy, _, _)): send(.gesture(.swipeUpdate(dx: dx, dy: dy)))
        case (.swipe, .end(_, _, let cancelled)): send(.gesture(.swipeEnd(cancelled: cancelled)))
        case (.pinch, .begin(_, _, _, let fingers)): send(.gesture(.pinchBegin(fingers: fingers)))
        case (.pinch, .update(_, let dx, let dy, let scale, let rotation)):
            send(.gesture(.pinchUpdate(dx: dx, dy: dy, scale: scale, rotation: rotation)))
        case (.pinch, .end(_, _, let cancelled)): send(.gesture(.pinchEnd(cancelled: cancelled)))
        case (.hold, .begin(_, _, _, let fingers)): send(.gesture(.holdBegin(fingers: fingers)))
        case (.hold, .end(_, _, let cancelled)): send(.gesture(.holdEnd(cancelled: cancelled)))
        case (.hold, .update): break
        }
    }

    private func releaseGestures() {
        for g in gestureObjects {
            // Each interface's destroy is opcode 0; the typed C wrappers differ only in name.
            g.destroy { zwp_pointer_gesture_swipe_v1_destroy($0) }
        }
        gestureObjects.removeAll()
    }

    // MARK: Tablets

    /// One parent tool: what it is, and the events of the frame being collected.
    private final class ParentTool {
        let proxy: Proxy
        var kind = TabletTool.Kind.pen
        var serial: UInt64 = 0
        /// The current axes (kept across frames: the parent sends only changes).
        var axes = TabletToolAxes(x: 0, y: 0)
        var over = false
        // This frame:
        var proximityIn = false, proximityOut = false, down = false, up = false, moved = false
        var buttons: [(UInt32, Bool)] = []
        init(_ proxy: Proxy) { self.proxy = proxy }
        var tool: TabletTool { TabletTool(kind: kind, serial: serial) }
    }

    private func getTabletSeat() {
        guard let manager = tabletManager else { return }
        let seat = seat
        do {
            let s = try Proxy(creating: { zwp_tablet_manager_v2_get_tablet_seat(manager.pointer, seat.pointer) }, on: seat.connection,
                              what: "zwp_tablet_manager_v2.get_tablet_seat")
            // The connection, not `s`: the handler `s` keeps must not keep `s` (LeakSanitizer
            // found the cycle when the parent's window closed).
            let connection = s.connection
            s.handleEvents(TabletSeatEvent.self) { [unowned self] event in
                switch event {
                case .tabletAdded(let t): self.tablets.append(Proxy(t, on: connection))
                case .toolAdded(let t):
                    let tool = ParentTool(Proxy(t, on: connection))
                    self.tools[ObjectIdentifier(tool)] = tool
                    tool.proxy.handleEvents(TabletToolProxyEvent.self) { [unowned self, unowned tool] in self.toolEvent(tool, $0) }
                case .padAdded(let p):  // pads (rings, strips) are not forwarded
                    Proxy(p, on: connection).destroy { zwp_tablet_pad_v2_destroy($0) }
                }
            }
            tabletSeat = s
        } catch {
            log.error("no tablet input from the parent: \(error)")
        }
    }

    private func toolEvent(_ tool: ParentTool, _ event: TabletToolProxyEvent) {
        switch event {
        case .type(let type): tool.kind = TabletTool.Kind(rawValue: type) ?? .pen
        case .hardwareSerial(let hi, let lo): tool.serial = UInt64(hi) << 32 | UInt64(lo)
        case .hardwareIDWacom, .capability, .done, .slider, .wheel: break
        case .removed:
            tools[ObjectIdentifier(tool)] = nil
            tool.proxy.destroy { zwp_tablet_tool_v2_destroy($0) }
        case .proximityIn(_, _, let surface):
            guard surface == window.surface.pointer else { return }
            tool.proximityIn = true
            tool.over = true
        case .proximityOut: tool.proximityOut = true
        case .down: tool.down = true
        case .up: tool.up = true
        case .motion(let x, let y): tool.axes.x = x; tool.axes.y = y; tool.moved = true
        case .pressure(let p): tool.axes.pressure = Double(p) / 65535; tool.moved = true
        case .distance(let d): tool.axes.distance = Double(d) / 65535; tool.moved = true
        case .tilt(let x, let y): tool.axes.tilt = (x, y); tool.moved = true
        case .rotation(let r): tool.axes.rotation = r; tool.moved = true
        case .button(_, let button, let state): tool.buttons.append((button, state == ZWP_TABLET_TOOL_V2_BUTTON_STATE_PRESSED.rawValue))
        case .frame: toolFrame(tool)
        }
    }

    /// A tool's frame, in the order the seat expects: proximity, axes or the tip, buttons, leaving.
    private func toolFrame(_ tool: ParentTool) {
        defer {
            tool.proximityIn = false; tool.proximityOut = false; tool.down = false; tool.up = false; tool.moved = false
            tool.buttons = []
        }
        guard tool.over else { return }
        let t = tool.tool
        if tool.proximityIn { send(.tabletTool(.proximityIn(t, tool.axes))) }
        if tool.down { send(.tabletTool(.tip(t, down: true, tool.axes))) }
        else if tool.up { send(.tabletTool(.tip(t, down: false, tool.axes))) }
        else if tool.moved && !tool.proximityIn { send(.tabletTool(.axes(t, tool.axes))) }
        for (button, pressed) in tool.buttons { send(.tabletTool(.button(t, button: button, pressed: pressed))) }
        if tool.proximityOut {
            send(.tabletTool(.proximityOut(t)))
            tool.over = false
        }
    }

    // MARK: Keyboard

    private func keyboardEvent(_ event: KeyboardEvent) {
        switch event {
        case .keymap(let format, let fd, let size): keymapReceived(format: format, fd: fd, size: size)
        case .enter: break  // keys already down were pressed elsewhere; modifiers follow
        case .leave: keyboardLeft()
        case .key(_, _, let key, let state):
            let pressed = state == WL_KEYBOARD_KEY_STATE_PRESSED.rawValue
            if pressed { pressedKeys.insert(key) } else if pressedKeys.remove(key) == nil { return }
            send(.key(code: key, pressed: pressed))
        case .modifiers(_, let depressed, let latched, let locked, let group):
            send(.modifiers(depressed: depressed, latched: latched, locked: locked, group: group))
        case .repeatInfo(let rate, let delay): target.keyboard.setKeyRepeat(rate: rate, delay: delay)
        }
    }

    private func keymapReceived(format: UInt32, fd: Int32, size: UInt32) {
        defer { close(fd) }
        guard format == WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1.rawValue, size > 1 else {
            log.notice("the parent sent no xkb keymap; keeping the default layout")
            return
        }
        // Reading a mapping past the end of its file is SIGBUS (issue 24: a parent that
        // claimed more bytes than its keymap file had crashed Lodestone); a pipe has no size.
        var status = stat()
        guard fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, Int(size) <= status.st_size else {
            log.error("the parent's keymap claims \(size) bytes, but its file has \(status.st_size) (or is not a file); keeping the default layout")
            return
        }
        // Since wl_seat 7 the fd must be mapped private.
        guard let map = mmap(nil, Int(size), PROT_READ, MAP_PRIVATE, fd, 0), map != MAP_FAILED else {
            log.error("cannot map the parent's keymap: \(String(cString: strerror(errno)))")
            return
        }
        defer { munmap(map, Int(size)) }
        let bytes = UnsafeRawBufferPointer(start: map, count: Int(size))
        let text = String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        if target.keyboard.useKeymap(text: text) {
            log.debug("using the parent's keymap (\(size) bytes)")
        } else {
            log.error("the parent's keymap does not compile; keeping the default layout")
        }
    }

    /// The parent took the keyboard away: keys held now will never be
    /// released to us, so release them in the nested session.
    private func keyboardLeft() {
        for key in pressedKeys.sorted() { send(.key(code: key, pressed: false)) }
        pressedKeys.removeAll()
    }

    /// Everything the parent says reaches the seat as an `InputEvent`, at our clock's time.
    private func send(_ event: InputEvent) { target.handle(event, at: clock.now) }
}
