/// An output's scale in 120ths, the unit of wp_fractional_scale_v1: 120 is 1×, 180 is 1.5×.
///
/// Logical coordinates become output pixels the way wlroots and mutter do it: a rect a
/// surface is drawn into has its edges rounded to the nearest pixel (`placing`), so two
/// surfaces that touch in logical space touch in pixels, with neither seam nor overlap;
/// damage is rounded outwards (`covering`), so every pixel a logical change can reach is
/// repainted. At an integer scale both are plain multiplication, as before.
public struct OutputScale: Hashable, Sendable, CustomStringConvertible {
    /// The scale times 120, in 1...480.
    public let v120: Int32

    /// The largest scale accepted (`--scale`).
    public static let maximum = OutputScale(v120: 480)

    public init(v120: Int32) { self.v120 = max(1, v120) }
    public init(_ integer: Int32) { v120 = max(1, integer).clampedMultiplied(by: 120) }

    /// Parses "1", "1.5", "1.25": a number above 0 and at most 4 that is a whole number of
    /// 120ths (within 0.001 of one, so "1.33" is not taken for 160/120), or nil with why.
    public static func parse(_ text: String) -> Result<OutputScale, ParseError> {
        guard let value = Double(text), value.isFinite else { return .failure(.notANumber(text)) }
        guard value > 0, value <= 4 else { return .failure(.outOfRange(text)) }
        let v120 = (value * 120).rounded()
        guard abs(v120 - value * 120) < 0.12, v120 >= 1 else { return .failure(.notA120th(text)) }
        return .success(OutputScale(v120: Int32(v120)))
    }

    public enum ParseError: Error, CustomStringConvertible {
        case notANumber(String), outOfRange(String), notA120th(String)
        public var description: String {
            switch self {
            case .notANumber(let t): "'\(t)' is not a number (try 1, 1.25, 1.5 or 2)"
            case .outOfRange(let v): "\(v) is not above 0 and at most 4"
            case .notA120th(let v): "\(v) is not a multiple of 1/120 (wp_fractional_scale_v1's unit; try 1.25 or 1.5)"
            }
        }
    }

    /// The scale as a number.
    public var factor: Double { Double(v120) / 120 }
    public var isIntegral: Bool { v120 % 120 == 0 }
    /// The integer scale clients without wp_fractional_scale should draw at: the scale
    /// rounded up (they draw sharper than needed, and the compositor scales down).
    public var ceiling: Int32 { (v120 + 119) / 120 }

    public var description: String {
        isIntegral ? "\(v120 / 120)" : String(Double(v120) / 120)
    }

    /// A logical length or coordinate in output pixels, rounded to the nearest, halves
    /// up: the same everywhere, so a window's pixel width does not change as it crosses
    /// the output's left or top edge (C's `round`, halves away from zero, would).
    public func pixels(_ n: Int32) -> Int32 {
        Int32(clamping: Self.floorDiv(Int64(n) * Int64(v120) + 60))
    }

    /// a / 120, rounded towards minus infinity.
    private static func floorDiv(_ a: Int64) -> Int64 { a >= 0 ? a / 120 : -((-a + 119) / 120) }

    /// The largest logical length whose pixels (`pixels(_:)`) fit in `pixels`: a
    /// monitor's mode at this scale (2560 pixels at 1.5 are 1706 logical, drawn on 2559).
    public func logical(_ pixels: Int32) -> Int32 {
        Int32(clamping: max(0, Int64(pixels)) * 120 / Int64(v120))
    }

    /// The pixels a surface in the logical rect `r` is drawn into: each edge rounded.
    public func placing(_ r: PixelRect) -> PixelRect {
        if isIntegral { return r.scaled(by: v120 / 120) }
        let x0 = pixels(r.x), y0 = pixels(r.y)
        return PixelRect(x: x0, y: y0, width: pixels(r.maxX).clampedSubtracting(x0), height: pixels(r.maxY).clampedSubtracting(y0))
    }

    /// Every pixel the logical rect `r` touches, and at a fractional scale a margin of
    /// `ceiling` pixels more: surfaces are filtered there (bilinear, or a box when shrunk),
    /// so a changed buffer pixel reaches output pixels up to about one buffer pixel
    /// beyond its own, which is less than `ceiling` output pixels at buffer scales ≥ 1.
    public func covering(_ r: PixelRect) -> PixelRect {
        if isIntegral { return r.scaled(by: v120 / 120) }
        func ceilDiv(_ a: Int64) -> Int64 { -Self.floorDiv(-a) }
        let m = Int64(ceiling), s = Int64(v120)
        return .spanning(x0: Self.floorDiv(Int64(r.x) * s) - m, y0: Self.floorDiv(Int64(r.y) * s) - m,
                         x1: ceilDiv(Int64(r.maxX) * s) + m, y1: ceilDiv(Int64(r.maxY) * s) + m)
    }
}
