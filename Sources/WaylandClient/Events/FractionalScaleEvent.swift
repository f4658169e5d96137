/// `wp_fractional_scale_v1` events: the scale the compositor would like the surface drawn at.
public enum FractionalScaleEvent: ProxyEvent {
    /// The preferred scale in 120ths (180 is 1.5).
    case preferredScale(v120: UInt32)

    public init?(opcode: UInt32, arguments a: EventArguments) {
        guard opcode == 0 else { return nil }
        self = .preferredScale(v120: a.uint(0))
    }
}
