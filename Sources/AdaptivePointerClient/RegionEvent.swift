import WaylandClient

/// `adaptive_pointer_region_v1` events.
public enum RegionEvent: ProxyEvent {
    /// The pointer engaged the region with this identifier.
    case entered(identifier: UInt32)
    case left(identifier: UInt32)
    /// Band selection over the region, in surface-local coordinates.
    case bandSelection(identifier: UInt32, state: PointerRegion.BandState, x: Double, y: Double, width: Double, height: Double)
    /// Version 4: handwriting in a writing area was read as `text`; its ink covered this
    /// surface-local rectangle.
    case written(identifier: UInt32, text: String, x: Double, y: Double, width: Double, height: Double)

    public init?(opcode: UInt32, arguments a: EventArguments) {
        switch opcode {
        case 0: self = .entered(identifier: a.uint(0))
        case 1: self = .left(identifier: a.uint(0))
        case 2:
            // An unknown state reads as a change, as it always has.
            self = .bandSelection(identifier: a.uint(0), state: PointerRegion.BandState(rawValue: a.uint(1)) ?? .changed,
                                  x: a.fixed(2), y: a.fixed(3), width: a.fixed(4), height: a.fixed(5))
        case 3: self = .written(identifier: a.uint(0), text: a.string(1), x: a.fixed(2), y: a.fixed(3), width: a.fixed(4), height: a.fixed(5))
        default: return nil
        }
    }
}
