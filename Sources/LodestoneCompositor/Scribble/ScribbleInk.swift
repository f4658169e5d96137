import Rendering

/// The ink Scribble draws over a text field while the pen writes: the strokes in global
/// coordinates, with the pen's pressure, drawn by the compositor above every window (the
/// scene asks for `element` when it composes, as it asks for a drag's icon). It fades out
/// when the text is committed (`alpha`) and is withdrawn at once when recognition fails.
final class ScribbleInk {
    /// The strokes drawn, global logical coordinates.
    private(set) var strokes: [[InkPoint]] = []
    /// 1 while writing; falls to 0 as the ink fades into the committed text.
    var alpha = 1.0
    /// The image of `strokes`, redrawn when they change (nil: to be drawn).
    private var image: Image?
    private var imageBounds = PixelRect(x: 0, y: 0, width: 0, height: 0)

    /// The ink's colour: iPadOS's dark pen ink (straight ARGB).
    static let color: UInt32 = 0xff1c_2a6b
    /// The line's width at medium pressure, in points.
    static let width = 3.5
    /// Room around the strokes for the line's width.
    private static let margin = 8.0

    var isEmpty: Bool { strokes.allSatisfy(\.isEmpty) }

    func begin(_ p: InkPoint) { strokes.append([p]); image = nil }

    func add(_ p: InkPoint) {
        guard !strokes.isEmpty else { return begin(p) }
        strokes[strokes.count - 1].append(p)
        image = nil
    }

    func clear() { strokes = []; image = nil; alpha = 1 }

    /// Where the ink is, in global logical pixels (nil: no ink): what is damaged when it changes.
    var bounds: PixelRect? {
        let points = strokes.joined()
        guard let first = points.first else { return nil }
        var (x0, y0, x1, y1) = (first.x, first.y, first.x, first.y)
        for p in points { x0 = min(x0, p.x); y0 = min(y0, p.y); x1 = max(x1, p.x); y1 = max(y1, p.y) }
        let m = Self.margin
        let left = (x0 - m).rounded(.down), top = (y0 - m).rounded(.down)
        return PixelRect(x: Int32(left), y: Int32(top), width: Int32((x1 + m - left).rounded(.up)), height: Int32((y1 + m - top).rounded(.up)))
    }

    /// The ink as a frame element over `output`, drawn at its scale; nil when there is none.
    func element(output: Output) -> RenderElement? {
        guard alpha > 0, let logical = bounds else { return nil }
        let pixels = output.pixels(logical: logical)
        guard pixels.width > 0, pixels.height > 0 else { return nil }
        if image == nil || imageBounds != pixels {
            let drawn = Image(width: pixels.width, height: pixels.height, format: .argb8888)
            InkPainter.draw(strokes, into: drawn, origin: (Double(logical.x), Double(logical.y)),
                            scale: Double(pixels.width) / Double(logical.width), base: Self.width, color: Self.color)
            image = drawn
            imageBounds = pixels
        }
        guard let image else { return nil }
        return RenderElement(image: image, bounds: pixels, outputToImage: .translation(Double(-pixels.x), Double(-pixels.y)), alpha: alpha)
    }
}
