/// `zwp_tablet_seat_v2` events: each carries a new object (a `zwp_tablet_v2`,
/// `zwp_tablet_tool_v2` or `zwp_tablet_pad_v2` proxy) the receiver now owns.
public enum TabletSeatEvent: ProxyEvent {
    case tabletAdded(OpaquePointer)
    case toolAdded(OpaquePointer)
    case padAdded(OpaquePointer)

    public init?(opcode: UInt32, arguments a: EventArguments) {
        guard let object = a.object(0) else { return nil }
        switch opcode {
        case 0: self = .tabletAdded(object)
        case 1: self = .toolAdded(object)
        case 2: self = .padAdded(object)
        default: return nil
        }
    }
}

/// `zwp_tablet_tool_v2` events. Pressure and distance are 0...65535, tilt and rotation
/// degrees, positions surface-local. A `frame` ends each group.
public enum TabletToolProxyEvent: ProxyEvent {
    /// `zwp_tablet_tool_v2.type` (0x140 pen, 0x141 eraser, ...).
    case type(UInt32)
    case hardwareSerial(hi: UInt32, lo: UInt32)
    case hardwareIDWacom(hi: UInt32, lo: UInt32)
    case capability(UInt32)
    case done
    case removed
    case proximityIn(serial: UInt32, tablet: OpaquePointer?, surface: OpaquePointer?)
    case proximityOut
    case down(serial: UInt32)
    case up
    case motion(x: Double, y: Double)
    case pressure(UInt32)
    case distance(UInt32)
    case tilt(x: Double, y: Double)
    case rotation(Double)
    case slider(Int32)
    case wheel(degrees: Double, clicks: Int32)
    case button(serial: UInt32, button: UInt32, state: UInt32)
    case frame(time: UInt32)

    public init?(opcode: UInt32, arguments a: EventArguments) {
        switch opcode {
        case 0: self = .type(a.uint(0))
        case 1: self = .hardwareSerial(hi: a.uint(0), lo: a.uint(1))
        case 2: self = .hardwareIDWacom(hi: a.uint(0), lo: a.uint(1))
        case 3: self = .capability(a.uint(0))
        case 4: self = .done
        case 5: self = .removed
        case 6: self = .proximityIn(serial: a.uint(0), tablet: a.object(1), surface: a.object(2))
        case 7: self = .proximityOut
        case 8: self = .down(serial: a.uint(0))
        case 9: self = .up
        case 10: self = .motion(x: a.fixed(0), y: a.fixed(1))
        case 11: self = .pressure(a.uint(0))
        case 12: self = .distance(a.uint(0))
        case 13: self = .tilt(x: a.fixed(0), y: a.fixed(1))
        case 14: self = .rotation(a.fixed(0))
        case 15: self = .slider(a.int(0))
        case 16: self = .wheel(degrees: a.fixed(0), clicks: a.int(1))
        case 17: self = .button(serial: a.uint(0), button: a.uint(1), state: a.uint(2))
        case 18: self = .frame(time: a.uint(0))
        default: return nil
        }
    }
}
