import CCairo

/// A cairo drawing context: a `cairo_t *`.
///
/// A thin value over the C calls Rendering makes, named after them (`fill()` is `cairo_fill`).
/// It owns nothing by itself: each successful `init(drawingOn:)` is paired with one `destroy()`,
/// as `cairo_create` is with `cairo_destroy`. The pointer never leaves this file.
struct CairoContext {
    /// The `cairo_t *`.
    private let pointer: OpaquePointer

    /// A context drawing on `surface` (`cairo_create`); nil if cairo could not make one.
    init?(drawingOn surface: CairoSurface) {
        guard let cr = surface.withUnsafeSurfacePointer({ cairo_create($0) }) else { return nil }
        pointer = cr
    }

    /// Frees the context (`cairo_destroy`); it must not be used afterwards.
    func destroy() { cairo_destroy(pointer) }

    // MARK: State

    /// Pushes the transform, clip, source and the rest of the drawing state.
    func save() { cairo_save(pointer) }
    /// Pops what the matching `save()` pushed.
    func restore() { cairo_restore(pointer) }

    // MARK: Transforms (of user space, applied to what is drawn next)

    func translate(_ dx: Double, _ dy: Double) { cairo_translate(pointer, dx, dy) }
    func scale(_ sx: Double, _ sy: Double) { cairo_scale(pointer, sx, sy) }
    /// Rotates by `angle` radians.
    func rotate(_ angle: Double) { cairo_rotate(pointer, angle) }

    // MARK: Paths

    /// Clears the current path.
    func newPath() { cairo_new_path(pointer) }
    /// Starts a sub-path with no current point (the next arc does not join the previous one).
    func newSubPath() { cairo_new_sub_path(pointer) }
    func closePath() { cairo_close_path(pointer) }
    func moveTo(x: Double, y: Double) { cairo_move_to(pointer, x, y) }
    func lineTo(x: Double, y: Double) { cairo_line_to(pointer, x, y) }
    /// A cubic Bézier from the current point through two control points to (x3, y3).
    func curveTo(x1: Double, y1: Double, x2: Double, y2: Double, x3: Double, y3: Double) {
        cairo_curve_to(pointer, x1, y1, x2, y2, x3, y3)
    }
    /// A clockwise arc (angles in radians, 0 along +x, y down).
    func arc(centerX: Double, centerY: Double, radius: Double, from angle1: Double, to angle2: Double) {
        cairo_arc(pointer, centerX, centerY, radius, angle1, angle2)
    }
    /// A closed rectangle sub-path.
    func rectangle(x: Double, y: Double, width: Double, height: Double) { cairo_rectangle(pointer, x, y, width, height) }
    /// The current point in user space ((0, 0) when there is none).
    var currentPoint: (x: Double, y: Double) {
        var x = 0.0, y = 0.0
        cairo_get_current_point(pointer, &x, &y)
        return (x, y)
    }

    /// How a path's inside is decided (`cairo_fill_rule_t`).
    enum FillRule {
        case winding, evenOdd

        fileprivate var cairo: cairo_fill_rule_t { self == .evenOdd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING }
    }

    func setFillRule(_ rule: FillRule) { cairo_set_fill_rule(pointer, rule.cairo) }

    /// How drawing combines with what is there (`cairo_operator_t`): over, or add (plus-lighter).
    enum Operator {
        case over, add

        fileprivate var cairo: cairo_operator_t { self == .add ? CAIRO_OPERATOR_ADD : CAIRO_OPERATOR_OVER }
    }

    func setOperator(_ op: Operator) { cairo_set_operator(pointer, op.cairo) }
    func setLineWidth(_ width: Double) { cairo_set_line_width(pointer, width) }
    /// Round caps and joins (`CAIRO_LINE_CAP_ROUND`, `CAIRO_LINE_JOIN_ROUND`): a pen's ink.
    func setRoundLines() {
        cairo_set_line_cap(pointer, CAIRO_LINE_CAP_ROUND)
        cairo_set_line_join(pointer, CAIRO_LINE_JOIN_ROUND)
    }

    // MARK: Sources

    /// A solid colour, straight (not premultiplied) components in 0…1.
    func setSource(red: Double, green: Double, blue: Double, alpha: Double) {
        cairo_set_source_rgba(pointer, red, green, blue, alpha)
    }

    /// How a surface source is sampled when scaled (`cairo_filter_t`).
    enum Filter {
        case fast, good, best

        fileprivate var cairo: cairo_filter_t {
            switch self {
            case .fast: CAIRO_FILTER_FAST
            case .good: CAIRO_FILTER_GOOD
            case .best: CAIRO_FILTER_BEST
            }
        }
    }

    /// `surface`'s pixels, its origin at (x, y) in user space, sampled with `filter`.
    func setSource(_ surface: CairoSurface, x: Double, y: Double, filter: Filter) {
        surface.withUnsafeSurfacePointer { cairo_set_source_surface(pointer, $0, x, y) }
        cairo_pattern_set_filter(cairo_get_source(pointer), filter.cairo)
    }

    /// A radial gradient from `inner` at the centre to `outer` at `radius` (straight colours).
    func setSourceRadialGradient(centerX: Double, centerY: Double, radius: Double,
                                 inner: (red: Double, green: Double, blue: Double, alpha: Double),
                                 outer: (red: Double, green: Double, blue: Double, alpha: Double)) {
        let gradient = cairo_pattern_create_radial(centerX, centerY, 0, centerX, centerY, radius)
        cairo_pattern_add_color_stop_rgba(gradient, 0, inner.red, inner.green, inner.blue, inner.alpha)
        cairo_pattern_add_color_stop_rgba(gradient, 1, outer.red, outer.green, outer.blue, outer.alpha)
        cairo_set_source(pointer, gradient)
        // The context holds its own reference while the gradient is its source.
        cairo_pattern_destroy(gradient)
    }

    /// A radial gradient of white, each stop an (offset 0…1 of `radius`, alpha) pair.
    func setSourceRadialGradient(centerX: Double, centerY: Double, radius: Double, white stops: [(Double, Double)]) {
        let gradient = cairo_pattern_create_radial(centerX, centerY, 0, centerX, centerY, radius)
        for (offset, alpha) in stops { cairo_pattern_add_color_stop_rgba(gradient, offset, 1, 1, 1, alpha) }
        cairo_set_source(pointer, gradient)
        cairo_pattern_destroy(gradient)
    }

    // MARK: Drawing

    /// Paints the source everywhere inside the clip.
    func paint() { cairo_paint(pointer) }
    /// Fills the current path with the source, then clears the path.
    func fill() { cairo_fill(pointer) }
    /// Fills the current path and keeps it (for a stroke or a clip after).
    func fillPreserve() { cairo_fill_preserve(pointer) }
    /// Strokes the current path with the source and line width, then clears the path.
    func stroke() { cairo_stroke(pointer) }
    /// Intersects the clip with the current path, then clears the path.
    func clip() { cairo_clip(pointer) }

    // MARK: Text (cairo's toy font API, through fontconfig)

    /// Picks a font family, upright and regular weight.
    func selectFontFace(_ family: String) {
        cairo_select_font_face(pointer, family, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
    }
    func setFontSize(_ size: Double) { cairo_set_font_size(pointer, size) }
    /// How far `text` moves the current point along x, in the current font.
    func textAdvance(_ text: String) -> Double {
        var extents = cairo_text_extents_t()
        text.withCString { cairo_text_extents(pointer, $0, &extents) }
        return extents.x_advance
    }
    /// The current font's ascent and descent (both positive, in user space).
    func fontExtents() -> (ascent: Double, descent: Double) {
        var font = cairo_font_extents_t()
        cairo_font_extents(pointer, &font)
        return (font.ascent, font.descent)
    }
    /// Draws `text` with the source, its baseline starting at the current point.
    func showText(_ text: String) { text.withCString { cairo_show_text(pointer, $0) } }
}
