/// `wl_registry` events: globals appearing and going away.
public enum RegistryEvent: ProxyEvent {
    /// A global the server offers, by numeric name, interface name and highest version.
    case global(name: UInt32, interface: String, version: UInt32)
    /// The global with this numeric name is gone.
    case globalRemove(name: UInt32)

    public init?(opcode: UInt32, arguments a: EventArguments) {
        switch opcode {
        case 0: self = .global(name: a.uint(0), interface: a.string(1), version: a.uint(2))
        case 1: self = .globalRemove(name: a.uint(0))
        default: return nil
        }
    }
}
