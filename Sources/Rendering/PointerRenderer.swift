import CCairo
import CPixman
import PointerEngine

/// A preview surface's pixels and where the surface sits (global logical coordinates).
public struct PreviewContent {
    public var image: Image
    public var x: Double, y: Double, width: Double, height: Double

    public init(image: Image, x: Double, y: Double, width: Double, height: Double) {
        self.image = image
        self.x = x; self.y = y; self.width = width; self.height = height
    }
}

/// Draws one `PointerPresentation` over an already composed scene: content effects, the
/// pointer, accessories, annotation and band. cairo works directly on the pixman image's
/// pixels (both are premultiplied 32-bit ARGB), antialiased, clipped to the frame's damage.
///
/// Paint order, bottom to top, is what makes the effects read right:
/// shadow and underlay → the pointer when it belongs beneath content (highlight platter,
/// fading lift pointer) → the element's pixels, moved and scaled → specular and overlay tint
/// → the pointer otherwise → band outline, accessories, annotation.
public final class PointerRenderer {
    /// The cairo surfaces over the output image and the preview's pixels, and the snapshot
    /// buffers of the two effects a frame can draw (one exiting, one current): kept from
    /// frame to frame so drawing the pointer allocates nothing of its own after warm-up.
    private let targetSurface = CairoSurfaceCache()
    private let previewSurface = CairoSurfaceCache()
    private let exitingSnapshot = SnapshotBuffer()
    private let currentSnapshot = SnapshotBuffer()
    /// The plain pointer's coverage masks (see `RoundedRectMasks`), also used for the pointer
    /// drawn in effect frames; the effects' own solid fills have theirs, one cache per fill so
    /// each keeps its own "same shape two frames running" rule.
    private let masks = RoundedRectMasks()
    private let exitingMasks = EffectMasks()
    private let currentMasks = EffectMasks()
    /// How many stacked fills make the lift/hover shadow (cairo path and composed mask alike).
    static let shadowLayers = 8

    public init() {}

    public func draw(_ p: PointerPresentation, into target: Image, scale: Double, clip: Region, preview: PreviewContent?) {
        guard !clip.isEmpty else { return }
        // Most frames show just the pointer moving over still content: no cairo for those.
        if drawPlainPointer(p, into: target, scale: scale, clip: clip) { return }
        guard let surface = targetSurface.surface(for: target) else { return }
        // The scene was composed by pixman behind cairo's back.
        cairo_surface_mark_dirty(surface)
        var canvas = Canvas(surface: surface, target: target, scale: scale, clip: clip)

        // The scene's pixels of each element whose pixels an effect moves, taken before anything
        // is drawn over them.
        let exiting = p.exitingContentEffect.map {
            EffectLayer($0, preview: nil, previewSurface: previewSurface, scene: target, scale: scale, snapshot: exitingSnapshot,
                        masks: exitingMasks)
        }
        let current = p.contentEffect.map {
            EffectLayer($0, preview: preview, previewSurface: previewSurface, scene: target, scale: scale, snapshot: currentSnapshot,
                        masks: currentMasks)
        }

        exiting?.drawUnderlays(&canvas)
        current?.drawUnderlays(&canvas)
        if p.pointer.drawsBeneathContent { drawPointer(p.pointer, &canvas) }
        exiting?.drawContent(&canvas)
        current?.drawContent(&canvas)
        if !p.pointer.drawsBeneathContent { drawPointer(p.pointer, &canvas) }
        guard p.bandRect != nil || !p.accessories.isEmpty || p.annotation != nil, let cr = canvas.cairo else { return }
        if let band = p.bandRect {
            Cairo.roundedRect(cr, x: band.minX + 0.5, y: band.minY + 0.5, width: max(0, band.width - 1),
                              height: max(0, band.height - 1), radius: 2)
            cairo_set_source_rgba(cr, 1, 1, 1, 0.7 * p.pointer.alpha)
            cairo_set_line_width(cr, 1)
            cairo_stroke(cr)
        }
        for a in p.accessories { drawAccessory(a, color: p.pointer.color, cr) }
        if let note = p.annotation { drawAnnotation(note, cr) }
    }

    // MARK: Pointer

    /// Draws a presentation that is only a filled rounded rect (no effect, border, path,
    /// band, accessory or annotation showing) from a cached mask; false if it is more than that.
    private func drawPlainPointer(_ p: PointerPresentation, into target: Image, scale: Double, clip: Region) -> Bool {
        let g = p.pointer
        guard p.exitingContentEffect == nil, p.contentEffect == nil, p.bandRect == nil, p.accessories.isEmpty,
              p.annotation.map({ $0.alpha <= 0.001 }) ?? true,
              g.customPath == nil || g.pathAlpha <= 0.001, (g.border?.width ?? 0) <= 0 else { return false }
        guard g.alpha > 0.001 else { return true }
        let shape = g.shape.scaled(by: g.scale), c = g.color
        return masks.fill(x: shape.rect.minX * scale, y: shape.rect.minY * scale, width: shape.rect.width * scale,
                          height: shape.rect.height * scale, radius: shape.cornerRadius * scale,
                          red: c.red, green: c.green, blue: c.blue, alpha: c.alpha * g.alpha, into: target, clip: clip)
    }

    private func drawPointer(_ g: PointerGeometry, _ canvas: inout Canvas) {
        let shape = g.shape.scaled(by: g.scale)
        let c = g.color
        let scale = canvas.scale
        // A borderless pointer (the highlight platter among them) is a solid fill: a cached mask
        // once its shape holds still.
        if g.alpha > 0.001, (g.border?.width ?? 0) > 0 || !canvas.fill({ target, clip in
            masks.fill(x: shape.rect.minX * scale, y: shape.rect.minY * scale, width: shape.rect.width * scale,
                       height: shape.rect.height * scale, radius: shape.cornerRadius * scale,
                       red: c.red, green: c.green, blue: c.blue, alpha: c.alpha * g.alpha, into: target, clip: clip)
        }), let cr = canvas.cairo {
            Cairo.roundedRect(cr, shape)
            cairo_set_source_rgba(cr, c.red, c.green, c.blue, c.alpha * g.alpha)
            if let border = g.border, border.width > 0 {
                cairo_fill_preserve(cr)
                cairo_set_line_width(cr, border.width)
                cairo_set_source_rgba(cr, border.color.red, border.color.green, border.color.blue, border.color.alpha * g.alpha)
                cairo_stroke(cr)
            } else {
                cairo_fill(cr)
            }
        }
        if let path = g.customPath, g.pathAlpha > 0.001, let cr = canvas.cairo {
            cairo_save(cr)
            cairo_translate(cr, shape.center.x, shape.center.y)
            cairo_scale(cr, g.scale, g.scale)
            Cairo.path(cr, path)
            cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD)
            cairo_set_source_rgba(cr, c.red, c.green, c.blue, c.alpha * g.pathAlpha)
            cairo_fill(cr)
            cairo_restore(cr)
        }
    }

    // MARK: Accessories and annotation

    private func drawAccessory(_ a: AccessoryPresentation, color c: PointerColor, _ cr: OpaquePointer) {
        func glyph(_ shape: AccessoryShape, alpha: Double) {
            guard alpha > 0.001 else { return }
            cairo_save(cr)
            cairo_translate(cr, a.center.x, a.center.y)
            cairo_rotate(cr, a.rotation)
            cairo_scale(cr, a.scale, a.scale)
            Cairo.path(cr, shape.outline(size: a.size))
            cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD)
            // Accessories read as part of the pointer: its colour, a little more solid.
            cairo_set_source_rgba(cr, c.red, c.green, c.blue, min(1, c.alpha + 0.15) * alpha)
            cairo_fill(cr)
            cairo_restore(cr)
        }
        glyph(a.shape, alpha: a.alpha * a.morphProgress)
        if let previous = a.previousShape { glyph(previous, alpha: a.alpha * (1 - a.morphProgress)) }
    }

    private func drawAnnotation(_ note: AnnotationPresentation, _ cr: OpaquePointer) {
        guard note.alpha > 0.001 else { return }
        let f = note.frame
        cairo_save(cr)
        Cairo.roundedRect(cr, x: f.minX, y: f.minY, width: f.width, height: f.height, radius: min(6, f.height / 2))
        cairo_set_source_rgba(cr, 0.12, 0.12, 0.14, 0.86 * note.alpha)
        cairo_fill_preserve(cr)
        // The box is the engine's estimate and the damage is computed from it: never draw outside.
        cairo_clip(cr)
        cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
        var size = min(13, f.height * 0.62)
        cairo_set_font_size(cr, size)
        var extents = cairo_text_extents_t()
        note.text.withCString { cairo_text_extents(cr, $0, &extents) }
        let room = f.width - 8
        if extents.x_advance > room && extents.x_advance > 0 {
            size *= room / extents.x_advance
            cairo_set_font_size(cr, size)
            note.text.withCString { cairo_text_extents(cr, $0, &extents) }
        }
        var font = cairo_font_extents_t()
        cairo_font_extents(cr, &font)
        let x = f.midX - extents.x_advance / 2
        let y = f.midY + (font.ascent - font.descent) / 2
        cairo_move_to(cr, x, y)
        cairo_set_source_rgba(cr, 1, 1, 1, note.alpha)
        note.text.withCString { cairo_show_text(cr, $0) }
        cairo_restore(cr)
    }
}

/// One content effect ready to draw: the effect plus the pixels it moves (a preview surface
/// or a snapshot of the scene under the element).
private struct EffectLayer {
    let effect: ContentEffect
    /// The pixels the effect moves, as a cairo surface of `pixelWidth`×`pixelHeight` (owned by
    /// the renderer's caches), and where they sit in global logical coordinates.
    let pixels: (surface: OpaquePointer, pixelWidth: Int32, pixelHeight: Int32, x: Double, y: Double, width: Double, height: Double)?
    let isPreview: Bool
    let masks: EffectMasks

    init(_ effect: ContentEffect, preview: PreviewContent?, previewSurface: CairoSurfaceCache, scene: Image, scale: Double,
         snapshot: SnapshotBuffer, masks: EffectMasks) {
        self.effect = effect
        self.masks = masks
        if let preview {
            pixels = previewSurface.surface(for: preview.image).map {
                // The client may have drawn into a reused buffer since the last frame.
                cairo_surface_mark_dirty($0)
                return ($0, preview.image.width, preview.image.height, preview.x, preview.y, preview.width, preview.height)
            }
            isPreview = true
        } else if effect.kind != .highlight && (effect.scale != 1 || effect.translation != .zero) {
            // Without a preview the highlight platter is blended over the element's pixels
            // where they are; lift and hover move and scale a snapshot of them.
            pixels = snapshot.take(scene, effect.frame.minX, effect.frame.minY, effect.frame.width, effect.frame.height, scale)
            isPreview = false
        } else {
            pixels = nil
            isPreview = false
        }
    }

    private var radius: Double { effect.platter?.cornerRadius ?? min(8, effect.frame.width / 2, effect.frame.height / 2) }

    /// Shadow and underlay tint: beneath the pointer and the element.
    func drawUnderlays(_ canvas: inout Canvas) {
        guard effect.progress > 0.001 else { return }
        let t = effect.transformedFrame, scale = canvas.scale
        if let s = effect.shadow, s.opacity > 0.001, !canvas.fill({ target, clip in
            let o = t.offset(by: s.offset)
            return masks.shadow.fillShadow(x: o.minX * scale, y: o.minY * scale, width: o.width * scale, height: o.height * scale,
                                           radius: radius * scale, blur: s.radius * scale, opacity: s.opacity,
                                           into: target, clip: clip)
        }), let cr = canvas.cairo {
            // A soft shadow as stacked translucent rounded rects: cheap, antialiased, and
            // its falloff reads like a blur at these radii.
            let layers = PointerRenderer.shadowLayers
            for k in 0..<layers {
                let spread = s.radius * (1 - Double(k) / Double(layers))
                let r = t.offset(by: s.offset).outset(by: spread - s.radius / 2)
                Cairo.roundedRect(cr, x: r.minX, y: r.minY, width: r.width, height: r.height, radius: radius + max(0, spread - s.radius / 2))
                cairo_set_source_rgba(cr, 0, 0, 0, s.opacity / Double(layers) * 1.6)
                cairo_fill(cr)
            }
        }
        if let tint = effect.tint, tint.mode == .underlay, tint.opacity > 0.001 {
            let r = effect.platter?.rect ?? t.outset(by: 4)
            guard !canvas.fill({ masks.underlay.fillTint(x: r.minX, y: r.minY, width: r.width, height: r.height, radius: radius, opacity: tint.opacity, scale: scale, into: $0, clip: $1) }),
                  let cr = canvas.cairo else { return }
            Cairo.roundedRect(cr, x: r.minX, y: r.minY, width: r.width, height: r.height, radius: radius)
            cairo_set_source_rgba(cr, 0.33, 0.33, 0.35, min(1, tint.opacity * 2.5))
            cairo_fill(cr)
        }
    }

    /// The element's pixels (moved and scaled), then specular and overlay tint.
    func drawContent(_ canvas: inout Canvas) {
        let t = effect.transformedFrame
        if let px = pixels, let cr = canvas.cairo {
            cairo_save(cr)
            let c = effect.frame.center
            cairo_translate(cr, c.x + effect.translation.dx, c.y + effect.translation.dy)
            cairo_scale(cr, effect.scale, effect.scale)
            cairo_translate(cr, -c.x, -c.y)
            if !isPreview {
                // Only the element moves; the clip keeps the background corners of the snapshot.
                Cairo.roundedRect(cr, x: effect.frame.minX, y: effect.frame.minY, width: effect.frame.width,
                                  height: effect.frame.height, radius: radius)
                cairo_clip(cr)
            }
            cairo_translate(cr, px.x, px.y)
            cairo_scale(cr, px.width / Double(px.pixelWidth), px.height / Double(px.pixelHeight))
            cairo_set_source_surface(cr, px.surface, 0, 0)
            cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
            cairo_paint(cr)
            cairo_restore(cr)
        }
        if let s = effect.specular, s.opacity > 0.001, s.radius > 0, let cr = canvas.cairo {
            cairo_save(cr)
            Cairo.roundedRect(cr, x: t.minX, y: t.minY, width: t.width, height: t.height, radius: radius)
            cairo_clip(cr)
            let g = cairo_pattern_create_radial(s.center.x, s.center.y, 0, s.center.x, s.center.y, s.radius)
            cairo_pattern_add_color_stop_rgba(g, 0, 1, 1, 1, s.opacity)
            cairo_pattern_add_color_stop_rgba(g, 1, 1, 1, 1, 0)
            cairo_set_source(cr, g)
            cairo_paint(cr)
            cairo_pattern_destroy(g)
            cairo_restore(cr)
        }
        let scale = canvas.scale
        if let tint = effect.tint, tint.mode == .overlay, tint.opacity > 0.001,
           !canvas.fill({ masks.overlay.fillTint(x: t.minX, y: t.minY, width: t.width, height: t.height, radius: radius,
                                                 opacity: tint.opacity, scale: scale, into: $0, clip: $1) }),
           let cr = canvas.cairo {
            Cairo.roundedRect(cr, x: t.minX, y: t.minY, width: t.width, height: t.height, radius: radius)
            cairo_set_source_rgba(cr, 0.33, 0.33, 0.35, min(1, tint.opacity * 2.5))
            cairo_fill(cr)
        }
    }
}

/// One effect layer's solid fills, each with its own mask cache (see `RoundedRectMasks`).
final class EffectMasks {
    let shadow = RoundedRectMasks()
    let underlay = RoundedRectMasks()
    let overlay = RoundedRectMasks()
}

extension RoundedRectMasks {
    /// The hover tint (underlay or overlay) of a rect in logical coordinates: the colour the
    /// cairo path uses, from a cached mask when its shape holds still.
    func fillTint(x: Double, y: Double, width: Double, height: Double, radius: Double, opacity: Double, scale: Double,
                  into target: Image, clip: Region) -> Bool {
        fill(x: x * scale, y: y * scale, width: width * scale, height: height * scale, radius: radius * scale,
             red: 0.33, green: 0.33, blue: 0.35, alpha: min(1, opacity * 2.5), into: target, clip: clip)
    }
}

/// One frame's drawing target. Solid fills go straight into the image through pixman masks;
/// the cairo context (with the damage clip and the output scale) is made only when something
/// needs cairo, since making one and clipping it costs allocations a steady frame should not.
struct Canvas: ~Copyable {
    let surface: OpaquePointer
    let target: Image
    let scale: Double
    let clip: Region
    private var cr: OpaquePointer?

    init(surface: OpaquePointer, target: Image, scale: Double, clip: Region) {
        self.surface = surface; self.target = target; self.scale = scale; self.clip = clip
    }

    /// The cairo context, clipped to the damage and scaled to logical coordinates.
    var cairo: OpaquePointer? {
        mutating get {
            if let cr { return cr }
            guard let made = cairo_create(surface) else { return nil }
            clip.forEachRect { r in cairo_rectangle(made, Double(r.x), Double(r.y), Double(r.width), Double(r.height)) }
            cairo_clip(made)
            cairo_scale(made, scale, scale)
            cr = made
            return made
        }
    }

    /// Runs a pixman fill (device pixels, clipped to the damage) between what cairo drew before
    /// and draws after: cairo's pixels are flushed first and it is told the image changed.
    /// Returns what `body` returns (false: nothing drawn, use cairo).
    mutating func fill(_ body: (Image, Region) -> Bool) -> Bool {
        if cr != nil { cairo_surface_flush(surface) }
        let drew = body(target, clip)
        if cr != nil { cairo_surface_mark_dirty(surface) }
        return drew
    }

    deinit {
        if let cr { cairo_destroy(cr) }
        cairo_surface_flush(surface)
    }
}

/// A cairo surface over one image's pixels, made again only when the image changes (a new
/// output mode, another preview buffer): creating one per frame costs two allocations.
/// It keeps its image alive, so the surface never outlives the pixels it points at.
final class CairoSurfaceCache {
    private var image: Image?
    private var cached: OpaquePointer?

    func surface(for image: Image) -> OpaquePointer? {
        if image !== self.image {
            if let cached { cairo_surface_destroy(cached) }
            cached = Cairo.surface(for: image)
            self.image = cached == nil ? nil : image
        }
        return cached
    }

    deinit { if let cached { cairo_surface_destroy(cached) } }
}

/// A copy of the scene's pixels under an element, in an image reused while the element's
/// size in pixels stays the same.
final class SnapshotBuffer {
    private var image: Image?
    private let surfaceCache = CairoSurfaceCache()

    /// Copies the scene's pixels of the element (output pixels, so scaled outputs stay sharp).
    func take(_ scene: Image, _ x: Double, _ y: Double, _ w: Double, _ h: Double, _ s: Double)
        -> (surface: OpaquePointer, pixelWidth: Int32, pixelHeight: Int32, x: Double, y: Double, width: Double, height: Double)? {
        let x0 = max(0, Int32((x * s).rounded(.down))), y0 = max(0, Int32((y * s).rounded(.down)))
        let x1 = min(scene.width, Int32(((x + w) * s).rounded(.up))), y1 = min(scene.height, Int32(((y + h) * s).rounded(.up)))
        guard x1 > x0, y1 > y0 else { return nil }
        let image: Image
        if let kept = self.image, kept.width == x1 - x0, kept.height == y1 - y0 {
            image = kept
        } else {
            image = Image(width: x1 - x0, height: y1 - y0, format: .argb8888)
            self.image = image
        }
        // pixman reads xrgb as opaque, so the copy of an xrgb scene is opaque argb; SRC
        // replaces every pixel, so what the reused image held before does not show.
        pixman_image_composite32(PIXMAN_OP_SRC, scene.pointer, nil, image.pointer, x0, y0, 0, 0, 0, 0, x1 - x0, y1 - y0)
        guard let surface = surfaceCache.surface(for: image) else { return nil }
        cairo_surface_mark_dirty(surface)
        return (surface, x1 - x0, y1 - y0, Double(x0) / s, Double(y0) / s, Double(x1 - x0) / s, Double(y1 - y0) / s)
    }
}

/// Small cairo helpers: surfaces over pixman images, rounded rects and engine paths.
enum Cairo {
    /// A cairo surface over an image's pixels (no copy); destroy it before the image goes.
    static func surface(for image: Image) -> OpaquePointer? {
        let format = image.format == .argb8888 ? CAIRO_FORMAT_ARGB32 : CAIRO_FORMAT_RGB24
        guard let s = cairo_image_surface_create_for_data(UnsafeMutableRawPointer(image.data).assumingMemoryBound(to: UInt8.self),
                                                          format, image.width, image.height, image.stride) else { return nil }
        guard cairo_surface_status(s) == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(s)
            return nil
        }
        return s
    }

    static func roundedRect<S>(_ cr: OpaquePointer, _ r: RoundedRect<S>) {
        roundedRect(cr, x: r.rect.minX, y: r.rect.minY, width: r.rect.width, height: r.rect.height, radius: r.cornerRadius)
    }

    static func roundedRect(_ cr: OpaquePointer, x: Double, y: Double, width w: Double, height h: Double, radius: Double) {
        let r = max(0, min(radius, w / 2, h / 2))
        cairo_new_sub_path(cr)
        if r <= 0 {
            cairo_rectangle(cr, x, y, w, h)
            return
        }
        cairo_arc(cr, x + w - r, y + r, r, -Double.pi / 2, 0)
        cairo_arc(cr, x + w - r, y + h - r, r, 0, Double.pi / 2)
        cairo_arc(cr, x + r, y + h - r, r, Double.pi / 2, Double.pi)
        cairo_arc(cr, x + r, y + r, r, Double.pi, 3 * Double.pi / 2)
        cairo_close_path(cr)
    }

    static func path<S>(_ cr: OpaquePointer, _ path: Path<S>) {
        cairo_new_path(cr)
        for element in path.elements {
            switch element {
            case .move(let p): cairo_move_to(cr, p.x, p.y)
            case .line(let p): cairo_line_to(cr, p.x, p.y)
            case .quad(let c, let p):
                // cairo has only cubics: raise the quadratic's degree.
                var x0 = 0.0, y0 = 0.0
                cairo_get_current_point(cr, &x0, &y0)
                cairo_curve_to(cr, x0 + 2 / 3 * (c.x - x0), y0 + 2 / 3 * (c.y - y0),
                               p.x + 2 / 3 * (c.x - p.x), p.y + 2 / 3 * (c.y - p.y), p.x, p.y)
            case .cubic(let c1, let c2, let p): cairo_curve_to(cr, c1.x, c1.y, c2.x, c2.y, p.x, p.y)
            case .close: cairo_close_path(cr)
            }
        }
    }
}
