/// `wl_output` events: a description of the output, ended by `done`.
public enum OutputEvent: ProxyEvent {
    case geometry(x: Int32, y: Int32, physicalWidth: Int32, physicalHeight: Int32,
                  subpixel: Int32, make: String, model: String, transform: Int32)
    case mode(flags: UInt32, width: Int32, height: Int32, refresh: Int32)
    // Since 2
    /// The description sent since the last `done` is complete.
    case done
    case scale(factor: Int32)
    // Since 4
    case name(String)
    case description(String)

    public init?(opcode: UInt32, arguments a: EventArguments) {
        switch opcode {
        case 0:
            self = .geometry(x: a.int(0), y: a.int(1), physicalWidth: a.int(2), physicalHeight: a.int(3),
                             subpixel: a.int(4), make: a.string(5), model: a.string(6), transform: a.int(7))
        case 1: self = .mode(flags: a.uint(0), width: a.int(1), height: a.int(2), refresh: a.int(3))
        case 2: self = .done
        case 3: self = .scale(factor: a.int(0))
        case 4: self = .name(a.string(0))
        case 5: self = .description(a.string(0))
        default: return nil
        }
    }
}
