import CPixman

/// One thing the renderer draws, bottom first: a surface's pixels, or an overlay that
/// draws itself over what is beneath it (the adaptive pointer and its content effects,
/// which need the composed scene's pixels under them).
public enum RenderElement {
    case texture(TextureElement)
    case overlay(any OverlayElement)

    /// An image placed into output pixels.
    public init(image: Image, bounds: PixelRect, outputToImage: Affine, opaque: Bool = false, alpha: Double = 1) {
        self = .texture(TextureElement(image: image, bounds: bounds, outputToImage: outputToImage, opaque: opaque, alpha: alpha))
    }
}

/// An image placed into output pixels.
public struct TextureElement {
    public var image: Image
    /// Where the element lands, in output pixels.
    public var bounds: PixelRect
    /// Maps output pixels to the image's pixels (identity when 1:1 at bounds.origin).
    public var outputToImage: Affine
    /// True when the image's pixels need no blending (xrgb, or declared opaque).
    public var opaque: Bool
    /// Multiplies the element's alpha (1 = as is).
    public var alpha: Double
    /// Drawn with SRC: every pixel of `bounds` is overwritten, whatever lies beneath.
    var covers: Bool { opaque && alpha >= 1 }

    public init(image: Image, bounds: PixelRect, outputToImage: Affine, opaque: Bool = false, alpha: Double = 1) {
        self.image = image; self.bounds = bounds; self.outputToImage = outputToImage
        self.opaque = opaque; self.alpha = alpha
    }
}

/// Something that draws itself into the frame, over the elements beneath it, touching
/// only `damage` (output pixels).
public protocol OverlayElement: AnyObject {
    func draw(into target: Image, damage: PixelRegion)
}

/// Composes elements with pixman, repainting only a damaged region.
public struct Renderer {
    public var background: UInt32
    /// What opaque elements leave of the damage; one region reused by every frame
    /// (a frame must not allocate).
    private let uncovered = PixelRegion()
    /// Box filters for surfaces shrunk by more than 4/3 (fractional output scales).
    private let downscaleFilters = DownscaleFilters()

    public init(background: UInt32 = 0xff30_3446) { self.background = background }

    /// Paints `elements` (bottom first) into `target`, touching only `damage`.
    public func render(_ elements: [RenderElement], into target: Image, damage: PixelRegion) {
        guard !damage.isEmpty else { return }
        let extents = damage.extents
        // Occlusion, top down: opaque elements are drawn with SRC over their whole bounds,
        // so the background is filled only where none lands, and once they cover all of
        // the damage nothing beneath them is drawn. A client's frame is mostly damage
        // inside its own opaque window: filling beneath it first doubled the pixels
        // written per frame.
        pixman_region32_copy(uncovered.raw, damage.raw)
        var firstVisible = 0, covered = false
        for index in elements.indices.reversed() {
            guard case .texture(let t) = elements[index], t.covers else { continue }
            // All that is left lies inside this element (the usual frame: the pointer over a
            // window): no region operation, for pixman's subtract allocates a new rectangle
            // array whenever the region holds more than one.
            let left = uncovered.extents
            if left.x >= t.bounds.x, left.y >= t.bounds.y, left.maxX <= t.bounds.maxX, left.maxY <= t.bounds.maxY {
                firstVisible = index; covered = true; break
            }
            uncovered.subtract(t.bounds)
            if uncovered.isEmpty { firstVisible = index; covered = true; break }
        }
        if !covered {
            pixman_image_set_clip_region32(target.pointer, uncovered.raw)
            target.fill(uncovered.extents, color: background)
        }
        pixman_image_set_clip_region32(target.pointer, damage.raw)
        defer { pixman_image_set_clip_region32(target.pointer, nil) }
        for item in elements[firstVisible...] {
            let element: TextureElement
            switch item {
            case .texture(let t): element = t
            case .overlay(let overlay):
                // Overlays clip themselves; the textures above them need the clip back.
                pixman_image_set_clip_region32(target.pointer, nil)
                overlay.draw(into: target, damage: damage)
                pixman_image_set_clip_region32(target.pointer, damage.raw)
                continue
            }
            let area = element.bounds.intersection(extents)
            guard !area.isEmpty else { continue }
            let src = element.image.pointer
            let t = element.outputToImage
            // A whole-pixel shift is given to pixman as source coordinates, not as a
            // transform: untransformed sources take pixman's fast blit paths.
            var srcX = area.x, srcY = area.y
            var convolved = false
            if let shift = t.integerTranslation {
                pixman_image_set_transform(src, nil)
                srcX += shift.x
                srcY += shift.y
            } else {
                var matrix = t.pixman
                pixman_image_set_transform(src, &matrix)
                // Bilinear wherever the factor is not whole: a viewport's stretch, and every
                // surface at a fractional output scale (a buffer_scale 2 window at 1.5 is
                // sampled down by 4/3, a buffer_scale 1 one up by 3/2), as wlroots' pixman
                // renderer does; a box filter where it shrinks by more (2 at 1.25: 1.6).
                if t.hasIntegralScale {
                    pixman_image_set_filter(src, PIXMAN_FILTER_NEAREST, nil, 0)
                } else if t.b == 0, t.c == 0, let p = downscaleFilters.params(sx: t.a, sy: t.d) {
                    pixman_image_set_filter(src, PIXMAN_FILTER_SEPARABLE_CONVOLUTION, p.values, p.count)
                    convolved = true
                } else {
                    pixman_image_set_filter(src, PIXMAN_FILTER_BILINEAR, nil, 0)
                }
                // Scaled edges sample half outside the image: padding repeats the edge
                // pixels there, so a stretched 1×1 buffer is a solid fill, not a gradient.
                pixman_image_set_repeat(src, PIXMAN_REPEAT_PAD)
            }
            var mask: OpaquePointer?
            if element.alpha < 1 {
                var c = pixman_color_t(red: 0, green: 0, blue: 0, alpha: UInt16(max(0, min(1, element.alpha)) * 65535))
                mask = pixman_image_create_solid_fill(&c)
            }
            let op = element.opaque && mask == nil ? PIXMAN_OP_SRC : PIXMAN_OP_OVER
            // A client's buffer is read where the client drew it, under libwayland's guard.
            element.image.reading {
                pixman_image_composite32(op, src, mask, target.pointer,
                                         srcX, srcY, 0, 0, area.x, area.y, area.width, area.height)
            }
            if let mask { pixman_image_unref(mask) }
            pixman_image_set_transform(src, nil)
            pixman_image_set_repeat(src, PIXMAN_REPEAT_NONE)
            // The filter stays with the image: an untransformed blit must not convolve.
            if convolved { pixman_image_set_filter(src, PIXMAN_FILTER_NEAREST, nil, 0) }
        }
    }
}
