import CPixman
import AdaptivePointerEngine

/// The content effects' moving parts drawn with pixman: the element's pixels, moved and scaled,
/// through a cached mask of its rounded outline, and the specular's radial gradient added
/// through the same mask. What cairo did for them (a clip path, a transformed surface pattern,
/// a gradient pattern) costs a clip mask rasterized and cleared every frame; a lifted or hovered
/// element that follows the pointer would pay it on every pointer frame.
///
/// The look is cairo's: the same transform, sampled the way cairo samples `.good` at these scales
/// (bilinear; cairo switches to a box filter only when shrinking below 0.75, left to it here),
/// the clip's coverage from the same rounded-rect path (`RoundedRectMasks`, 1/8 pixel), the
/// gradient with the same stops handed to the same pixman gradient.
extension EffectLayer {
    /// Composites the element's pixels (OVER) into `target` inside `clip`. False when this frame
    /// is one for cairo (a strong downscale, or geometry a mask cannot be made for).
    func compositePixels(_ px: EffectPixels, scale s: Double, into target: Image, clip: PixelRegion) -> Bool {
        let e = effect
        // Output pixel = a + b × pixel of `px`: the element's own transform (scale about its
        // centre, then translation) after the pixels' place, at the output scale.
        let bx = s * e.scale * px.width / Double(px.pixelWidth), by = s * e.scale * px.height / Double(px.pixelHeight)
        let c = e.frame.center
        let ax = s * (c.x + e.translation.dx + e.scale * (px.x - c.x))
        let ay = s * (c.y + e.translation.dy + e.scale * (px.y - c.y))
        guard bx.isFinite, by.isFinite, ax.isFinite, ay.isFinite, bx >= 0.75, by >= 0.75, bx < 64, by < 64,
              abs(ax) < 1e6, abs(ay) < 1e6 else { return false }
        // Every output pixel the pixels reach, one more each side for the bilinear taps.
        let x0 = Int32((ax).rounded(.down)) - 1, y0 = Int32((ay).rounded(.down)) - 1
        let x1 = Int32((ax + bx * Double(px.pixelWidth)).rounded(.up)) + 1
        let y1 = Int32((ay + by * Double(px.pixelHeight)).rounded(.up)) + 1
        let reach = PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
            .intersection(PixelRect(x: 0, y: 0, width: target.width, height: target.height))
        guard reach.width > 0, reach.height > 0 else { return true }

        let src = px.image.pointer
        var matrix = Affine(a: 1 / bx, b: 0, c: 0, d: 1 / by, tx: -ax / bx, ty: -ay / by).pixman
        pixman_image_set_transform(src, &matrix)
        pixman_image_set_filter(src, bx == 1 && by == 1 && ax.rounded() == ax && ay.rounded() == ay
                                ? PIXMAN_FILTER_NEAREST : PIXMAN_FILTER_BILINEAR, nil, 0)
        defer {
            pixman_image_set_transform(src, nil)
            pixman_image_set_filter(src, PIXMAN_FILTER_NEAREST, nil, 0)
        }
        func draw(mask: OpaquePointer?, area: PixelRect) {
            let bounds = reach.intersection(area)
            guard bounds.width > 0, bounds.height > 0 else { return }
            clip.forEachRect { r in
                let d = r.intersection(bounds)
                guard d.width > 0, d.height > 0 else { return }
                pixman_image_composite32(PIXMAN_OP_OVER, src, mask, target.pointer,
                                         d.x, d.y, d.x - area.x, d.y - area.y, d.x, d.y, d.width, d.height)
            }
        }
        // A client's preview buffer is read under libwayland's guard, as the scene reads it.
        return px.image.reading {
            // A preview is the element's own surface: all of it shows. A snapshot keeps the
            // background's corners: only the element's rounded outline moves.
            guard !isPreview else {
                draw(mask: nil, area: reach)
                return true
            }
            return withOutline(scale: s) { draw(mask: $0, area: $1) }
        }
    }

    /// Adds the specular's white glow (plus-lighter) inside the element's outline, from a
    /// pre-rendered gradient whose centre sits on the nearest output pixel corner (the glow
    /// changes by less than a level a pixel, so half a pixel moves no value by one).
    func compositeSpecular(_ sp: SpecularEffect, scale s: Double, into target: Image, clip: PixelRegion) -> Bool {
        let cx = sp.center.x * s, cy = sp.center.y * s, r = sp.radius * s
        guard cx.isFinite, cy.isFinite, abs(cx) < 1e6, abs(cy) < 1e6, r > 0, r < 2048,
              let glow = masks.specular.image(radius: r, opacity: sp.opacity) else { return false }
        // The glow's pixel (half, half) is the gradient's centre.
        let half = glow.width / 2
        let ox = Int32(cx.rounded()) - half, oy = Int32(cy.rounded()) - half
        let reach = PixelRect(x: ox, y: oy, width: glow.width, height: glow.height)
        return withOutline(scale: s) { mask, area in
            let bounds = area.intersection(reach).intersection(PixelRect(x: 0, y: 0, width: target.width, height: target.height))
            guard bounds.width > 0, bounds.height > 0 else { return }
            clip.forEachRect { rect in
                let d = rect.intersection(bounds)
                guard d.width > 0, d.height > 0 else { return }
                pixman_image_composite32(PIXMAN_OP_ADD, glow.pointer, mask, target.pointer,
                                         d.x - ox, d.y - oy, d.x - area.x, d.y - area.y, d.x, d.y, d.width, d.height)
            }
        }
    }

    /// The element's outline as drawn (moved and scaled) as a coverage mask in output pixels.
    private func withOutline(scale s: Double, _ body: (_ mask: OpaquePointer, _ area: PixelRect) -> Void) -> Bool {
        let t = effect.transformedFrame
        return masks.outline.withMask(x: t.minX * s, y: t.minY * s, width: t.width * s, height: t.height * s,
                                      radius: scaledRadius * s, body)
    }
}

/// The specular's radial gradient (white, the stops cairo was given) rendered once into an
/// image per radius (1/8 pixel) and opacity (1/1024, under a tenth of a level), a few kept:
/// pixman's radial gradient costs a square root and a stop search per pixel, far more than
/// adding an image. The opacity follows the pointer over the element, within a small range.
final class SpecularGradient {
    private struct Entry {
        var radius: Int32, opacity: Int32
        var image: Image
        var lastUse: UInt64
    }
    private var entries: [Entry] = []
    private var uses: UInt64 = 0
    private static let capacity = 16

    /// The stops as (offset, share of the opacity).
    static let stops: [(offset: Double, share: Double)] = [(0, 1), (0.35, 0.62), (0.7, 0.2), (1, 0)]

    /// A square premultiplied image of the glow, its centre at (width / 2, width / 2).
    func image(radius: Double, opacity: Double) -> Image? {
        let qr = Int32((radius * 8).rounded()), qo = Int32((min(1, max(0, opacity)) * 1024).rounded())
        guard qr > 0, qo > 0 else { return nil }
        uses &+= 1
        if let i = entries.firstIndex(where: { $0.radius == qr && $0.opacity == qo }) {
            entries[i].lastUse = uses
            return entries[i].image
        }
        guard let made = Self.render(radius: Double(qr) / 8, opacity: Double(qo) / 1024) else { return nil }
        let entry = Entry(radius: qr, opacity: qo, image: made, lastUse: uses)
        if entries.count < Self.capacity {
            entries.append(entry)
        } else if let i = entries.indices.min(by: { entries[$0].lastUse < entries[$1].lastUse }) {
            entries[i] = entry
        }
        return made
    }

    private static func render(radius: Double, opacity: Double) -> Image? {
        let half = Int32(radius.rounded(.up)) + 1
        func fixed(_ v: Double) -> pixman_fixed_t { pixman_fixed_t(clamping: Int64((v * 65536).rounded())) }
        // cairo's colour to 16 bits: (v × 65535 + 0.5), truncated.
        func short(_ v: Double) -> UInt16 { UInt16(min(1, max(0, v)) * 65535 + 0.5) }
        var stops = Self.stops.map {
            pixman_gradient_stop_t(x: fixed($0.offset), color: pixman_color_t(red: 0xffff, green: 0xffff, blue: 0xffff,
                                                                                alpha: short(opacity * $0.share)))
        }
        var centre = pixman_point_fixed_t(x: fixed(Double(half)), y: fixed(Double(half)))
        guard let gradient = pixman_image_create_radial_gradient(&centre, &centre, 0, fixed(radius), &stops, Int32(stops.count))
        else { return nil }
        defer { pixman_image_unref(gradient) }
        guard let image = Image.clientSized(width: 2 * half, height: 2 * half, format: .argb8888, for: "a specular highlight") else { return nil }
        pixman_image_composite32(PIXMAN_OP_SRC, gradient, nil, image.pointer, 0, 0, 0, 0, 0, 0, 2 * half, 2 * half)
        return image
    }
}
