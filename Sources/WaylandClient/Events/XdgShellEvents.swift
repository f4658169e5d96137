/// `xdg_wm_base` events.
public enum WmBaseEvent: ProxyEvent {
    /// Answer with `xdg_wm_base.pong(serial)`, or the compositor thinks the client hangs.
    case ping(serial: UInt32)

    public init?(opcode: UInt32, arguments a: EventArguments) {
        guard opcode == 0 else { return nil }
        self = .ping(serial: a.uint(0))
    }
}

/// `xdg_surface` events.
public enum XdgSurfaceEvent: ProxyEvent {
    /// The end of a configure sequence: acknowledge `serial`, then commit.
    case configure(serial: UInt32)

    public init?(opcode: UInt32, arguments a: EventArguments) {
        guard opcode == 0 else { return nil }
        self = .configure(serial: a.uint(0))
    }
}

/// `xdg_toplevel` events.
public enum ToplevelEvent: ProxyEvent {
    /// A size to use (0 leaves it to the client) and the `xdg_toplevel_state`s,
    /// applied with the next `xdg_surface.configure`.
    case configure(width: Int32, height: Int32, states: [UInt32])
    /// The user wants the window closed.
    case close
    // Since 4
    case configureBounds(width: Int32, height: Int32)
    // Since 5
    /// The `xdg_toplevel_wm_capabilities` the compositor supports.
    case wmCapabilities([UInt32])

    public init?(opcode: UInt32, arguments a: EventArguments) {
        switch opcode {
        case 0: self = .configure(width: a.int(0), height: a.int(1), states: a.array(2))
        case 1: self = .close
        case 2: self = .configureBounds(width: a.int(0), height: a.int(1))
        case 3: self = .wmCapabilities(a.array(0))
        default: return nil
        }
    }
}
