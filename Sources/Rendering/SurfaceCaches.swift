import CPixman

/// A cairo surface over one image's pixels, made again only when the image changes (a new
/// output mode, another preview buffer): creating one per frame costs two allocations.
/// It keeps its image alive, so the surface never outlives the pixels it points at, and is
/// made again when a client's pool resize moved those pixels (`Image.pointer`).
final class CairoSurfaceCache {
    private var image: Image?
    private var pixels: UnsafeMutablePointer<UInt32>?
    private var cached: CairoSurface?

    func surface(for image: Image) -> CairoSurface? {
        let data = image.data
        if image !== self.image || data != pixels {
            if let cached { cached.destroy() }
            cached = CairoSurface(over: image)
            self.image = cached == nil ? nil : image
            pixels = cached == nil ? nil : data
        }
        return cached
    }

    deinit { if let cached { cached.destroy() } }
}

/// A copy of the scene's pixels under an element, in an image reused while the element's
/// size in pixels stays the same.
final class SnapshotBuffer {
    private var image: Image?
    private let surfaceCache = CairoSurfaceCache()

    /// Copies the scene's pixels of the element (output pixels, so scaled outputs stay sharp).
    func take(_ scene: Image, _ x: Double, _ y: Double, _ w: Double, _ h: Double, _ s: Double) -> EffectPixels? {
        // The frame comes from a client's region: keep it where Int32 conversions cannot trap
        // (false for NaN and infinities too).
        guard abs(x * s) < 1e9, abs(y * s) < 1e9,
              abs((x + w) * s) < 1e9, abs((y + h) * s) < 1e9 else { return nil }
        let x0 = max(0, Int32((x * s).rounded(.down))), y0 = max(0, Int32((y * s).rounded(.down)))
        let x1 = min(scene.width, Int32(((x + w) * s).rounded(.up))), y1 = min(scene.height, Int32(((y + h) * s).rounded(.up)))
        guard x1 > x0, y1 > y0 else { return nil }
        let image: Image
        if let kept = self.image, kept.width == x1 - x0, kept.height == y1 - y0 {
            image = kept
        } else {
            guard let made = Image.clientSized(width: x1 - x0, height: y1 - y0, format: .argb8888, for: "an effect's copy of the scene")
            else { return nil }
            image = made
            self.image = made
        }
        // pixman reads xrgb as opaque, so the copy of an xrgb scene is opaque argb; SRC
        // replaces every pixel, so what the reused image held before does not show.
        pixman_image_composite32(PIXMAN_OP_SRC, scene.pointer, nil, image.pointer, x0, y0, 0, 0, 0, 0, x1 - x0, y1 - y0)
        guard let surface = surfaceCache.surface(for: image) else { return nil }
        surface.markDirty()
        return EffectPixels(image: image, surface: surface, pixelWidth: x1 - x0, pixelHeight: y1 - y0,
                            x: Double(x0) / s, y: Double(y0) / s, width: Double(x1 - x0) / s, height: Double(y1 - y0) / s)
    }
}
