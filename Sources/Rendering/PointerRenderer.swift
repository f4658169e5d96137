import AdaptivePointerEngine

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
/// fading lift pointer) → the element's pixels, moved and scaled (or, for a highlight without
/// a preview, lifted off their background and put back over the platter: `HighlightBackdrop`)
/// → specular and overlay tint → the pointer otherwise → band, accessories, annotation.
///
/// This file orchestrates one frame and draws the pointer's own parts; beside it are the
/// content effects (`EffectLayer`), the frame's target (`Canvas`), the cairo-free plain-pointer
/// path (`PlainPointer.swift`, `RoundedRectMasks`), the caches kept between frames
/// (`SurfaceCaches.swift`) and the typed cairo layer (`CairoContext`, `CairoSurface`).
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
    /// The pointer's colour adapted to the content under it (see `PointerTone`).
    private let tone = PointerTone()
    /// The highlight platter beneath the content of an element without a preview surface, and
    /// the platter's colour last frame (the pointer keeps it while it shrinks away).
    private let backdrop = HighlightBackdrop()
    /// The element the platter is sliding away from (contiguous bar buttons), lifted too.
    private let exitingBackdrop = HighlightBackdrop()
    private var platterColor: PointerColor?
    /// The arrow's outline at the size last drawn (building a path allocates).
    private var arrowOutline: (size: Double, path: Path<PointerLocal>)?

    public init() {}

    public func draw(_ p: PointerPresentation, into target: Image, scale: Double, clip: PixelRegion, preview: PreviewContent?) {
        guard !clip.isEmpty else { return }
        // Decided from the scene before anything is drawn over it.
        var pointer = p.pointer
        pointer.color = tone.color(for: pointer, over: target, scale: scale, clip: clip)
        // Most frames show just the pointer moving over still content: no cairo for those.
        if p.isPlainPointer, pointer.alpha <= 0.001 || masks.fillPointer(pointer, scale: scale, into: target, clip: clip) {
            return
        }
        guard let surface = targetSurface.surface(for: target) else { return }
        // The scene was composed by pixman behind cairo's back.
        surface.markDirty()
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

        // During a band selection the pointer has become the band, drawn below on its own.
        let showsPointer = p.bandRect == nil
        // Highlight: the platter goes beneath the element's content, in a colour made for the
        // content around the element (see `HighlightBackdrop`); the pointer turns into it as
        // it becomes the platter, and back as it leaves.
        var liftsContent = false, liftsExiting = false
        if showsPointer, pointer.drawsBeneathContent, let effect = p.contentEffect, effect.kind == .highlight,
           backdrop.prepare(scene: target, frame: effect.frame, scale: scale, liftsContent: preview == nil),
           let key = backdrop.key {
            let platter = HighlightBackdrop.platterColor(over: key)
            platterColor = platter
            pointer.color = pointer.color.mixed(with: platter, by: effect.progress)
            liftsContent = preview == nil
            // Gliding from one bar button to the next, the platter passes under the last one too.
            if let x = p.exitingContentEffect, x.kind == .highlight {
                liftsExiting = exitingBackdrop.prepare(scene: target, frame: x.frame, scale: scale, liftsContent: true)
            }
        } else if showsPointer, !pointer.drawsBeneathContent, let x = p.exitingContentEffect, x.kind == .highlight,
                  let platter = platterColor {
            pointer.color = pointer.color.mixed(with: platter, by: x.progress)
        }
        if liftsExiting { _ = canvas.fill { exitingBackdrop.clearContent(into: $0, clip: $1); return true } }
        if liftsContent { _ = canvas.fill { backdrop.clearContent(into: $0, clip: $1); return true } }

        exiting?.drawUnderlays(&canvas)
        current?.drawUnderlays(&canvas)
        if showsPointer && pointer.drawsBeneathContent { drawPointer(pointer, &canvas) }
        exiting?.drawContent(&canvas)
        current?.drawContent(&canvas)
        if liftsExiting { _ = canvas.fill { exitingBackdrop.drawContent(into: $0, clip: $1); return true } }
        if liftsContent { _ = canvas.fill { backdrop.drawContent(into: $0, clip: $1); return true } }
        if showsPointer && !pointer.drawsBeneathContent { drawPointer(pointer, &canvas) }
        // The arrow always stays over the content, also while it cross-fades into a platter.
        if showsPointer, pointer.arrowAlpha > 0.001, let cr = canvas.cairo { drawArrow(pointer, cr) }
        if let mark = p.hoverMark, let cr = canvas.cairo { drawHoverMark(mark, color: mark.color ?? pointer.color, cr) }
        guard p.bandRect != nil || !p.accessories.isEmpty || p.annotation != nil, let cr = canvas.cairo else { return }
        if let band = p.bandRect { drawBand(band, color: pointer.color, alpha: pointer.alpha, cr) }
        for a in p.accessories { drawAccessory(a, color: pointer.color, cr) }
        if let note = p.annotation { drawAnnotation(note, cr) }
    }

    // MARK: Pointer

    private func drawPointer(_ g: PointerGeometry, _ canvas: inout Canvas) {
        let shape = g.shape.scaled(by: g.scale)
        let c = g.color
        let scale = canvas.scale
        // A borderless pointer (the highlight platter among them) is a solid fill: a cached mask
        // once its shape holds still.
        if g.alpha > 0.001, (g.border?.width ?? 0) > 0 || !canvas.fill({ target, clip in
            masks.fillPointer(g, scale: scale, into: target, clip: clip)
        }), let cr = canvas.cairo {
            cr.roundedRect(shape)
            cr.setSource(red: c.red, green: c.green, blue: c.blue, alpha: c.alpha * g.alpha)
            if let border = g.border, border.width > 0 {
                cr.fillPreserve()
                cr.setLineWidth(border.width)
                cr.setSource(red: border.color.red, green: border.color.green, blue: border.color.blue,
                             alpha: border.color.alpha * g.alpha)
                cr.stroke()
            } else {
                cr.fill()
            }
        }
        if let path = g.customPath, g.pathAlpha > 0.001, let cr = canvas.cairo {
            cr.save()
            cr.translate(shape.center.x, shape.center.y)
            cr.scale(g.scale, g.scale)
            cr.setPath(path)
            cr.setFillRule(.evenOdd)
            cr.setSource(red: c.red, green: c.green, blue: c.blue, alpha: c.alpha * g.pathAlpha)
            cr.fill()
            cr.restore()
        }
    }

    /// The arrow style's pointer: its outline (`PointerArrow`, cached per size) filled in the
    /// pointer's colour, which `PointerTone` has already adapted to the content under it,
    /// with a rim just outside the outline in the opposite tone (light around a dark fill,
    /// dark around a light one), so the tip's shape reads even where the fill alone is faint;
    /// with a border set, the border is the rim.
    private func drawArrow(_ g: PointerGeometry, _ cr: CairoContext) {
        if arrowOutline?.size != g.arrowSize { arrowOutline = (g.arrowSize, PointerArrow.outline(size: g.arrowSize)) }
        guard let outline = arrowOutline?.path else { return }
        let c = g.color, a = g.arrowAlpha
        // The border setting (and increased contrast) draws its border as the rim.
        let rim = g.border?.color ?? Self.arrowRim(for: c)
        let rimWidth = g.border.map { max($0.width, PointerGeometry.arrowRimWidth) } ?? PointerGeometry.arrowRimWidth
        cr.save()
        cr.translate(g.arrowTip.x, g.arrowTip.y)
        cr.scale(g.scale, g.scale)
        // The rim: a stroke twice its width, clipped to the outside of the outline, so the
        // translucent fill never shows it through.
        let b = PointerArrow.bounds(size: g.arrowSize).outset(by: rimWidth + 2)
        cr.save()
        cr.setPath(outline)
        cr.rectangle(x: b.minX, y: b.minY, width: b.width, height: b.height)
        cr.setFillRule(.evenOdd)
        cr.clip()
        cr.setPath(outline)
        cr.setLineWidth(2 * rimWidth)
        cr.setSource(red: rim.red, green: rim.green, blue: rim.blue, alpha: rim.alpha * a)
        cr.stroke()
        cr.restore()
        cr.setPath(outline)
        cr.setFillRule(.winding)
        cr.setSource(red: c.red, green: c.green, blue: c.blue, alpha: c.alpha * a)
        cr.fill()
        cr.restore()
    }

    /// The arrow's rim: near-white around a fill darker than mid-grey, near-black otherwise.
    static func arrowRim(for fill: PointerColor) -> PointerColor {
        Contrast.luminance(fill.red, fill.green, fill.blue) < 0.3
            ? PointerColor(red: 1, green: 1, blue: 1, alpha: 0.9) : PointerColor(red: 0.1, green: 0.1, blue: 0.11, alpha: 0.8)
    }

    /// The Pencil hover preview: a soft dot in the pointer's colour (or the drawing tool's
    /// ink) with a rim that stands out from it, so it reads on dark and light content alike.
    private func drawHoverMark(_ m: HoverMark, color c: PointerColor, _ cr: CairoContext) {
        cr.newPath()
        cr.arc(centerX: m.center.x, centerY: m.center.y, radius: m.radius, from: 0, to: 2 * Double.pi)
        cr.setSource(red: c.red, green: c.green, blue: c.blue, alpha: m.alpha)
        cr.fillPreserve()
        cr.setLineWidth(1)
        if m.color != nil {
            // The ink's own ring: dark around light ink, light around dark (see `DrawingTool.ring`).
            let ring = DrawingTool(diameter: 1, color: c).ring.color
            cr.setSource(red: ring.red, green: ring.green, blue: ring.blue, alpha: ring.alpha * max(m.alpha, 0.35))
        } else {
            cr.setSource(red: 1, green: 1, blue: 1, alpha: m.alpha * 0.8)
        }
        cr.stroke()
    }

    // MARK: Band selection

    /// Opacity of the band's fill: light enough that the items being selected show through.
    static let bandFillOpacity = 0.16
    /// Opacity of its one-point border.
    static let bandBorderOpacity = 0.7

    /// The band: a light translucent fill in the pointer's colour and a thin border, both on
    /// exactly the rectangle the client is told (the press scale, which the pointer's own
    /// shape carries while the button is down, does not apply to it).
    private func drawBand(_ band: Rect<Global>, color c: PointerColor, alpha: Double, _ cr: CairoContext) {
        guard alpha > 0.001, band.width > 0, band.height > 0 else { return }
        cr.rectangle(x: band.minX, y: band.minY, width: band.width, height: band.height)
        cr.setSource(red: c.red, green: c.green, blue: c.blue, alpha: Self.bandFillOpacity * alpha)
        cr.fill()
        cr.rectangle(x: band.minX + 0.5, y: band.minY + 0.5, width: max(0, band.width - 1), height: max(0, band.height - 1))
        cr.setSource(red: c.red, green: c.green, blue: c.blue, alpha: Self.bandBorderOpacity * alpha)
        cr.setLineWidth(1)
        cr.stroke()
    }

    // MARK: Accessories and annotation

    private func drawAccessory(_ a: AccessoryPresentation, color c: PointerColor, _ cr: CairoContext) {
        func glyph(_ shape: AccessoryShape, alpha: Double) {
            guard alpha > 0.001 else { return }
            cr.save()
            cr.translate(a.center.x, a.center.y)
            cr.rotate(a.rotation)
            cr.scale(a.scale, a.scale)
            cr.setPath(shape.outline(size: a.size))
            cr.setFillRule(.evenOdd)
            // Accessories read as part of the pointer: its colour, a little more solid.
            cr.setSource(red: c.red, green: c.green, blue: c.blue, alpha: min(1, c.alpha + 0.15) * alpha)
            cr.fill()
            cr.restore()
        }
        glyph(a.shape, alpha: a.alpha * a.morphProgress)
        if let previous = a.previousShape { glyph(previous, alpha: a.alpha * (1 - a.morphProgress)) }
    }

    private func drawAnnotation(_ note: AnnotationPresentation, _ cr: CairoContext) {
        guard note.alpha > 0.001 else { return }
        let f = note.frame
        cr.save()
        cr.roundedRect(x: f.minX, y: f.minY, width: f.width, height: f.height, radius: min(6, f.height / 2))
        cr.setSource(red: 0.12, green: 0.12, blue: 0.14, alpha: 0.86 * note.alpha)
        cr.fillPreserve()
        // The box is the engine's estimate and the damage is computed from it: never draw outside.
        cr.clip()
        // A named face, not fontconfig's "sans-serif": what that means changes with the fonts
        // installed (KDE's packages make it Noto Sans), and the annotation must look the same
        // in Lodestone and in every host that embeds the library (fonts-dejavu-core, make deps).
        cr.selectFontFace("DejaVu Sans")
        var size = min(13, f.height * 0.62)
        cr.setFontSize(size)
        var advance = cr.textAdvance(note.text)
        let room = f.width - 8
        if advance > room && advance > 0 {
            size *= room / advance
            cr.setFontSize(size)
            advance = cr.textAdvance(note.text)
        }
        let font = cr.fontExtents()
        let x = f.midX - advance / 2
        let y = f.midY + (font.ascent - font.descent) / 2
        cr.moveTo(x: x, y: y)
        cr.setSource(red: 1, green: 1, blue: 1, alpha: note.alpha)
        cr.showText(note.text)
        cr.restore()
    }
}
