/// One frame's drawing target. Solid fills go straight into the image through pixman masks;
/// the cairo context (with the damage clip and the output scale) is made only when something
/// needs cairo, since making one and clipping it costs allocations a steady frame should not.
struct Canvas: ~Copyable {
    let surface: CairoSurface
    let target: Image
    let scale: Double
    let clip: PixelRegion
    private var cr: CairoContext?

    init(surface: CairoSurface, target: Image, scale: Double, clip: PixelRegion) {
        self.surface = surface; self.target = target; self.scale = scale; self.clip = clip
    }

    /// The cairo context, clipped to the damage and scaled to logical coordinates.
    var cairo: CairoContext? {
        mutating get {
            if let cr { return cr }
            guard let made = CairoContext(drawingOn: surface) else { return nil }
            clip.forEachRect { r in made.rectangle(x: Double(r.x), y: Double(r.y), width: Double(r.width), height: Double(r.height)) }
            made.clip()
            made.scale(scale, scale)
            cr = made
            return made
        }
    }

    /// Runs a pixman fill (device pixels, clipped to the damage) between what cairo drew before
    /// and draws after: cairo's pixels are flushed first and it is told the image changed.
    /// Returns what `body` returns (false: nothing drawn, use cairo).
    mutating func fill(_ body: (Image, PixelRegion) -> Bool) -> Bool {
        if cr != nil { surface.flush() }
        let drew = body(target, clip)
        if cr != nil { surface.markDirty() }
        return drew
    }

    deinit {
        if let cr { cr.destroy() }
        surface.flush()
    }
}
