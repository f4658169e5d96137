import LodestoneCompositor

/// One libinput event reduced to plain values: what `LibinputDevices` reads through the C
/// API (`libinput_event_*_get_*`), and all the translation needs. Keeping the C reading and
/// the translation apart lets the translation be tested without devices (this machine and
/// CI have no /dev/input).
///
/// Positions are already in global logical coordinates (libinput's `*_transformed` with the
/// output's logical size); scroll values are libinput's (15 per wheel click).
public enum LibinputEvent: Equatable, Sendable {
    /// `LIBINPUT_EVENT_POINTER_MOTION`: libinput has applied the acceleration profile.
    case pointerMotion(dx: Double, dy: Double, device: LibinputDeviceKind)
    /// `LIBINPUT_EVENT_POINTER_MOTION_ABSOLUTE` (a VM's tablet-like pointer).
    case pointerMotionAbsolute(x: Double, y: Double, device: LibinputDeviceKind)
    case pointerButton(button: UInt32, pressed: Bool, device: LibinputDeviceKind)
    /// `LIBINPUT_EVENT_POINTER_SCROLL_WHEEL` / `_FINGER` / `_CONTINUOUS`: nil for an axis that
    /// did not change; `v120` only for wheels.
    case pointerScroll(source: ScrollSource, vertical: Double?, horizontal: Double?,
                       v120Vertical: Double = 0, v120Horizontal: Double = 0, device: LibinputDeviceKind)
    case keyboardKey(key: UInt32, pressed: Bool)
    case touchDown(slot: Int32, x: Double, y: Double)
    case touchMotion(slot: Int32, x: Double, y: Double)
    case touchUp(slot: Int32)
    /// `LIBINPUT_EVENT_TOUCH_CANCEL`: every point ends.
    case touchCancel
    /// `LIBINPUT_EVENT_DEVICE_ADDED` / `_REMOVED`; `touch`: the device has
    /// `LIBINPUT_DEVICE_CAP_TOUCH` (a touchscreen; touchpads are pointers).
    case deviceAdded(touch: Bool)
    case deviceRemoved(touch: Bool)
    case gestureSwipeBegin(fingers: Int32)
    case gestureSwipeUpdate(dx: Double, dy: Double)
    case gestureSwipeEnd(cancelled: Bool)
    case gesturePinchBegin(fingers: Int32)
    case gesturePinchUpdate(dx: Double, dy: Double, scale: Double, angleDelta: Double)
    case gesturePinchEnd(cancelled: Bool)
    case gestureHoldBegin(fingers: Int32)
    case gestureHoldEnd(cancelled: Bool)
    /// `LIBINPUT_EVENT_TABLET_TOOL_*`; `tool` is `libinput_tablet_tool_get_type` (1 pen,
    /// 2 eraser, ...).
    case tabletToolProximity(tool: UInt32, serial: UInt64, inProximity: Bool, axes: TabletToolAxes)
    case tabletToolAxis(tool: UInt32, serial: UInt64, axes: TabletToolAxes)
    case tabletToolTip(tool: UInt32, serial: UInt64, down: Bool, axes: TabletToolAxes)
    case tabletToolButton(tool: UInt32, serial: UInt64, button: UInt32, pressed: Bool)

    /// `libinput_pointer_axis_source` as the event type says it.
    public enum ScrollSource: Sendable { case wheel, finger, continuous }
}

/// What kind of pointing device an event came from: a touchpad hides the adaptive pointer
/// sooner (3.25 s) than a mouse (8 s).
public enum LibinputDeviceKind: Sendable, Equatable {
    case mouse, touchpad

    /// libinput has no "is a touchpad" call; a touchpad is what has the gesture capability
    /// (`libinput_device_has_capability(…, LIBINPUT_DEVICE_CAP_GESTURE)`) or can tap with a
    /// finger (`libinput_device_config_tap_get_finger_count` > 0: a touchpad too small or
    /// too old for gestures still taps). Mice, trackballs, trackpoints and tablets in mouse
    /// mode have neither.
    public init(gestureCapability: Bool, tapFingerCount: Int32) {
        self = gestureCapability || tapFingerCount > 0 ? .touchpad : .mouse
    }
}

/// Lodestone's own key bindings on a TTY, read from raw evdev codes before the keys reach
/// clients. There is one: Ctrl+Alt+F1…F12 switches virtual terminals (`libseat_switch_session`),
/// which the kernel no longer does once the compositor owns the VT. Codes, not keysyms, so it
/// works whatever layout the keymap has (as the kernel's own console binding does).
///
/// Key repeat: Wayland clients repeat keys themselves from `wl_keyboard.repeat_info`, so
/// Lodestone forwards each physical press and release exactly once and never synthesises
/// repeats. Its one binding acts on the press only and needs no repeat either.
public struct TTYKeyBindings: Sendable {
    /// evdev codes of the modifiers the binding needs (both sides).
    static let controls: Set<UInt32> = [29, 97], alts: Set<UInt32> = [56, 100]
    /// `KEY_F1`…`KEY_F10` are 59…68; `KEY_F11`, `KEY_F12` are 87, 88.
    static func functionKey(_ code: UInt32) -> Int? {
        switch code {
        case 59...68: return Int(code) - 58
        case 87, 88: return Int(code) - 76
        default: return nil
        }
    }

    private var held: Set<UInt32> = []
    /// Function keys whose press was a binding: their release is swallowed too, so the client
    /// never sees a release without its press.
    private var swallowed: Set<UInt32> = []

    public init() {}

    public enum Outcome: Equatable, Sendable {
        /// The key goes to the seat (and the focused client) as usual.
        case deliver
        /// Switch to this virtual terminal; the key is not delivered.
        case switchToVT(Int)
        /// The release of a key whose press was a binding: not delivered.
        case swallow
    }

    public mutating func key(_ code: UInt32, pressed: Bool) -> Outcome {
        if pressed { held.insert(code) } else { held.remove(code) }
        if !pressed, swallowed.remove(code) != nil { return .swallow }
        guard pressed, let vt = Self.functionKey(code),
              !held.isDisjoint(with: Self.controls), !held.isDisjoint(with: Self.alts) else { return .deliver }
        swallowed.insert(code)
        return .switchToVT(vt)
    }
}

/// Turns `LibinputEvent`s into `InputEvent`s for `Seat.handle`. Keeps the little state the
/// mapping needs: the device kind last announced, so `.pointerDevice` is sent on changes only,
/// and how many touch devices are plugged in, so the seat hears only of the first and the last.
public struct LibinputTranslator {
    private var lastDevice: LibinputDeviceKind?
    private var touchDevices = 0

    public init() {}

    public mutating func translate(_ event: LibinputEvent) -> [InputEvent] {
        switch event {
        case .pointerMotion(let dx, let dy, let device):
            // Acceleration is libinput's (its profile per device): the delta passes through.
            return announce(device) + [.pointerMotion(.relative(dx: dx, dy: dy))]
        case .pointerMotionAbsolute(let x, let y, let device):
            return announce(device) + [.pointerMotion(.absolute(x: x, y: y))]
        case .pointerButton(let button, let pressed, let device):
            return announce(device) + [.pointerButton(button: button, pressed: pressed)]
        case .pointerScroll(let source, let vertical, let horizontal, let v120v, let v120h, let device):
            var out = announce(device)
            for (axis, value, v120) in [(UInt32(0), vertical, v120v), (1, horizontal, v120h)] {
                guard let value else { continue }
                switch source {
                // wl_pointer.axis_source wheel; whole clicks as discrete steps (value120 / 120).
                case .wheel: out.append(.pointerAxis(PointerAxis(axis: axis, value: value, discrete: Int32((v120 / 120).rounded(.towardZero)), source: 0)))
                // Finger scrolling ends with a 0 value: a stop (kinetic scrolling starts).
                case .finger: out.append(.pointerAxis(PointerAxis(axis: axis, value: value, source: 1)))
                case .continuous: out.append(.pointerAxis(PointerAxis(axis: axis, value: value, source: 2)))
                }
            }
            return out
        case .keyboardKey(let key, let pressed): return [.key(code: key, pressed: pressed)]
        case .touchDown(let slot, let x, let y): return [.touchDown(id: slot, x: x, y: y)]
        case .touchMotion(let slot, let x, let y): return [.touchMotion(id: slot, x: x, y: y)]
        case .touchUp(let slot): return [.touchUp(id: slot)]
        case .touchCancel: return [.touchCancel]
        case .deviceAdded(let touch):
            guard touch else { return [] }
            touchDevices += 1
            return touchDevices == 1 ? [.touchscreen(present: true)] : []
        case .deviceRemoved(let touch):
            guard touch, touchDevices > 0 else { return [] }
            touchDevices -= 1
            return touchDevices == 0 ? [.touchscreen(present: false)] : []
        case .gestureSwipeBegin(let f): return announce(.touchpad) + [.gesture(.swipeBegin(fingers: UInt32(max(f, 0))))]
        case .gestureSwipeUpdate(let dx, let dy): return [.gesture(.swipeUpdate(dx: dx, dy: dy))]
        case .gestureSwipeEnd(let c): return [.gesture(.swipeEnd(cancelled: c))]
        case .gesturePinchBegin(let f): return announce(.touchpad) + [.gesture(.pinchBegin(fingers: UInt32(max(f, 0))))]
        case .gesturePinchUpdate(let dx, let dy, let scale, let angle):
            // libinput's angle delta is degrees clockwise, as zwp_pointer_gesture_pinch_v1's rotation.
            return [.gesture(.pinchUpdate(dx: dx, dy: dy, scale: scale, rotation: angle))]
        case .gesturePinchEnd(let c): return [.gesture(.pinchEnd(cancelled: c))]
        case .gestureHoldBegin(let f): return announce(.touchpad) + [.gesture(.holdBegin(fingers: UInt32(max(f, 0))))]
        case .gestureHoldEnd(let c): return [.gesture(.holdEnd(cancelled: c))]
        case .tabletToolProximity(let type, let serial, let inProximity, let axes):
            let tool = Self.tool(type, serial)
            return [.tabletTool(inProximity ? .proximityIn(tool, axes) : .proximityOut(tool))]
        case .tabletToolAxis(let type, let serial, let axes): return [.tabletTool(.axes(Self.tool(type, serial), axes))]
        case .tabletToolTip(let type, let serial, let down, let axes): return [.tabletTool(.tip(Self.tool(type, serial), down: down, axes))]
        case .tabletToolButton(let type, let serial, let button, let pressed):
            return [.tabletTool(.button(Self.tool(type, serial), button: button, pressed: pressed))]
        }
    }

    private mutating func announce(_ device: LibinputDeviceKind) -> [InputEvent] {
        guard device != lastDevice else { return [] }
        lastDevice = device
        return [.pointerDevice(device == .touchpad ? .trackpad : .mouse)]
    }

    /// `libinput_tablet_tool_type` (1 pen, 2 eraser, 3 brush, 4 pencil, 5 airbrush, 6 mouse,
    /// 7 lens, 8 totem) as a `zwp_tablet_tool_v2.type`.
    static func tool(_ type: UInt32, _ serial: UInt64) -> TabletTool {
        let kind: TabletTool.Kind = switch type {
        case 2: .eraser
        case 3: .brush
        case 4: .pencil
        case 5: .airbrush
        case 6: .mouse
        case 7: .lens
        default: .pen
        }
        return TabletTool(kind: kind, serial: serial)
    }
}
