/// Milliseconds on the compositor's clock, as Wayland timestamps carry them.
public typealias Milliseconds = UInt32

/// Input as every backend describes it, whatever the device: the nested parent's
/// `wl_seat`, the test protocol, wlcs' fake devices and libinput. Backends
/// only produce these; `Seat.handle(_:at:)` is the one place that consumes them
/// (the shape of Smithay's `smallvil/src/input.rs`).
///
/// Coordinates are global and logical (output pixels divided by the output scale).
public enum InputEvent: Sendable, Equatable {
    // Pointer
    /// The device moved. See `PointerMotion` for absolute, relative and both.
    case pointerMotion(PointerMotion)
    /// A button (a Linux input code: BTN_LEFT is 0x110) went down or up.
    case pointerButton(button: UInt32, pressed: Bool)
    /// Scrolling on one axis.
    case pointerAxis(PointerAxis)
    /// Which kind of device moves the pointer (a scroll from fingers means a trackpad):
    /// the adaptive pointer hides sooner after a trackpad than after a mouse.
    case pointerDevice(PointerDevice)
    /// The pointer left every output (a nested window lost the parent's pointer) or came back.
    case pointerLeftOutputs
    case pointerEnteredOutputs

    // Keyboard
    /// A key (a Linux input code) went down or up.
    case key(code: UInt32, pressed: Bool)
    /// Modifier state decided elsewhere (the parent's `wl_keyboard.modifiers`).
    case modifiers(depressed: UInt32, latched: UInt32, locked: UInt32, group: UInt32)

    // Touch
    case touchDown(id: Int32, x: Double, y: Double)
    case touchMotion(id: Int32, x: Double, y: Double)
    case touchUp(id: Int32)
    /// Every touch point ends without lifting (libinput's `TOUCH_CANCEL`): clients hear
    /// `wl_touch.cancel`, and a drag a finger holds is cancelled.
    case touchCancel
    /// The seat's first touchscreen was plugged in (`present`) or its last unplugged
    /// (libinput's device added/removed): `wl_seat` offers `wl_touch` while one is there.
    case touchscreen(present: Bool)

    // Gestures and tablet tools
    /// One step of a multi-finger touchpad gesture (`zwp_pointer_gestures_v1`). Three- and
    /// four-finger swipes stay in the compositor; the rest go to the client under the pointer.
    case gesture(GestureEvent)
    /// One frame of a tablet tool: a pen or an eraser (`zwp_tablet_tool_v2`).
    case tabletTool(TabletToolEvent)
}

/// A touchpad gesture step, as libinput's `LIBINPUT_EVENT_GESTURE_*` and the parent's
/// `zwp_pointer_gesture_*_v1` describe it. Deltas are in logical units.
public enum GestureEvent: Sendable, Equatable {
    case swipeBegin(fingers: UInt32)
    case swipeUpdate(dx: Double, dy: Double)
    case swipeEnd(cancelled: Bool)
    /// `scale` is relative to the fingers' distance at the start; `rotation` is in degrees
    /// clockwise since the previous update.
    case pinchBegin(fingers: UInt32)
    case pinchUpdate(dx: Double, dy: Double, scale: Double, rotation: Double)
    case pinchEnd(cancelled: Bool)
    /// Fingers resting on the touchpad without moving (stops kinetic scrolling).
    case holdBegin(fingers: UInt32)
    case holdEnd(cancelled: Bool)
}

/// A tablet tool, told apart from others by its type and hardware serial.
public struct TabletTool: Sendable, Hashable {
    /// `zwp_tablet_tool_v2.type` values (the Linux BTN_TOOL_* codes).
    public enum Kind: UInt32, Sendable { case pen = 0x140, eraser = 0x141, brush, pencil, airbrush, finger, mouse, lens }
    public var kind: Kind
    /// The tool's hardware serial; 0 when the device reports none.
    public var serial: UInt64

    public init(kind: Kind, serial: UInt64 = 0) { self.kind = kind; self.serial = serial }
}

/// A tablet tool's axes at one instant. Position is global and logical; nil axes are
/// ones the device does not have.
public struct TabletToolAxes: Sendable, Equatable {
    public var x: Double, y: Double
    /// 0 (no pressure) to 1.
    public var pressure: Double?
    /// 0 (touching) to 1 (the edge of proximity).
    public var distance: Double?
    /// Degrees from the vertical, along x and y.
    public var tilt: (x: Double, y: Double)?
    /// Degrees clockwise about the tool's axis.
    public var rotation: Double?

    public init(x: Double, y: Double, pressure: Double? = nil, distance: Double? = nil,
                tilt: (x: Double, y: Double)? = nil, rotation: Double? = nil) {
        self.x = x; self.y = y; self.pressure = pressure; self.distance = distance; self.tilt = tilt; self.rotation = rotation
    }

    public static func == (a: Self, b: Self) -> Bool {
        a.x == b.x && a.y == b.y && a.pressure == b.pressure && a.distance == b.distance
            && a.tilt?.x == b.tilt?.x && a.tilt?.y == b.tilt?.y && a.rotation == b.rotation
    }
}

/// One frame of a tablet tool, as libinput's `LIBINPUT_EVENT_TABLET_TOOL_*` reports it.
/// Each becomes one `zwp_tablet_tool_v2.frame` for the client it reaches.
public enum TabletToolEvent: Sendable, Equatable {
    /// The tool came into proximity at these axes.
    case proximityIn(TabletTool, TabletToolAxes)
    /// It moved, or its pressure, distance, tilt or rotation changed.
    case axes(TabletTool, TabletToolAxes)
    /// The tip touched (down) or left the surface, with the axes at that instant.
    case tip(TabletTool, down: Bool, TabletToolAxes)
    /// A button on the tool (a Linux input code: BTN_STYLUS is 0x14b).
    case button(TabletTool, button: UInt32, pressed: Bool)
    case proximityOut(TabletTool)

    public var tool: TabletTool {
        switch self {
        case .proximityIn(let t, _), .axes(let t, _), .tip(let t, _, _), .button(let t, _, _), .proximityOut(let t): t
        }
    }
}

/// How the pointer device moved.
public enum PointerMotion: Sendable, Equatable {
    /// To a global position (a nested parent's `wl_pointer.motion`, the test protocol's
    /// `move_pointer`). Locks and confinements still hold it.
    case absolute(x: Double, y: Double)
    /// By a delta (a mouse, `zwp_relative_pointer_v1` from a parent, `move_pointer_relative`).
    case relative(dx: Double, dy: Double)
    /// To a position, where the device also reported its own delta (a nested parent sends
    /// both in one frame): relative listeners hear the delta, the pointer goes to the position.
    case absoluteWithDelta(x: Double, y: Double, dx: Double, dy: Double)
    /// A harness teleport (wlcs' `move_to`): not device motion, so no lock holds it.
    case warp(x: Double, y: Double)
}

public enum PointerDevice: Sendable, Equatable { case mouse, trackpad }

/// One axis of scrolling, as `wl_pointer.axis*` carries it.
public struct PointerAxis: Sendable, Equatable {
    /// `wl_pointer.axis`: 0 vertical, 1 horizontal.
    public var axis: UInt32
    /// Distance in surface units; 0 with `discrete` 0 is a stop.
    public var value: Double
    /// Wheel clicks (`axis_discrete`); 0 for continuous sources.
    public var discrete: Int32
    /// `wl_pointer.axis_source`: 0 wheel, 1 finger, 2 continuous, 3 wheel tilt.
    public var source: UInt32

    public init(axis: UInt32, value: Double, discrete: Int32 = 0, source: UInt32 = 0) {
        self.axis = axis; self.value = value; self.discrete = discrete; self.source = source
    }
}
