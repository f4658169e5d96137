import CInput
import LodestoneCompositor
import Glibc
import LodestoneSystem
import WaylandServer

/// A libinput context (`struct libinput *`): a udev one for a seat's devices, opened through
/// the session, or a path context (tests: one with no devices is created and destroyed for
/// real). Its fd joins the event loop; every event is read into a `LibinputEvent` (plain
/// values), translated by `LibinputTranslator` and handed to `Seat.handle`.
public final class LibinputContext {
    /// The `struct libinput *`.
    let pointer: OpaquePointer
    private let udev: OpaquePointer?
    /// Opens and closes device nodes for libinput: through the session (libseat) or plainly.
    private let opener: DeviceOpener
    private var translator = LibinputTranslator()
    private var bindings = TTYKeyBindings()
    /// Ctrl+Alt+F<n> (see `TTYKeyBindings`): the backend asks the session for VT n.
    public var switchToVT: (Int) -> Void = { _ in }
    private var source: EventSource?

    /// How libinput's devices are opened: libseat on a TTY, `open(2)` for path contexts.
    public protocol DeviceOpener: AnyObject {
        func open(path: String, flags: Int32) -> Int32
        func close(fd: Int32)
    }

    /// `open(2)` and `close(2)`: enough for a path context.
    public final class PlainOpener: DeviceOpener {
        public init() {}
        public func open(path: String, flags: Int32) -> Int32 { let fd = Glibc.open(path, flags | O_CLOEXEC); return fd < 0 ? -lastErrno : fd }
        public func close(fd: Int32) { _ = Glibc.close(fd) }
    }

    /// A path context with no devices (`libinput_path_create_context`); devices could be added by path.
    public init(pathContextWith opener: DeviceOpener = PlainOpener()) throws(SystemError) {
        self.opener = opener
        udev = nil
        let box = Unmanaged.passUnretained(opener as AnyObject).toOpaque()
        guard let li = libinput_path_create_context(libinputInterface, box) else {
            throw SystemError("libinput could not create a path context")
        }
        pointer = li
    }

    /// A udev context on `seat` (`libinput_udev_create_context` + `assign_seat`): every input
    /// device of the seat, opened through `opener`.
    public init(seat: String, opener: DeviceOpener) throws(SystemError) {
        self.opener = opener
        guard let udev = udev_new() else { throw SystemError("udev_new failed: no udev") }
        self.udev = udev
        let box = Unmanaged.passUnretained(opener as AnyObject).toOpaque()
        guard let li = libinput_udev_create_context(libinputInterface, box, udev) else {
            udev_unref(udev)
            throw SystemError("libinput could not create a udev context")
        }
        pointer = li
        guard libinput_udev_assign_seat(li, seat) == 0 else {
            throw SystemError("libinput could not assign seat '\(seat)' (udev saw no devices for it)")
        }
    }

    deinit {
        source?.remove()
        libinput_unref(pointer)
        if let udev { udev_unref(udev) }
    }

    /// Reads events when libinput's fd is readable; positions are mapped onto the output's
    /// logical size.
    public func attach(to loop: EventLoop, seat: Seat, output: @escaping () -> (width: Double, height: Double), clock: FrameClock) throws(SystemError) {
        source = try loop.addFileDescriptor(libinput_get_fd(pointer)) { [unowned self, unowned seat] _ in
            let size = output()
            self.dispatch(width: size.width, height: size.height) { event in seat.handle(event, at: clock.now) }
        }
        let size = output()
        dispatch(width: size.width, height: size.height) { seat.handle($0, at: clock.now) }  // devices added before the loop ran
    }

    /// Called with the kernel's time (CLOCK_MONOTONIC µs) of each pointer motion, before it is
    /// delivered (`--stats`: motion → page flip).
    var motionTime: ((UInt64) -> Void)?

    /// Drains libinput's queue, translating each event.
    func dispatch(width: Double = 1280, height: Double = 800, _ deliver: (InputEvent) -> Void) {
        libinput_dispatch(pointer)
        while let event = libinput_get_event(pointer) {
            defer { libinput_event_destroy(event) }
            if let motionTime {
                let type = libinput_event_get_type(event)
                if type == LIBINPUT_EVENT_POINTER_MOTION || type == LIBINPUT_EVENT_POINTER_MOTION_ABSOLUTE {
                    motionTime(libinput_event_pointer_get_time_usec(libinput_event_get_pointer_event(event)))
                }
            }
            guard let values = Self.read(event, width: width, height: height) else { continue }
            if case .keyboardKey(let key, let pressed) = values {
                switch bindings.key(key, pressed: pressed) {
                case .deliver: break
                case .switchToVT(let vt): switchToVT(vt); continue
                case .swallow: continue
                }
            }
            for e in translator.translate(values) { deliver(e) }
        }
    }

    /// The session paused (VT switch away) or resumed: devices are released and taken again.
    public func suspend() { libinput_suspend(pointer) }
    public func resume() { _ = libinput_resume(pointer) }

    // MARK: Reading events (C → plain values)

    static func deviceKind(_ event: OpaquePointer) -> LibinputDeviceKind {
        guard let device = libinput_event_get_device(event) else { return .mouse }
        return LibinputDeviceKind(gestureCapability: libinput_device_has_capability(device, LIBINPUT_DEVICE_CAP_GESTURE) != 0,
                                  tapFingerCount: libinput_device_config_tap_get_finger_count(device))
    }

    /// One event's values, or nil for events Lodestone does not use (switches, pads).
    static func read(_ event: OpaquePointer, width: Double, height: Double) -> LibinputEvent? {
        let type = libinput_event_get_type(event)
        switch type {
        case LIBINPUT_EVENT_DEVICE_ADDED, LIBINPUT_EVENT_DEVICE_REMOVED:
            // The device is still valid while its removed event is read.
            let touch = libinput_event_get_device(event).map { libinput_device_has_capability($0, LIBINPUT_DEVICE_CAP_TOUCH) != 0 } ?? false
            return type == LIBINPUT_EVENT_DEVICE_ADDED ? .deviceAdded(touch: touch) : .deviceRemoved(touch: touch)
        case LIBINPUT_EVENT_POINTER_MOTION:
            let p = libinput_event_get_pointer_event(event)
            return .pointerMotion(dx: libinput_event_pointer_get_dx(p), dy: libinput_event_pointer_get_dy(p), device: deviceKind(event))
        case LIBINPUT_EVENT_POINTER_MOTION_ABSOLUTE:
            let p = libinput_event_get_pointer_event(event)
            return .pointerMotionAbsolute(x: libinput_event_pointer_get_absolute_x_transformed(p, UInt32(width)),
                                          y: libinput_event_pointer_get_absolute_y_transformed(p, UInt32(height)), device: deviceKind(event))
        case LIBINPUT_EVENT_POINTER_BUTTON:
            let p = libinput_event_get_pointer_event(event)
            return .pointerButton(button: libinput_event_pointer_get_button(p),
                                  pressed: libinput_event_pointer_get_button_state(p) == LIBINPUT_BUTTON_STATE_PRESSED, device: deviceKind(event))
        case LIBINPUT_EVENT_POINTER_SCROLL_WHEEL, LIBINPUT_EVENT_POINTER_SCROLL_FINGER, LIBINPUT_EVENT_POINTER_SCROLL_CONTINUOUS:
            let p = libinput_event_get_pointer_event(event)
            let source: LibinputEvent.ScrollSource = type == LIBINPUT_EVENT_POINTER_SCROLL_WHEEL ? .wheel
                : type == LIBINPUT_EVENT_POINTER_SCROLL_FINGER ? .finger : .continuous
            let v = LIBINPUT_POINTER_AXIS_SCROLL_VERTICAL, h = LIBINPUT_POINTER_AXIS_SCROLL_HORIZONTAL
            let hasV = libinput_event_pointer_has_axis(p, v) != 0, hasH = libinput_event_pointer_has_axis(p, h) != 0
            return .pointerScroll(source: source,
                                  vertical: hasV ? libinput_event_pointer_get_scroll_value(p, v) : nil,
                                  horizontal: hasH ? libinput_event_pointer_get_scroll_value(p, h) : nil,
                                  v120Vertical: hasV && source == .wheel ? libinput_event_pointer_get_scroll_value_v120(p, v) : 0,
                                  v120Horizontal: hasH && source == .wheel ? libinput_event_pointer_get_scroll_value_v120(p, h) : 0,
                                  device: deviceKind(event))
        case LIBINPUT_EVENT_KEYBOARD_KEY:
            let k = libinput_event_get_keyboard_event(event)
            return .keyboardKey(key: libinput_event_keyboard_get_key(k), pressed: libinput_event_keyboard_get_key_state(k) == LIBINPUT_KEY_STATE_PRESSED)
        case LIBINPUT_EVENT_TOUCH_DOWN, LIBINPUT_EVENT_TOUCH_MOTION:
            let t = libinput_event_get_touch_event(event)
            let slot = libinput_event_touch_get_seat_slot(t)
            let x = libinput_event_touch_get_x_transformed(t, UInt32(width)), y = libinput_event_touch_get_y_transformed(t, UInt32(height))
            return type == LIBINPUT_EVENT_TOUCH_DOWN ? .touchDown(slot: slot, x: x, y: y) : .touchMotion(slot: slot, x: x, y: y)
        case LIBINPUT_EVENT_TOUCH_UP:
            return .touchUp(slot: libinput_event_touch_get_seat_slot(libinput_event_get_touch_event(event)))
        case LIBINPUT_EVENT_TOUCH_CANCEL: return .touchCancel
        case LIBINPUT_EVENT_GESTURE_SWIPE_BEGIN, LIBINPUT_EVENT_GESTURE_PINCH_BEGIN, LIBINPUT_EVENT_GESTURE_HOLD_BEGIN:
            let fingers = libinput_event_gesture_get_finger_count(libinput_event_get_gesture_event(event))
            return type == LIBINPUT_EVENT_GESTURE_SWIPE_BEGIN ? .gestureSwipeBegin(fingers: fingers)
                : type == LIBINPUT_EVENT_GESTURE_PINCH_BEGIN ? .gesturePinchBegin(fingers: fingers) : .gestureHoldBegin(fingers: fingers)
        case LIBINPUT_EVENT_GESTURE_SWIPE_UPDATE:
            let g = libinput_event_get_gesture_event(event)
            return .gestureSwipeUpdate(dx: libinput_event_gesture_get_dx(g), dy: libinput_event_gesture_get_dy(g))
        case LIBINPUT_EVENT_GESTURE_PINCH_UPDATE:
            let g = libinput_event_get_gesture_event(event)
            return .gesturePinchUpdate(dx: libinput_event_gesture_get_dx(g), dy: libinput_event_gesture_get_dy(g),
                                       scale: libinput_event_gesture_get_scale(g), angleDelta: libinput_event_gesture_get_angle_delta(g))
        case LIBINPUT_EVENT_GESTURE_SWIPE_END, LIBINPUT_EVENT_GESTURE_PINCH_END, LIBINPUT_EVENT_GESTURE_HOLD_END:
            let cancelled = libinput_event_gesture_get_cancelled(libinput_event_get_gesture_event(event)) != 0
            return type == LIBINPUT_EVENT_GESTURE_SWIPE_END ? .gestureSwipeEnd(cancelled: cancelled)
                : type == LIBINPUT_EVENT_GESTURE_PINCH_END ? .gesturePinchEnd(cancelled: cancelled) : .gestureHoldEnd(cancelled: cancelled)
        case LIBINPUT_EVENT_TABLET_TOOL_PROXIMITY, LIBINPUT_EVENT_TABLET_TOOL_AXIS, LIBINPUT_EVENT_TABLET_TOOL_TIP, LIBINPUT_EVENT_TABLET_TOOL_BUTTON:
            let t = libinput_event_get_tablet_tool_event(event)
            let tool = libinput_event_tablet_tool_get_tool(t)
            let kind = UInt32(libinput_tablet_tool_get_type(tool).rawValue), serial = libinput_tablet_tool_get_serial(tool)
            var axes = TabletToolAxes(x: libinput_event_tablet_tool_get_x_transformed(t, UInt32(width)),
                                      y: libinput_event_tablet_tool_get_y_transformed(t, UInt32(height)))
            if libinput_tablet_tool_has_pressure(tool) != 0 { axes.pressure = libinput_event_tablet_tool_get_pressure(t) }
            if libinput_tablet_tool_has_distance(tool) != 0 { axes.distance = libinput_event_tablet_tool_get_distance(t) }
            if libinput_tablet_tool_has_tilt(tool) != 0 { axes.tilt = (libinput_event_tablet_tool_get_tilt_x(t), libinput_event_tablet_tool_get_tilt_y(t)) }
            if libinput_tablet_tool_has_rotation(tool) != 0 { axes.rotation = libinput_event_tablet_tool_get_rotation(t) }
            switch type {
            case LIBINPUT_EVENT_TABLET_TOOL_PROXIMITY:
                return .tabletToolProximity(tool: kind, serial: serial,
                                            inProximity: libinput_event_tablet_tool_get_proximity_state(t) == LIBINPUT_TABLET_TOOL_PROXIMITY_STATE_IN, axes: axes)
            case LIBINPUT_EVENT_TABLET_TOOL_TIP:
                return .tabletToolTip(tool: kind, serial: serial, down: libinput_event_tablet_tool_get_tip_state(t) == LIBINPUT_TABLET_TOOL_TIP_DOWN, axes: axes)
            case LIBINPUT_EVENT_TABLET_TOOL_BUTTON:
                return .tabletToolButton(tool: kind, serial: serial, button: libinput_event_tablet_tool_get_button(t),
                                         pressed: libinput_event_tablet_tool_get_button_state(t) == LIBINPUT_BUTTON_STATE_PRESSED)
            default: return .tabletToolAxis(tool: kind, serial: serial, axes: axes)
            }
        default: return nil
        }
    }
}

/// libinput's `open_restricted` / `close_restricted`, handing off to the context's
/// `DeviceOpener` (user data). An immutable table for the life of the process.
private nonisolated(unsafe) let libinputInterface: UnsafeMutablePointer<libinput_interface> = {
    let table = UnsafeMutablePointer<libinput_interface>.allocate(capacity: 1)
    table.initialize(to: libinput_interface(
        open_restricted: { path, flags, data in
            guard let path, let data else { return -EINVAL }
            let opener = Unmanaged<AnyObject>.fromOpaque(data).takeUnretainedValue() as! LibinputContext.DeviceOpener
            return opener.open(path: String(cString: path), flags: flags)
        },
        close_restricted: { fd, data in
            guard let data else { return }
            (Unmanaged<AnyObject>.fromOpaque(data).takeUnretainedValue() as! LibinputContext.DeviceOpener).close(fd: fd)
        }))
    return table
}()
