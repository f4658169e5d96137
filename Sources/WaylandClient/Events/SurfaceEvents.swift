/// `wl_surface` events: the outputs the surface is shown on.
public enum SurfaceEvent: ProxyEvent {
    /// Part of the surface is now on this `wl_output *`.
    case enter(output: OpaquePointer?)
    /// No part of the surface is on this `wl_output *` any more.
    case leave(output: OpaquePointer?)

    public init?(opcode: UInt32, arguments a: EventArguments) {
        switch opcode {
        case 0: self = .enter(output: a.object(0))
        case 1: self = .leave(output: a.object(0))
        default: return nil  // preferred_buffer_scale, preferred_buffer_transform (since 6)
        }
    }
}

/// `wl_callback` events (a frame callback, a sync).
public enum CallbackEvent: ProxyEvent {
    /// The callback fired; for a frame callback the data is the time in milliseconds.
    case done(data: UInt32)

    public init?(opcode: UInt32, arguments a: EventArguments) {
        guard opcode == 0 else { return nil }
        self = .done(data: a.uint(0))
    }
}

/// `wl_buffer` events.
public enum BufferEvent: ProxyEvent {
    /// The compositor no longer reads the buffer: the client may write it again.
    case release

    public init?(opcode: UInt32, arguments: EventArguments) {
        guard opcode == 0 else { return nil }
        self = .release
    }
}
