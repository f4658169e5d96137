import AdaptivePointerEngine

/// WCAG relative luminance and contrast, on straight sRGB components in 0…1.
enum Contrast {
    /// sRGB to linear light, by a cubic fit of the sRGB curve (within 0.4% where it matters):
    /// the pointer decides its tone every frame, without libm.
    static func linear(_ c: Double) -> Double {
        let c = min(1, max(0, c))
        return c * (c * (c * 0.305_306_011 + 0.682_171_111) + 0.012_522_878)
    }

    static func luminance(_ r: Double, _ g: Double, _ b: Double) -> Double {
        0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)
    }

    /// (lighter + 0.05) / (darker + 0.05), 1…21.
    static func ratio(_ a: Double, _ b: Double) -> Double { (max(a, b) + 0.05) / (min(a, b) + 0.05) }
}

/// An opaque colour, straight sRGB components in 0…1.
struct RGB: Equatable {
    var red, green, blue: Double

    var luminance: Double { Contrast.luminance(red, green, blue) }

    /// `color` at `alpha` over this colour, as pixman and cairo blend (in sRGB).
    func under(_ color: RGB, alpha a: Double) -> RGB {
        RGB(red: a * color.red + (1 - a) * red, green: a * color.green + (1 - a) * green,
            blue: a * color.blue + (1 - a) * blue)
    }

    /// The mean colour of up to 8×8 samples spread over `rect` (device pixels) of an opaque
    /// image; nil when the rect misses it.
    static func average(of image: Image, in rect: PixelRect) -> RGB? {
        let r = rect.intersection(PixelRect(x: 0, y: 0, width: image.width, height: image.height))
        guard r.width > 0, r.height > 0 else { return nil }
        let data = image.data, row = Int(image.stride / 4)
        let nx = min(8, Int(r.width)), ny = min(8, Int(r.height))
        var sr = 0, sg = 0, sb = 0
        // The columns once, not per row: this runs every frame the pointer moves (issue 29).
        withUnsafeTemporaryAllocation(of: Int.self, capacity: nx) { columns in
            for i in 0..<nx { columns[i] = Int(r.x) + (2 * i + 1) * Int(r.width) / (2 * nx) }
            for j in 0..<ny {
                let line = data + (Int(r.y) + (2 * j + 1) * Int(r.height) / (2 * ny)) * row
                for x in columns {
                    let p = line[x]
                    sr &+= Int(p >> 16 & 0xff); sg &+= Int(p >> 8 & 0xff); sb &+= Int(p & 0xff)
                }
            }
        }
        let n = Double(nx * ny) * 255
        return RGB(red: Double(sr) / n, green: Double(sg) / n, blue: Double(sb) / n)
    }
}

/// The pointer's colour, adapted to the content beneath it so that it never vanishes: the
/// configured colour as long as it keeps `minimumContrast` against what is under it, else
/// moved toward a dark grey (over light and mid-tone content) or a light grey (over dark
/// content), only as far as it takes. The iPadOS pointer does the same: darker over light
/// content, lighter over dark. On the default light grey content nothing changes.
///
/// What is sampled is the content around the pointer as well as under it (4 points beyond its
/// outline), so a beam moving over text keeps a steady tone. Everything the overlay drew last
/// frame is inside this frame's damage, so the image holds no old pointer when it is sampled.
/// The tone is decided anew only when the whole pointer is inside the damage, and kept
/// otherwise: a partial repaint never shows two tones.
final class PointerTone {
    /// Against the content under the pointer, with a margin over the 3:1 of WCAG's
    /// non-text contrast.
    static let minimumContrast = 3.4
    static let dark = RGB(red: 0.11, green: 0.11, blue: 0.12)
    static let light = RGB(red: 0.94, green: 0.94, blue: 0.96)
    /// How opaque the pointer becomes at most while adapting.
    static let maximumAlpha = 0.88
    /// How far around the pointer the content counts (points).
    static let surround = 4.0

    // Both skip the dynamic exclusivity check (every pointer frame, issue 29): private, plain
    // values assigned whole by `color(for:over:scale:clip:)` alone.
    /// The content under the pointer when it was last repainted whole.
    @exclusivity(unchecked) private var background: RGB?
    /// The last answer, and what it was for.
    @exclusivity(unchecked) private var adapted: (color: PointerColor, configured: PointerColor, background: RGB)?

    /// The colour to draw `pointer` with, over the composed scene in `target` (`clip` is this
    /// frame's damage, output pixels).
    func color(for pointer: PointerGeometry, over target: Image, scale: Double, clip: PixelRegion) -> PointerColor {
        let shape = pointer.shape.scaled(by: pointer.scale).rect
        guard shape.isFinite, scale.isFinite, abs(shape.minX * scale) < 1e6, abs(shape.minY * scale) < 1e6,
              shape.width * scale < 16384, shape.height * scale < 16384 else { return pointer.color }
        func pixels(_ r: Rect<Global>) -> PixelRect {
            PixelRect(x: Int32(clamping: Int((r.minX * scale).rounded(.down))), y: Int32(clamping: Int((r.minY * scale).rounded(.down))),
                      width: Int32(clamping: Int((r.width * scale).rounded(.up)) + 1),
                      height: Int32(clamping: Int((r.height * scale).rounded(.up)) + 1))
        }
        if clip.contains(pixels(shape)), let under = RGB.average(of: target, in: pixels(shape.outset(by: Self.surround))) {
            background = under
        }
        guard let background else { return pointer.color }
        if let a = adapted, a.configured == pointer.color, a.background == background { return a.color }
        let made = Self.adapt(pointer.color, over: background)
        adapted = (made, pointer.color, background)
        return made
    }

    /// `color` moved toward the dark or light grey, with its alpha toward `maximumAlpha`, by the
    /// least amount that gives `minimumContrast` over `background` (as far as it can).
    static func adapt(_ color: PointerColor, over background: RGB) -> PointerColor {
        let own = RGB(red: color.red, green: color.green, blue: color.blue)
        let lb = background.luminance
        func contrast(_ t: Double) -> Double {
            let c = mix(own, color.alpha, toward: lb, t)
            return Contrast.ratio(background.under(c.rgb, alpha: c.alpha).luminance, lb)
        }
        if contrast(0) >= minimumContrast { return color }
        var lo = 0.0, hi = 1.0
        if contrast(1) >= minimumContrast {
            for _ in 0..<12 {
                let mid = (lo + hi) / 2
                if contrast(mid) >= minimumContrast { hi = mid } else { lo = mid }
            }
        }
        let c = mix(own, color.alpha, toward: lb, hi)
        return PointerColor(red: c.rgb.red, green: c.rgb.green, blue: c.rgb.blue, alpha: c.alpha)
    }

    /// The dark grey for content brighter than the point where black and white text have the
    /// same contrast (luminance ≈ 0.18), the light grey below it.
    private static func mix(_ c: RGB, _ alpha: Double, toward backgroundLuminance: Double, _ t: Double) -> (rgb: RGB, alpha: Double) {
        let goal = backgroundLuminance > 0.179 ? dark : light
        let a = max(alpha, alpha + (maximumAlpha - alpha) * t)
        return (RGB(red: c.red + (goal.red - c.red) * t, green: c.green + (goal.green - c.green) * t,
                    blue: c.blue + (goal.blue - c.blue) * t), a)
    }
}

extension PointerColor {
    /// This colour moved toward `other` by `t` (0 → self, 1 → other), alpha included.
    func mixed(with other: PointerColor, by t: Double) -> PointerColor {
        let t = min(1, max(0, t))
        return PointerColor(red: red + (other.red - red) * t, green: green + (other.green - green) * t,
                            blue: blue + (other.blue - blue) * t, alpha: alpha + (other.alpha - alpha) * t)
    }
}
