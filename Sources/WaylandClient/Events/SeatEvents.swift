/// `wl_seat` events.
public enum SeatEvent: ProxyEvent {
    /// The seat's devices changed: a `wl_seat_capability` bit set.
    case capabilities(UInt32)
    // Since 2
    case name(String)

    public init?(opcode: UInt32, arguments a: EventArguments) {
        switch opcode {
        case 0: self = .capabilities(a.uint(0))
        case 1: self = .name(a.string(0))
        default: return nil
        }
    }
}

/// `wl_pointer` events. Coordinates are surface-local; `axis` is a
/// `wl_pointer_axis`, `state` a `wl_pointer_button_state`.
public enum WlPointerEvent: ProxyEvent {
    /// The pointer entered `surface` (a `wl_surface *`) at (x, y).
    case enter(serial: UInt32, surface: OpaquePointer?, x: Double, y: Double)
    case leave(serial: UInt32, surface: OpaquePointer?)
    case motion(time: UInt32, x: Double, y: Double)
    case button(serial: UInt32, time: UInt32, button: UInt32, state: UInt32)
    case axis(time: UInt32, axis: UInt32, value: Double)
    // Since 5
    /// The end of a group of events that belong together.
    case frame
    /// A `wl_pointer_axis_source`.
    case axisSource(UInt32)
    case axisStop(time: UInt32, axis: UInt32)
    case axisDiscrete(axis: UInt32, discrete: Int32)
    // Since 8
    /// Wheel steps in 1/120ths.
    case axisValue120(axis: UInt32, value120: Int32)

    public init?(opcode: UInt32, arguments a: EventArguments) {
        switch opcode {
        case 0: self = .enter(serial: a.uint(0), surface: a.object(1), x: a.fixed(2), y: a.fixed(3))
        case 1: self = .leave(serial: a.uint(0), surface: a.object(1))
        case 2: self = .motion(time: a.uint(0), x: a.fixed(1), y: a.fixed(2))
        case 3: self = .button(serial: a.uint(0), time: a.uint(1), button: a.uint(2), state: a.uint(3))
        case 4: self = .axis(time: a.uint(0), axis: a.uint(1), value: a.fixed(2))
        case 5: self = .frame
        case 6: self = .axisSource(a.uint(0))
        case 7: self = .axisStop(time: a.uint(0), axis: a.uint(1))
        case 8: self = .axisDiscrete(axis: a.uint(0), discrete: a.int(1))
        case 9: self = .axisValue120(axis: a.uint(0), value120: a.int(1))
        default: return nil  // axis_relative_direction (since 9)
        }
    }
}

/// `wl_keyboard` events; `state` is a `wl_keyboard_key_state`.
public enum KeyboardEvent: ProxyEvent {
    /// The keymap in `fd` (which the receiver owns and must close), `size` bytes.
    case keymap(format: UInt32, fd: Int32, size: UInt32)
    /// Keyboard focus on `surface` (a `wl_surface *`), with the keys already down.
    case enter(serial: UInt32, surface: OpaquePointer?, keys: [UInt32])
    case leave(serial: UInt32, surface: OpaquePointer?)
    case key(serial: UInt32, time: UInt32, key: UInt32, state: UInt32)
    case modifiers(serial: UInt32, depressed: UInt32, latched: UInt32, locked: UInt32, group: UInt32)
    // Since 4
    /// Keys repeat `rate` times a second after `delay` milliseconds.
    case repeatInfo(rate: Int32, delay: Int32)

    public init?(opcode: UInt32, arguments a: EventArguments) {
        switch opcode {
        case 0: self = .keymap(format: a.uint(0), fd: a.fd(1), size: a.uint(2))
        case 1: self = .enter(serial: a.uint(0), surface: a.object(1), keys: a.array(2))
        case 2: self = .leave(serial: a.uint(0), surface: a.object(1))
        case 3: self = .key(serial: a.uint(0), time: a.uint(1), key: a.uint(2), state: a.uint(3))
        case 4: self = .modifiers(serial: a.uint(0), depressed: a.uint(1), latched: a.uint(2), locked: a.uint(3), group: a.uint(4))
        case 5: self = .repeatInfo(rate: a.int(0), delay: a.int(1))
        default: return nil
        }
    }
}

/// `zwp_relative_pointer_v1` events.
public enum RelativePointerEvent: ProxyEvent {
    /// Motion with and without acceleration; `time` in microseconds (utime_hi << 32 | utime_lo).
    case relativeMotion(time: UInt64, dx: Double, dy: Double, dxUnaccelerated: Double, dyUnaccelerated: Double)

    public init?(opcode: UInt32, arguments a: EventArguments) {
        guard opcode == 0 else { return nil }
        self = .relativeMotion(time: UInt64(a.uint(0)) << 32 | UInt64(a.uint(1)), dx: a.fixed(2), dy: a.fixed(3),
                               dxUnaccelerated: a.fixed(4), dyUnaccelerated: a.fixed(5))
    }
}
