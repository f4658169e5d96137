/// Input as every backend describes it, whatever the device: the nested parent's
/// `wl_seat`, the test protocol, wlcs' fake devices and, later, libinput. Backends
/// only produce these; `Seat.handle(_:at:)` is the one place that consumes them
/// (the shape of Smithay's `smallvil/src/input.rs`).
///
/// Coordinates are global and logical (output pixels divided by the output scale).
public enum InputEvent: Sendable {
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

    // Room for what comes next: multi-finger gestures (`zwp_pointer_gestures_v1`) and
    // tablet tools (`zwp_tablet_v2`) arrive as their own cases, with their own routing.
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
