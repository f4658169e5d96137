import AdaptivePointerClient
import Glibc  // sin, cos

/// A line graph: over the plot the pointer carries an annotation with the x
/// and y of the nearest sample, and the app draws a guide to it.
final class GraphPanel: Panel {
    let caption = "Graph · x/y annotation"
    let card: Box?
    /// Daily temperatures, one sample per day.
    let samples: [Double] = (0..<31).map { (d: Int) -> Double in
        let t = Double(d)
        let wave: Double = 6 * sin(t / 4.2)
        return 14 + wave + 2.5 * cos(t / 1.7)
    }
    private(set) var hovered: Int?
    private var region: PointerRegion?
    private var description: RegionDescription?

    init(card: Box) { self.card = card }

    var plot: Box { Box(content.x + 30, content.y + 4, content.width - 38, content.height - 26) }
    private let range = (low: 4.0, high: 24.0)

    func point(_ i: Int) -> Point {
        let p = plot
        return Point(p.x + p.width * Double(i) / Double(samples.count - 1),
                     p.maxY - p.height * (samples[i] - range.low) / (range.high - range.low))
    }

    /// What the annotation says for sample `i`.
    func annotation(_ i: Int) -> String {
        let tenths = Int((samples[i] * 10).rounded())
        return "day \(i + 1) · \(tenths / 10).\(tenths % 10) °C"
    }

    func declare(on regions: SurfaceRegions, _ invalidate: @escaping () -> Void) {
        var d = RegionDescription(frame: plot.frame, effect: .none, identifier: RegionID.graph)
        d.hitArea = .padding(0)
        d.magnetism = .off
        description = d
        region = regions.add(d)
    }

    func pointerMoved(to p: Point, dragging: Bool) -> Bool {
        var nearest: Int?
        if plot.contains(p) {
            nearest = Int(((p.x - plot.x) / plot.width * Double(samples.count - 1)).rounded())
        }
        guard nearest != hovered else { return false }
        hovered = nearest
        if var d = description {
            d.annotation = nearest.map(annotation)
            description = d
            region?.apply(d)
        }
        return true
    }

    func draw(_ c: Canvas) {
        let p = plot
        for t in stride(from: range.low, through: range.high, by: 5) {
            let y = p.maxY - p.height * (t - range.low) / (range.high - range.low)
            c.line(from: Point(p.x, y), to: Point(p.maxX, y), .fill)
            c.text("\(Int(t))°", at: Point(content.x, y + 4), .small, .secondaryInk)
        }
        for day in stride(from: 0, to: samples.count, by: 5) {
            c.text("\(day + 1)", at: Point(point(day).x - 4, p.maxY + 16), .small, .secondaryInk)
        }
        c.set(.accent)
        c.lineWidth(2)
        for i in samples.indices {
            let q = point(i)
            i == 0 ? c.moveTo(q) : c.lineTo(q)
        }
        c.strokePath()
        if let h = hovered {
            let q = point(h)
            c.line(from: Point(q.x, p.y), to: Point(q.x, p.maxY), Color.accent.with(alpha: 0.5))
            c.line(from: Point(p.x, q.y), to: Point(p.maxX, q.y), Color.accent.with(alpha: 0.25))
            c.circle(at: q, radius: 5, .panel)
            c.circle(at: q, radius: 3.5, .accent)
        }
    }
}
