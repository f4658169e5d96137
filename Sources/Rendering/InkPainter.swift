/// One point of a pen stroke: where the pen was and how hard it pressed (0…1).
public struct InkPoint: Equatable, Sendable {
    public var x: Double, y: Double, pressure: Double
    public init(x: Double, y: Double, pressure: Double) { self.x = x; self.y = y; self.pressure = pressure }
}

/// Draws pen strokes as ink: each segment a round-capped line whose width follows the
/// pressure at its ends, so a harder press draws a wider line, as on paper. Scribble's
/// overlay draws what the pen writes with it; its recogniser draws the same strokes to read
/// them with Tesseract.
public enum InkPainter {
    /// The width of a line at `pressure`, in the units the strokes are in.
    public static func width(pressure: Double, base: Double) -> Double {
        base * (0.55 + 0.9 * min(max(pressure, 0), 1))
    }

    /// Draws `strokes` into `image`, each point mapped by `(p - origin) * scale`;
    /// `base` is the width at medium pressure, before scaling. `color` is straight ARGB.
    public static func draw(_ strokes: [[InkPoint]], into image: Image, origin: (x: Double, y: Double), scale: Double,
                            base: Double, color: UInt32) {
        guard let surface = CairoSurface(over: image) else { return }
        defer { surface.destroy() }
        guard let cr = CairoContext(drawingOn: surface) else { return }
        defer { cr.destroy() }
        cr.setRoundLines()
        let a = Double(color >> 24 & 0xff) / 255, r = Double(color >> 16 & 0xff) / 255
        let g = Double(color >> 8 & 0xff) / 255, b = Double(color & 0xff) / 255
        cr.setSource(red: r, green: g, blue: b, alpha: a)
        for stroke in strokes {
            guard let first = stroke.first else { continue }
            func place(_ p: InkPoint) -> (Double, Double) { ((p.x - origin.x) * scale, (p.y - origin.y) * scale) }
            if stroke.count == 1 {
                // A dot: the pen touched and lifted.
                let (x, y) = place(first)
                cr.newPath()
                cr.arc(centerX: x, centerY: y, radius: width(pressure: first.pressure, base: base) * scale / 2, from: 0, to: 2 * .pi)
                cr.fill()
                continue
            }
            for (p, q) in zip(stroke, stroke.dropFirst()) {
                let (x0, y0) = place(p), (x1, y1) = place(q)
                cr.newPath()
                cr.moveTo(x: x0, y: y0)
                cr.lineTo(x: x1, y: y1)
                cr.setLineWidth(width(pressure: (p.pressure + q.pressure) / 2, base: base) * scale)
                cr.stroke()
            }
        }
        surface.flush()
    }
}
