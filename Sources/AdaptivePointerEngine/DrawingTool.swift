/// A drawing region's tool, as its app declares it (`adaptive_pointer_region_v1.set_drawing_preview`):
/// the stroke's width and ink. Over such a region the Pencil's hover preview takes the tool's
/// size and colour, and the pointer becomes a preview of the stroke, as drawing apps on iPadOS
/// show their brush under the pointer.
public struct DrawingTool: Hashable, Sendable {
    /// The largest tool: wider than any brush shown under a pointer, small enough that the
    /// preview's damage stays a corner of the screen.
    public static let maximumDiameter = 512.0
    /// The hover preview's size at contact, in points, for a region without a tool. A tool's
    /// preview is this one scaled by `diameter / defaultHoverDiameter`.
    public static let defaultHoverDiameter = 5.0

    /// The stroke's width in points.
    public var diameter: Double
    /// The ink, straight (not premultiplied) alpha.
    public var color: PointerColor

    public init(diameter: Double, color: PointerColor) {
        self.diameter = diameter
        self.color = color
    }

    /// Decodes ARGB8888 with straight alpha (`0xAARRGGBB`).
    public init(diameter: Double, argb: UInt32) {
        func channel(_ shift: UInt32) -> Double { Double((argb >> shift) & 0xff) / 255 }
        self.init(diameter: diameter, color: PointerColor(red: channel(16), green: channel(8), blue: channel(0), alpha: channel(24)))
    }

    /// Why a diameter is refused, or nil: it must be a number, above 0 and at most `maximumDiameter`.
    public static func problem(diameter: Double) -> String? {
        guard diameter.isFinite else { return "diameter is not a number" }
        guard diameter > 0 else { return "diameter \(diameter) is not positive" }
        guard diameter <= maximumDiameter else { return "diameter \(diameter) exceeds \(Int(maximumDiameter))" }
        return nil
    }

    /// The ink as ARGB8888, straight alpha (what the test protocol reports).
    public var argb: UInt32 {
        func byte(_ v: Double) -> UInt32 { UInt32((min(max(v, 0), 1) * 255).rounded()) }
        return byte(color.alpha) << 24 | byte(color.red) << 16 | byte(color.green) << 8 | byte(color.blue)
    }

    /// A hairline ring around the preview in black or white, whichever stands out from the
    /// ink, so white ink on white paper (or a fully transparent eraser) still shows.
    public var ring: PointerBorder {
        let luminance = 0.2126 * color.red + 0.7152 * color.green + 0.0722 * color.blue
        let ink = luminance * color.alpha + (1 - color.alpha)   // over a light page
        return PointerBorder(width: 1, color: ink > 0.5 ? PointerColor(red: 0, green: 0, blue: 0, alpha: 0.55)
                                                       : PointerColor(red: 1, green: 1, blue: 1, alpha: 0.75))
    }
}
