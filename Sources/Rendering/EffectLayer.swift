import AdaptivePointerEngine

/// The pixels a content effect moves, `pixelWidth`×`pixelHeight`, as an image and a cairo surface
/// over it (owned by the renderer's caches), and where they sit in global logical coordinates.
struct EffectPixels {
    let image: Image
    let surface: CairoSurface
    let pixelWidth: Int32, pixelHeight: Int32
    let x: Double, y: Double, width: Double, height: Double
}

/// One content effect ready to draw: the effect plus the pixels it moves (a preview surface
/// or a snapshot of the scene under the element).
struct EffectLayer {
    let effect: ContentEffect
    let pixels: EffectPixels?
    let isPreview: Bool
    let masks: EffectMasks

    init(_ effect: ContentEffect, preview: PreviewContent?, previewSurface: CairoSurfaceCache, scene: Image, scale: Double,
         snapshot: SnapshotBuffer, masks: EffectMasks) {
        self.effect = effect
        self.masks = masks
        if let preview {
            pixels = previewSurface.surface(for: preview.image).map {
                // The client may have drawn into a reused buffer since the last frame.
                $0.markDirty()
                return EffectPixels(image: preview.image, surface: $0, pixelWidth: preview.image.width, pixelHeight: preview.image.height,
                                    x: preview.x, y: preview.y, width: preview.width, height: preview.height)
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

    /// The element's corner radius as it is, before the effect's scale (the content clip is
    /// drawn in the element's own coordinates)...
    private var radius: Double { min(effect.cornerRadius, effect.frame.width / 2, effect.frame.height / 2) }
    /// ...and as drawn, grown with the element: mask, shadow, specular and tints.
    var scaledRadius: Double { radius * effect.scale }

    /// Shadow and underlay tint: beneath the pointer and the element.
    func drawUnderlays(_ canvas: inout Canvas) {
        guard effect.progress > 0.001 else { return }
        let t = effect.transformedFrame, scale = canvas.scale, radius = scaledRadius
        if let s = effect.shadow, s.opacity > 0.001 {
            // A soft shadow with the element's own outline, offset below it (see `ShadowProfile`).
            _ = canvas.fill { target, clip in
                let o = t.offset(by: s.offset)
                return masks.shadow.fillShadow(x: o.minX * scale, y: o.minY * scale, width: o.width * scale,
                                               height: o.height * scale, radius: radius * scale, blur: s.radius * scale,
                                               opacity: s.opacity, into: target, clip: clip)
            }
        }
        if let tint = effect.tint, tint.mode == .underlay, tint.opacity > 0.001 {
            // A platter around the element, its corners following the element's at 4 points out.
            let r = effect.platter?.rect ?? t.outset(by: 4)
            let platterRadius = effect.platter?.cornerRadius ?? radius + 4
            guard !canvas.fill({ masks.underlay.fillTint(x: r.minX, y: r.minY, width: r.width, height: r.height, radius: platterRadius, opacity: tint.opacity, scale: scale, into: $0, clip: $1) }),
                  let cr = canvas.cairo else { return }
            cr.roundedRect(x: r.minX, y: r.minY, width: r.width, height: r.height, radius: platterRadius)
            cr.setTint(opacity: tint.opacity)
            cr.fill()
        }
    }

    /// The element's pixels (moved and scaled), then specular and overlay tint.
    func drawContent(_ canvas: inout Canvas) {
        let t = effect.transformedFrame, radius = self.radius, scaledRadius = self.scaledRadius
        let scale = canvas.scale
        // With pixman and cached masks (`EffectComposite.swift`); cairo only where those decline.
        if let px = pixels, !canvas.fill({ compositePixels(px, scale: scale, into: $0, clip: $1) }), let cr = canvas.cairo {
            cr.save()
            let c = effect.frame.center
            cr.translate(c.x + effect.translation.dx, c.y + effect.translation.dy)
            cr.scale(effect.scale, effect.scale)
            cr.translate(-c.x, -c.y)
            if !isPreview {
                // Only the element moves; the clip keeps the background corners of the snapshot.
                cr.roundedRect(x: effect.frame.minX, y: effect.frame.minY, width: effect.frame.width,
                               height: effect.frame.height, radius: radius)
                cr.clip()
            }
            cr.translate(px.x, px.y)
            cr.scale(px.width / Double(px.pixelWidth), px.height / Double(px.pixelHeight))
            cr.setSource(px.surface, x: 0, y: 0, filter: .good)
            cr.paint()
            cr.restore()
        }
        if let s = effect.specular, s.opacity > 0.001, s.radius > 0,
           !canvas.fill({ compositeSpecular(s, scale: scale, into: $0, clip: $1) }), let cr = canvas.cairo {
            // Light added to the element (plus-lighter, as the platform draws its speculars):
            // every channel gains up to `opacity`, a white glow whatever the element's colour,
            // easing out to nothing at the gradient's radius.
            cr.save()
            cr.roundedRect(x: t.minX, y: t.minY, width: t.width, height: t.height, radius: scaledRadius)
            cr.clip()
            cr.setOperator(.add)
            cr.setSourceRadialGradient(centerX: s.center.x, centerY: s.center.y, radius: s.radius,
                                       white: SpecularGradient.stops.map { ($0.offset, s.opacity * $0.share) })
            cr.paint()
            cr.restore()
        }
        if let tint = effect.tint, tint.mode == .overlay, tint.opacity > 0.001,
           !canvas.fill({ masks.overlay.fillTint(x: t.minX, y: t.minY, width: t.width, height: t.height, radius: scaledRadius,
                                                 opacity: tint.opacity, scale: scale, into: $0, clip: $1) }),
           let cr = canvas.cairo {
            cr.roundedRect(x: t.minX, y: t.minY, width: t.width, height: t.height, radius: scaledRadius)
            cr.setTint(opacity: tint.opacity)
            cr.fill()
        }
    }
}

/// One effect layer's masks, each fill with its own cache (see `RoundedRectMasks`): the solid
/// fills, the element's outline (clipping its pixels and specular) and the specular's gradient.
final class EffectMasks {
    let shadow = RoundedRectMasks()
    let underlay = RoundedRectMasks()
    let overlay = RoundedRectMasks()
    let outline = RoundedRectMasks(steps: 64)
    let specular = SpecularGradient()
}

/// The hover tint: the pointer's neutral grey at exactly the configured opacity (the
/// engine's `tintOpacity`, 10% by default), so the setting is what the user sees.
private enum Tint {
    static let red = 0.33, green = 0.33, blue = 0.35
    static func alpha(_ opacity: Double) -> Double { min(1, max(0, opacity)) }
}

extension CairoContext {
    /// The hover tint (underlay or overlay) as the cairo source.
    fileprivate func setTint(opacity: Double) {
        setSource(red: Tint.red, green: Tint.green, blue: Tint.blue, alpha: Tint.alpha(opacity))
    }
}

extension RoundedRectMasks {
    /// The hover tint (underlay or overlay) of a rect in logical coordinates: the colour the
    /// cairo path uses, from a cached mask when its shape holds still.
    func fillTint(x: Double, y: Double, width: Double, height: Double, radius: Double, opacity: Double, scale: Double,
                  into target: Image, clip: PixelRegion) -> Bool {
        fill(x: x * scale, y: y * scale, width: width * scale, height: height * scale, radius: radius * scale,
             red: Tint.red, green: Tint.green, blue: Tint.blue, alpha: Tint.alpha(opacity), into: target, clip: clip)
    }
}
