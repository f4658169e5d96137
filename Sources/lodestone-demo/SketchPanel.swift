import AdaptivePointerClient

/// A drawing canvas: drag to draw. With a tablet, stroke width would follow
/// pen pressure; Lodestone offers no zwp_tablet_manager_v2 yet, so strokes
/// from a mouse or trackpad have a fixed width (and the caption says so).
final class SketchPanel: Panel {
    let caption: String
    let card: Box?
    private(set) var strokes: [[Point]] = []
    private var drawing = false

    init(card: Box, tabletPresent: Bool) {
        self.card = card
        caption = tabletPresent ? "Drawing · stroke width follows pen pressure"
            : "Drawing · no tablet found: fixed-width strokes (pressure needs a tablet)"
    }

    var paper: Box { Box(content.x, content.y, content.width, content.height) }
    var clearButton: Box { Box(card!.maxX - 78, card!.y + 6, 64, 22) }

    func declare(on regions: SurfaceRegions, _ invalidate: @escaping () -> Void) {
        var d = RegionDescription(frame: paper.frame, effect: .none, identifier: RegionID.sketch)
        d.hitArea = .padding(0)
        d.magnetism = .off
        regions.add(d)
        regions.add(RegionDescription(frame: clearButton.frame, effect: .highlight, identifier: RegionID.sketchClear))
    }

    func pointerPressed(at p: Point) -> Bool {
        guard paper.contains(p) else { return false }
        drawing = true
        strokes.append([p])
        return true
    }

    func pointerMoved(to p: Point, dragging: Bool) -> Bool {
        guard drawing, dragging else { return false }
        strokes[strokes.count - 1].append(Point(max(paper.x, min(paper.maxX, p.x)), max(paper.y, min(paper.maxY, p.y))))
        return true
    }

    func pointerReleased(at p: Point) -> Bool {
        if drawing { drawing = false; return false }
        guard clearButton.inset(-4).contains(p), !strokes.isEmpty else { return false }
        strokes = []
        return true
    }

    func draw(_ c: Canvas) {
        c.fill(paper, Color(hex: 0xfffdf5), radius: 8)
        c.stroke(paper, .fill, radius: 8)
        c.text("Clear", centeredIn: clearButton, Canvas.Font(size: 13), .accent)
        if strokes.isEmpty {
            c.text("Drag here to draw", centeredIn: paper, Canvas.Font(size: 14), Color(hex: 0xadb5bd))
        }
        c.clip(paper)
        c.set(Color(hex: 0x343a40))
        c.lineWidth(3)
        c.roundCaps()
        for s in strokes {
            guard let first = s.first else { continue }
            c.moveTo(first)
            for p in s.dropFirst() { c.lineTo(p) }
            if s.count == 1 { c.lineTo(Point(first.x + 0.1, first.y)) }
            c.strokePath()
        }
        c.unclip()
    }
}
