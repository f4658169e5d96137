import WaylandClient

/// One event of `lodestone_test_v1` (protocols/lodestone-test-v1.xml), decoded.
///
/// The one place that knows the events' opcodes and argument order: `TestControl`,
/// the tour's `PointerReader` and the tests' `PointerShapeProbe` all decode through
/// `init?(opcode:arguments:)`. Cases follow the protocol's event order; a new event
/// goes here first.
public enum TestControlEvent: Sendable {
    case pointerState(TestControl.PointerState)
    case keyboardState(TestControl.KeyboardState)
    case clock(timeMsec: UInt32, frames: UInt32)
    case window(TestControl.WindowState)
    case windowsDone
    case captured(width: Int32, height: Int32)
    case failed(reason: String)
    case pointerShape(TestControl.PointerShape)
    // Since 2
    case popup(TestControl.Popup)
    case cursorState(TestControl.CursorState)
    // Since 4
    case pointerPreview(TestControl.PointerPreview)

    /// Decodes the event with this opcode; nil for an opcode the protocol does not have.
    public init?(opcode: UInt32, arguments a: EventArguments) {
        switch opcode {
        case 0:
            self = .pointerState(TestControl.PointerState(x: a.fixed(0), y: a.fixed(1), title: a.string(2), appID: a.string(3),
                                                          sx: a.fixed(4), sy: a.fixed(5), buttons: a.uint(6)))
        case 1:
            self = .keyboardState(TestControl.KeyboardState(title: a.string(0), appID: a.string(1),
                                                            depressed: a.uint(2), latched: a.uint(3), locked: a.uint(4)))
        case 2: self = .clock(timeMsec: a.uint(0), frames: a.uint(1))
        case 3:
            self = .window(TestControl.WindowState(title: a.string(0), appID: a.string(1), x: a.int(2), y: a.int(3),
                                              width: a.int(4), height: a.int(5), activated: a.uint(6) != 0))
        case 4: self = .windowsDone
        case 5: self = .captured(width: a.int(0), height: a.int(1))
        case 6: self = .failed(reason: a.string(0))
        case 7: self = .pointerShape(TestControl.PointerShape(a))
        case 8:
            self = .popup(TestControl.Popup(title: a.string(0), appID: a.string(1), x: a.int(2), y: a.int(3),
                                            width: a.int(4), height: a.int(5)))
        case 9: self = .cursorState(TestControl.CursorState(kind: TestControl.CursorState.Kind(rawValue: a.uint(0)) ?? .none, sets: a.uint(1)))
        case 10:
            self = .pointerPreview(TestControl.PointerPreview(pointerColor: a.uint(0), hover: a.uint(1) != 0, hoverX: a.fixed(2),
                                                              hoverY: a.fixed(3), hoverDiameter: a.fixed(4), hoverColor: a.uint(5),
                                                              hoverAlpha: a.fixed(6)))
        default: return nil
        }
    }
}

extension TestControl {
    /// `pointer_preview` (since 4): the pointer's fill and the pen's hover preview. Colours are
    /// ARGB8888, straight alpha.
    public struct PointerPreview: Sendable, Equatable {
        public var pointerColor: UInt32
        public var hover: Bool
        public var hoverX, hoverY, hoverDiameter: Double
        public var hoverColor: UInt32
        public var hoverAlpha: Double
    }

    /// `pointer_shape`: the adaptive pointer as the compositor last presented it,
    /// in global logical coordinates.
    public struct PointerShape: Sendable {
        /// `lodestone_test_v1.shape_kind`.
        public enum Kind: UInt32, Sendable { case circle, verticalBeam, horizontalBeam, roundedRect, custom, hidden, band, clientCursor, arrow }
        /// `lodestone_test_v1.effect_kind`.
        public enum Effect: UInt32, Sendable { case none, highlight, lift, hover }

        /// An unknown kind reads as `.hidden`, an unknown effect as `.none`.
        public var kind: Kind
        /// The rectangle after scaling (pressed scale included).
        public var x = 0.0, y = 0.0, width = 0.0, height = 0.0, cornerRadius = 0.0, alpha = 0.0
        public var effect = Effect.none
        /// 0 no effect, 1 fully applied; the element's scale under lift and hover.
        public var effectProgress = 0.0, effectScale = 1.0
        /// Whether the pointer targets a region, and that region's identifier.
        public var targeted = false
        public var regionIdentifier: UInt32 = 0
        /// The device position before magnetism.
        public var deviceX = 0.0, deviceY = 0.0
        /// Shapes are `adaptive_pointer_region_v1.accessory` values (5: a custom outline).
        public var accessories: [(shape: UInt32, x: Double, y: Double, alpha: Double)] = []
        /// Empty when there is none.
        public var annotation = ""

        public var midX: Double { x + width / 2 }
        public var midY: Double { y + height / 2 }

        public init(kind: Kind) { self.kind = kind }

        init(_ a: EventArguments) {
            kind = Kind(rawValue: a.uint(0)) ?? .hidden
            (x, y, width, height) = (a.fixed(1), a.fixed(2), a.fixed(3), a.fixed(4))
            (cornerRadius, alpha) = (a.fixed(5), a.fixed(6))
            effect = Effect(rawValue: a.uint(7)) ?? .none
            (effectProgress, effectScale) = (a.fixed(8), a.fixed(9))
            targeted = a.uint(10) != 0
            regionIdentifier = a.uint(11)
            (deviceX, deviceY) = (a.fixed(12), a.fixed(13))
            // 4 words per accessory: the shape, then centre x, y and opacity as wl_fixed.
            let words = a.array(14)
            let fixed = { (w: UInt32) in Double(Int32(bitPattern: w)) / 256 }
            var i = 0
            while i + 3 < words.count {
                accessories.append((words[i], fixed(words[i + 1]), fixed(words[i + 2]), fixed(words[i + 3])))
                i += 4
            }
            annotation = a.string(15)
        }
    }
}
