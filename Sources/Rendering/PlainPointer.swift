import AdaptivePointerEngine

/// The plain-pointer fast path: most frames show just the pointer (a filled rounded rect)
/// moving over still content, and those are drawn from a cached pixman mask without cairo
/// (see `RoundedRectMasks`).
extension PointerPresentation {
    /// True when all that shows is the pointer's filled rounded rect: no content effect, border,
    /// custom path, arrow, band, accessory or annotation.
    var isPlainPointer: Bool {
        let g = pointer
        return exitingContentEffect == nil && contentEffect == nil && bandRect == nil && accessories.isEmpty && hoverMark == nil
            && (annotation.map({ $0.alpha <= 0.001 }) ?? true)
            && (g.customPath == nil || g.pathAlpha <= 0.001) && (g.border?.width ?? 0) <= 0 && g.arrowAlpha <= 0.001
    }
}

extension RoundedRectMasks {
    /// Fills the pointer's rounded rect (logical, at the output `scale`) in its colour and alpha
    /// from a cached mask. Returns false if no mask was drawn: the caller draws it with cairo.
    func fillPointer(_ g: PointerGeometry, scale: Double, into target: Image, clip: PixelRegion) -> Bool {
        let shape = g.shape.scaled(by: g.scale), c = g.color
        return fill(x: shape.rect.minX * scale, y: shape.rect.minY * scale, width: shape.rect.width * scale,
                    height: shape.rect.height * scale, radius: shape.cornerRadius * scale,
                    red: c.red, green: c.green, blue: c.blue, alpha: c.alpha * g.alpha, into: target, clip: clip)
    }
}
