import CPixman

/// One thing to draw: an image placed into output pixels.
public struct RenderElement {
    public var image: Image
    /// Where the element lands, in output pixels.
    public var bounds: Rect
    /// Maps output pixels to the image's pixels (identity when 1:1 at bounds.origin).
    public var outputToImage: Affine
    /// True when the image's pixels need no blending (xrgb, or declared opaque).
    public var opaque: Bool
    /// Multiplies the element's alpha (1 = as is).
    public var alpha: Double

    public init(image: Image, bounds: Rect, outputToImage: Affine, opaque: Bool = false, alpha: Double = 1) {
        self.image = image; self.bounds = bounds; self.outputToImage = outputToImage
        self.opaque = opaque; self.alpha = alpha
    }
}

/// Composes elements with pixman, repainting only a damaged region.
public struct Renderer {
    public var background: UInt32

    public init(background: UInt32 = 0xff30_3446) { self.background = background }

    /// Paints `elements` (bottom first) into `target`, touching only `damage`.
    public func render(_ elements: [RenderElement], into target: Image, damage: Region) {
        guard !damage.isEmpty else { return }
        pixman_image_set_clip_region32(target.pointer, damage.raw)
        defer { pixman_image_set_clip_region32(target.pointer, nil) }
        let extents = damage.extents
        target.fill(extents, color: background)
        for element in elements {
            let area = element.bounds.intersection(extents)
            guard !area.isEmpty else { continue }
            let src = element.image.pointer
            let t = element.outputToImage
            // A whole-pixel shift is given to pixman as source coordinates, not as a
            // transform: untransformed sources take pixman's fast blit paths.
            var srcX = area.x, srcY = area.y
            if let shift = t.integerTranslation {
                pixman_image_set_transform(src, nil)
                srcX += shift.x
                srcY += shift.y
            } else {
                var matrix = t.pixman
                pixman_image_set_transform(src, &matrix)
                let integral = t.a.rounded() == t.a && t.d.rounded() == t.d
                pixman_image_set_filter(src, integral ? PIXMAN_FILTER_NEAREST : PIXMAN_FILTER_BILINEAR, nil, 0)
            }
            var mask: OpaquePointer?
            if element.alpha < 1 {
                var c = pixman_color_t(red: 0, green: 0, blue: 0, alpha: UInt16(max(0, min(1, element.alpha)) * 65535))
                mask = pixman_image_create_solid_fill(&c)
            }
            let op = element.opaque && mask == nil ? PIXMAN_OP_SRC : PIXMAN_OP_OVER
            pixman_image_composite32(op, src, mask, target.pointer,
                                     srcX, srcY, 0, 0, area.x, area.y, area.width, area.height)
            if let mask { pixman_image_unref(mask) }
            pixman_image_set_transform(src, nil)
        }
    }
}
