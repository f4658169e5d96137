import AdaptivePointerClient

/// A canvas of shapes with band selection: a drag on the canvas turns the
/// pointer into the selection rectangle; the compositor sends the rectangle
/// as it changes and the shapes it touches are selected. A click clears.
final class BandCanvasPanel: Panel {
    let caption = "Canvas · band selection"
    let card: Box?
    struct Item { var box: Box; var color: Color; var round: Bool }
    private(set) var items: [Item] = []
    private(set) var selected: Set<Int> = []
    private(set) var band: Box?

    init(card: Box) {
        self.card = card
        let palette = [0xff6b6b, 0xfcc419, 0x51cf66, 0x339af0, 0xcc5de8, 0xff922b].map { Color(hex: UInt32($0)) }
        for i in 0..<12 {
            let col = Double(i % 6), row = Double(i / 6)
            let jitter = Double((i * 37) % 11) - 5
            items.append(Item(box: Box(card.x + 30 + col * 58 + jitter, card.y + 48 + row * 58 - jitter, 30, 30),
                              color: palette[i % palette.count], round: i % 3 == 1))
        }
    }

    var canvas: Box { content }

    func declare(on regions: SurfaceRegions, _ invalidate: @escaping () -> Void) {
        var d = RegionDescription(frame: canvas.frame, effect: .none, identifier: RegionID.bandCanvas)
        d.bandSelection = true
        d.hitArea = .padding(0)
        d.stackingOrder = -1
        let region = regions.add(d)
        region.onBand = { [unowned self] _, state, r in
            let b = Box(r.x, r.y, r.width, r.height)
            self.selected = Set(self.items.indices.filter { self.items[$0].box.intersects(b) })
            self.band = state == .ended ? nil : b
            invalidate()
        }
    }

    func pointerReleased(at p: Point) -> Bool {
        // A click without a band clears the selection (a band's release comes with its `ended` event).
        guard band == nil, canvas.contains(p), !items.contains(where: { $0.box.contains(p) }) else { return false }
        let changed = !selected.isEmpty
        selected = []
        return changed
    }

    func draw(_ c: Canvas) {
        c.fill(canvas, Color(hex: 0xf8f9fa), radius: 8)
        for (i, it) in items.enumerated() {
            let radius = it.round ? 15.0 : 6.0
            if selected.contains(i) { c.stroke(it.box.inset(-4), .accent, radius: radius + 4, width: 2.5) }
            c.fill(it.box, it.color, radius: radius)
        }
        if let band {
            c.fill(band, Color.accent.with(alpha: 0.08))
        }
        let n = selected.count
        c.text(n == 0 ? "Drag across the shapes to select them" : "\(n) shape\(n == 1 ? "" : "s") selected",
               at: Point(canvas.x + 8, card!.maxY - 18), .small, .secondaryInk)
    }
}
