/// `zxdg_toplevel_decoration_v1` events.
public enum ToplevelDecorationEvent: ProxyEvent {
    /// The decoration mode the compositor chose (`zxdg_toplevel_decoration_v1_mode`).
    case configure(mode: UInt32)

    public init?(opcode: UInt32, arguments a: EventArguments) {
        guard opcode == 0 else { return nil }
        self = .configure(mode: a.uint(0))
    }
}
