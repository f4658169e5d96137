import AdaptivePointerClient

/// A drawing canvas: drag to draw, or draw with a pen (`zwp_tablet_manager_v2`): its
/// pressure sets the stroke's width and its tilt the shade, the way a pencil laid on its
/// side draws a lighter line. The paper declares its pen (size and ink), so while the pen
/// hovers the compositor's hover preview is that pen, and the pointer over it too.
final class SketchPanel: Panel {
    let caption: String
    let card: Box?
    /// One point of a stroke: where, how wide the line is there, and its shade (0 ink, 1 light).
    struct Sample { var point: Point; var width: Double; var shade: Double }
    private(set) var strokes: [[Sample]] = []
    private var drawing = false
    private var penDrawing = false

    /// A mouse or trackpad stroke: the fixed width and full ink. The same as the tool the
    /// panel declares, so the pointer over the paper is the stroke it will draw.
    static let pointerWidth = 6.0
    /// The pen the panel declares to the compositor (adaptive_pointer_v1 version 3): the
    /// hover preview and the pointer over the paper show this size in this ink. 6 points is a
    /// pen's stroke at about a third of its pressure.
    static let tool = RegionDescription.DrawingPreview(diameter: pointerWidth, color: 0xff34_3a40)
    /// A pen's width from 1.5 points (a feather touch) to 13.5 (full pressure).
    static func width(pressure: Double) -> Double { 1.5 + 12 * min(max(pressure, 0), 1) }
    /// A pen's shade from its tilt: upright is full ink, 60° or more from upright the lightest grey.
    static func shade(tiltX: Double, tiltY: Double) -> Double {
        let tilt = (tiltX * tiltX + tiltY * tiltY).squareRoot()
        return tilt.isFinite ? min(tilt / 60, 1) : 0
    }

    init(card: Box, tabletPresent: Bool) {
        self.card = card
        caption = tabletPresent ? "Drawing · a pen's pressure sets the width, its tilt the shade"
            : "Drawing · no tablet found: fixed-width strokes (pressure needs a tablet)"
    }

    var paper: Box { Box(content.x, content.y, content.width, content.height) }
    var clearButton: Box { Box(card!.maxX - 78, card!.y + 6, 64, 22) }

    func declare(on regions: SurfaceRegions, _ invalidate: @escaping () -> Void) {
        var d = RegionDescription(frame: paper.frame, effect: .none, identifier: RegionID.sketch)
        d.hitArea = .padding(0)
        d.magnetism = .off
        d.drawingPreview = Self.tool   // the ink below, `ink`
        regions.add(d)
        regions.add(RegionDescription(frame: clearButton.frame, effect: .highlight, identifier: RegionID.sketchClear))
    }

    private func clamped(_ p: Point) -> Point {
        Point(max(paper.x, min(paper.maxX, p.x)), max(paper.y, min(paper.maxY, p.y)))
    }

    func pointerPressed(at p: Point) -> Bool {
        guard paper.contains(p) else { return false }
        drawing = true
        strokes.append([Sample(point: p, width: Self.pointerWidth, shade: 0)])
        return true
    }

    func pointerMoved(to p: Point, dragging: Bool) -> Bool {
        guard drawing, dragging else { return false }
        strokes[strokes.count - 1].append(Sample(point: clamped(p), width: Self.pointerWidth, shade: 0))
        return true
    }

    func pointerReleased(at p: Point) -> Bool {
        if drawing { drawing = false; return false }
        guard clearButton.inset(-4).contains(p), !strokes.isEmpty else { return false }
        strokes = []
        return true
    }

    // MARK: Pen

    /// The pen's tip touched at `p`: a stroke begins if it is on the paper.
    func penDown(at p: Point, pressure: Double, tiltX: Double, tiltY: Double) -> Bool {
        guard paper.contains(p) else { return false }
        penDrawing = true
        strokes.append([Sample(point: p, width: Self.width(pressure: pressure), shade: Self.shade(tiltX: tiltX, tiltY: tiltY))])
        return true
    }

    /// The touching pen moved or pressed harder or softer.
    func penMoved(to p: Point, pressure: Double, tiltX: Double, tiltY: Double) -> Bool {
        guard penDrawing else { return false }
        strokes[strokes.count - 1].append(Sample(point: clamped(p), width: Self.width(pressure: pressure),
                                                 shade: Self.shade(tiltX: tiltX, tiltY: tiltY)))
        return true
    }

    func penUp() -> Bool {
        penDrawing = false
        return false
    }

    // MARK: Drawing

    static let ink = Color(hex: 0x343a40)
    static let lightest = Color(hex: 0xa9b1ba)

    func draw(_ c: Canvas) {
        c.fill(paper, Color(hex: 0xfffdf5), radius: 8)
        c.stroke(paper, .fill, radius: 8)
        c.text("Clear", centeredIn: clearButton, Canvas.Font(size: 13), .accent)
        if strokes.isEmpty {
            c.text("Drag or draw with a pen here", centeredIn: paper, Canvas.Font(size: 14), Color(hex: 0xadb5bd))
        }
        c.clip(paper)
        c.roundCaps()
        for s in strokes {
            guard let first = s.first else { continue }
            if s.count == 1 {
                segment(c, first, Sample(point: Point(first.point.x + 0.1, first.point.y), width: first.width, shade: first.shade))
            }
            // Segment by segment: each has the width and shade of its end (round caps join them).
            for (a, b) in zip(s, s.dropFirst()) { segment(c, a, b) }
        }
        c.unclip()
    }

    private func segment(_ c: Canvas, _ a: Sample, _ b: Sample) {
        c.set(Self.ink.mixed(with: Self.lightest, b.shade))
        c.lineWidth(b.width)
        c.moveTo(a.point)
        c.lineTo(b.point)
        c.strokePath()
    }
}
