import AdaptivePointerEngine

/// The shapes Rendering draws, as cairo paths: rounded rects and the engine's `Path`s.
extension CairoContext {
    /// Adds `r` as a new sub-path.
    func roundedRect<S>(_ r: RoundedRect<S>) {
        roundedRect(x: r.rect.minX, y: r.rect.minY, width: r.rect.width, height: r.rect.height, radius: r.cornerRadius)
    }

    /// Adds a rounded rect as a new sub-path, the radius limited to half the shorter side (a
    /// plain rectangle when it is 0).
    func roundedRect(x: Double, y: Double, width w: Double, height h: Double, radius: Double) {
        let r = max(0, min(radius, w / 2, h / 2))
        newSubPath()
        if r <= 0 {
            rectangle(x: x, y: y, width: w, height: h)
            return
        }
        arc(centerX: x + w - r, centerY: y + r, radius: r, from: -Double.pi / 2, to: 0)
        arc(centerX: x + w - r, centerY: y + h - r, radius: r, from: 0, to: Double.pi / 2)
        arc(centerX: x + r, centerY: y + h - r, radius: r, from: Double.pi / 2, to: Double.pi)
        arc(centerX: x + r, centerY: y + r, radius: r, from: Double.pi, to: 3 * Double.pi / 2)
        closePath()
    }

    /// Replaces the current path with an engine path.
    func setPath<S>(_ path: Path<S>) {
        newPath()
        for element in path.elements {
            switch element {
            case .move(let p): moveTo(x: p.x, y: p.y)
            case .line(let p): lineTo(x: p.x, y: p.y)
            case .quad(let c, let p):
                // cairo has only cubics: raise the quadratic's degree.
                let (x0, y0) = currentPoint
                curveTo(x1: x0 + 2 / 3 * (c.x - x0), y1: y0 + 2 / 3 * (c.y - y0),
                        x2: p.x + 2 / 3 * (c.x - p.x), y2: p.y + 2 / 3 * (c.y - p.y), x3: p.x, y3: p.y)
            case .cubic(let c1, let c2, let p): curveTo(x1: c1.x, y1: c1.y, x2: c2.x, y2: c2.y, x3: p.x, y3: p.y)
            case .close: closePath()
            }
        }
    }
}
