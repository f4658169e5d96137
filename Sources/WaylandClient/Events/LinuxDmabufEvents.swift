/// `zwp_linux_dmabuf_v1` events, before version 4 (version 4 servers send neither).
public enum LinuxDmabufEvent: ProxyEvent {
    /// Versions 1 and 2: a DRM format the server takes (with an implicit modifier).
    case format(UInt32)
    /// Version 3: a format and a modifier the server takes together.
    case modifier(format: UInt32, modifier: UInt64)

    public init?(opcode: UInt32, arguments a: EventArguments) {
        switch opcode {
        case 0: self = .format(a.uint(0))
        case 1: self = .modifier(format: a.uint(0), modifier: UInt64(a.uint(1)) << 32 | UInt64(a.uint(2)))
        default: return nil
        }
    }
}

/// `zwp_linux_dmabuf_feedback_v1` events: a format table, the main device and tranches,
/// ended by `done` (all of it sent again whenever any of it changes).
public enum LinuxDmabufFeedbackEvent: ProxyEvent {
    case done
    /// A memfd to map read-only: `size` bytes of 16-byte (format, padding, modifier) entries.
    /// The fd is the handler's to close.
    case formatTable(fd: Int32, size: UInt32)
    case mainDevice(UInt64)
    case trancheDone
    case trancheTargetDevice(UInt64)
    /// Indices into the format table.
    case trancheFormats([UInt16])
    case trancheFlags(UInt32)

    public init?(opcode: UInt32, arguments a: EventArguments) {
        switch opcode {
        case 0: self = .done
        case 1: self = .formatTable(fd: a.fd(0), size: a.uint(1))
        case 2: self = .mainDevice(Self.device(a.arrayBytes(0)))
        case 3: self = .trancheDone
        case 4: self = .trancheTargetDevice(Self.device(a.arrayBytes(0)))
        case 5:
            let bytes = a.arrayBytes(0)
            self = .trancheFormats(stride(from: 0, to: bytes.count - 1, by: 2).map { UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8 })
        case 6: self = .trancheFlags(a.uint(0))
        default: return nil
        }
    }

    /// A `dev_t` in native (little-endian) byte order; 0 when the array is not 8 bytes.
    private static func device(_ bytes: [UInt8]) -> UInt64 {
        guard bytes.count == 8 else { return 0 }
        return bytes.reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }
}

/// `zwp_linux_buffer_params_v1` events: the answer to `create`.
public enum LinuxBufferParamsEvent: ProxyEvent {
    /// The new `wl_buffer *` (libwayland made the proxy; adopt it).
    case created(buffer: OpaquePointer?)
    case failed

    public init?(opcode: UInt32, arguments a: EventArguments) {
        switch opcode {
        case 0: self = .created(buffer: a.object(0))
        case 1: self = .failed
        default: return nil
        }
    }
}
