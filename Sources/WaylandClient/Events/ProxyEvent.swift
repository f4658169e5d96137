/// The events of one interface as a Swift enum, decoded from what libwayland
/// hands a dispatcher: the event's opcode and its `union wl_argument[]`.
///
/// Each interface's enum lives in this folder, named after the interface
/// (`WlPointerEvent` is `wl_pointer`'s), its cases in opcode order with the
/// version that introduced them.
public protocol ProxyEvent {
    /// The event `opcode` carries, or nil for an opcode this enum does not
    /// know (an event of a newer version than the one described here).
    init?(opcode: UInt32, arguments: EventArguments)
}

extension Proxy {
    /// Decodes every event of this proxy as `Event` and hands it to
    /// `handler`. Events `Event` does not know are ignored.
    ///
    /// Replaces whatever `onEvent` held: a proxy has one handler.
    public func handleEvents<Event: ProxyEvent>(_ type: Event.Type, _ handler: @escaping (Event) -> Void) {
        onEvent = { opcode, arguments in
            if let event = Event(opcode: opcode, arguments: arguments) { handler(event) }
        }
    }
}
