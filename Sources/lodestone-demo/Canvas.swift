import CCairo
import WaylandClient

/// A window-local rectangle in logical points.
struct Box: Equatable {
    var x: Double, y: Double, width: Double, height: Double

    init(_ x: Double, _ y: Double, _ width: Double, _ height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    var maxX: Double { x + width }
    var maxY: Double { y + height }
    var midX: Double { x + width / 2 }
    var midY: Double { y + height / 2 }

    func contains(_ p: Point) -> Bool { p.x >= x && p.x < maxX && p.y >= y && p.y < maxY }
    func inset(_ d: Double) -> Box { Box(x + d, y + d, width - 2 * d, height - 2 * d) }
    func intersects(_ o: Box) -> Bool { x < o.maxX && o.x < maxX && y < o.maxY && o.y < maxY }

    /// The protocol's integer frame.
    var frame: (x: Int32, y: Int32, width: Int32, height: Int32) {
        (Int32(x.rounded()), Int32(y.rounded()), Int32(width.rounded()), Int32(height.rounded()))
    }
}

struct Point: Equatable {
    var x: Double, y: Double
    init(_ x: Double, _ y: Double) { self.x = x; self.y = y }
    /// Where the pointer is when it is not over the window.
    static let outside = Point(-1000, -1000)
}

/// An RGBA colour, components 0...1.
struct Color {
    var r: Double, g: Double, b: Double, a: Double = 1

    init(_ r: Double, _ g: Double, _ b: Double, _ a: Double = 1) { self.r = r; self.g = g; self.b = b; self.a = a }
    /// From 0xRRGGBB.
    init(hex: UInt32, alpha: Double = 1) {
        self.init(Double(hex >> 16 & 0xff) / 255, Double(hex >> 8 & 0xff) / 255, Double(hex & 0xff) / 255, alpha)
    }

    func with(alpha: Double) -> Color { Color(r, g, b, alpha) }
    /// Part way (`t` from 0 to 1) towards `other`.
    func mixed(with other: Color, _ t: Double) -> Color {
        Color(r + (other.r - r) * t, g + (other.g - g) * t, b + (other.b - b) * t, a + (other.a - a) * t)
    }

    static let window = Color(hex: 0xeef0f4)
    static let panel = Color(hex: 0xffffff)
    static let ink = Color(hex: 0x1c1c1e)
    static let secondaryInk = Color(hex: 0x6e6e73)
    static let separator = Color(hex: 0xd1d1d6)
    static let fill = Color(hex: 0xe5e5ea)
    static let accent = Color(hex: 0x0a64d6)
    static let selection = Color(hex: 0xb3d4fc)
    static let red = Color(hex: 0xd93025)
    static let green = Color(hex: 0x1e9e4a)
}

/// The few drawing operations the demo needs, over a `cairo_t` that paints
/// straight into a wl_shm buffer (cairo's ARGB32 is wl_shm's ARGB8888).
final class Canvas {
    let cr: OpaquePointer
    private let surface: OpaquePointer

    /// A canvas over `buffer`, drawing in logical points at `scale`.
    init?(_ buffer: ClientShmBuffer, scale: Double) {
        // The cairo surface borrows the mapping: the demo keeps the buffer while it draws.
        let made = buffer.withPixels { pixels in
            pixels.baseAddress.flatMap { base in
                base.withMemoryRebound(to: UInt8.self, capacity: pixels.count * 4) {
                    cairo_image_surface_create_for_data($0, CAIRO_FORMAT_ARGB32, buffer.width, buffer.height, buffer.stride)
                }
            }
        }
        guard let s = made, let c = cairo_create(s) else { return nil }
        surface = s
        cr = c
        cairo_scale(cr, scale, scale)
    }

    /// A canvas that only measures text (its own 1×1 image).
    init() {
        surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1)
        cr = cairo_create(surface)
    }

    deinit {
        cairo_destroy(cr)
        cairo_surface_flush(surface)
        cairo_surface_destroy(surface)
    }

    func set(_ c: Color) { cairo_set_source_rgba(cr, c.r, c.g, c.b, c.a) }

    func roundedRect(_ b: Box, radius: Double) {
        let r = min(radius, b.width / 2, b.height / 2)
        cairo_new_sub_path(cr)
        cairo_arc(cr, b.maxX - r, b.y + r, r, -.pi / 2, 0)
        cairo_arc(cr, b.maxX - r, b.maxY - r, r, 0, .pi / 2)
        cairo_arc(cr, b.x + r, b.maxY - r, r, .pi / 2, .pi)
        cairo_arc(cr, b.x + r, b.y + r, r, .pi, 3 * .pi / 2)
        cairo_close_path(cr)
    }

    func fill(_ b: Box, _ c: Color, radius: Double = 0) {
        set(c)
        if radius > 0 { roundedRect(b, radius: radius) } else { cairo_rectangle(cr, b.x, b.y, b.width, b.height) }
        cairo_fill(cr)
    }

    func stroke(_ b: Box, _ c: Color, radius: Double = 0, width: Double = 1) {
        set(c)
        cairo_set_line_width(cr, width)
        if radius > 0 { roundedRect(b, radius: radius) } else { cairo_rectangle(cr, b.x, b.y, b.width, b.height) }
        cairo_stroke(cr)
    }

    /// A soft drop shadow under a rounded rectangle (a few stacked translucent outlines).
    func shadow(_ b: Box, radius: Double, depth: Double = 6, opacity: Double = 0.10) {
        for i in stride(from: depth, through: 1, by: -1) {
            fill(Box(b.x - i / 2, b.y + i / 2, b.width + i, b.height + i / 2 + 1), Color(0, 0, 0, opacity / depth),
                 radius: radius + i / 2)
        }
    }

    /// A vertical two-colour gradient filling a rounded rectangle.
    func gradient(_ b: Box, top: Color, bottom: Color, radius: Double) {
        guard let pattern = cairo_pattern_create_linear(0, b.y, 0, b.maxY) else { return }
        defer { cairo_pattern_destroy(pattern) }
        cairo_pattern_add_color_stop_rgba(pattern, 0, top.r, top.g, top.b, top.a)
        cairo_pattern_add_color_stop_rgba(pattern, 1, bottom.r, bottom.g, bottom.b, bottom.a)
        cairo_set_source(cr, pattern)
        roundedRect(b, radius: radius)
        cairo_fill(cr)
    }

    func line(from a: Point, to b: Point, _ c: Color, width: Double = 1) {
        set(c)
        cairo_set_line_width(cr, width)
        cairo_move_to(cr, a.x, a.y)
        cairo_line_to(cr, b.x, b.y)
        cairo_stroke(cr)
    }

    // A path built point by point, then stroked.
    func lineWidth(_ w: Double) { cairo_set_line_width(cr, w) }
    func moveTo(_ p: Point) { cairo_move_to(cr, p.x, p.y) }
    func lineTo(_ p: Point) { cairo_line_to(cr, p.x, p.y) }
    func strokePath() { cairo_stroke(cr) }
    func roundCaps() {
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
    }

    /// Dashed strokes from now on (`[]`: solid again).
    func dash(_ pattern: [Double]) { cairo_set_dash(cr, pattern, Int32(pattern.count), 0) }

    func circle(at p: Point, radius: Double, _ c: Color) {
        set(c)
        cairo_new_sub_path(cr)
        cairo_arc(cr, p.x, p.y, radius, 0, 2 * .pi)
        cairo_fill(cr)
    }

    // MARK: Text (cairo's toy font API over fontconfig: DejaVu Sans on Debian)

    struct Font {
        var size: Double
        var bold = false
        var italic = false
        static let body = Font(size: 15)
        static let caption = Font(size: 12, bold: true)
        static let small = Font(size: 12)
    }

    private func select(_ font: Font) {
        cairo_select_font_face(cr, "DejaVu Sans", font.italic ? CAIRO_FONT_SLANT_ITALIC : CAIRO_FONT_SLANT_NORMAL,
                               font.bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(cr, font.size)
    }

    /// Width of `text` in `font` (its advance).
    func measure(_ text: String, _ font: Font) -> Double {
        select(font)
        var e = cairo_text_extents_t()
        text.withCString { cairo_text_extents(cr, $0, &e) }
        return e.x_advance
    }

    /// Draws `text` with its baseline at `p.y`.
    func text(_ text: String, at p: Point, _ font: Font = .body, _ c: Color = .ink) {
        select(font)
        set(c)
        cairo_move_to(cr, p.x, p.y)
        text.withCString { cairo_show_text(cr, $0) }
    }

    /// Draws `text` centred in `b` (vertically by the font size).
    func text(_ text: String, centeredIn b: Box, _ font: Font = .body, _ c: Color = .ink) {
        let w = measure(text, font)
        self.text(text, at: Point(b.midX - w / 2, b.midY + font.size * 0.36), font, c)
    }

    func clip(_ b: Box) {
        cairo_save(cr)
        cairo_rectangle(cr, b.x, b.y, b.width, b.height)
        cairo_clip(cr)
    }

    func unclip() { cairo_restore(cr) }
}
