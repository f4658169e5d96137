import AdaptivePointerClient

/// Large cards: too big to lift, so they hover (an overlay tint, a slight
/// scale, a shadow) and the pointer keeps its circle. Clicking saves a card.
final class CardsPanel: Panel {
    let caption = "Cards · hover with tint, scale, shadow"
    let card: Box?
    struct Item { var title: String; var subtitle: String; var top: Color; var bottom: Color; var saved = false }
    private(set) var items = [
        Item(title: "Lisbon", subtitle: "3 nights · May", top: Color(hex: 0xffd8a8), bottom: Color(hex: 0xf08c00)),
        Item(title: "Kyoto", subtitle: "5 nights · Oct", top: Color(hex: 0xd0bfff), bottom: Color(hex: 0x7048e8)),
    ]
    private var pressed: Int?

    init(card: Box) { self.card = card }

    func item(_ i: Int) -> Box { Box(content.x + 8 + Double(i) * 186, content.y + 8, 170, 186) }

    func declare(on regions: SurfaceRegions, _ invalidate: @escaping () -> Void) {
        for i in items.indices {
            var d = RegionDescription(frame: item(i).frame, effect: .hover, identifier: RegionID.cards + UInt32(i))
            d.hover = (.overlay, true, true)
            d.cornerRadius = 12
            d.hitArea = .bezelless
            regions.add(d)
        }
    }

    private func hit(_ p: Point) -> Int? { items.indices.first { item($0).contains(p) } }

    func pointerPressed(at p: Point) -> Bool { pressed = hit(p); return false }

    func pointerReleased(at p: Point) -> Bool {
        defer { pressed = nil }
        guard let i = hit(p), i == pressed else { return false }
        items[i].saved.toggle()
        return true
    }

    func draw(_ c: Canvas) {
        for (i, it) in items.enumerated() {
            let b = item(i)
            c.shadow(b, radius: 12, depth: 5, opacity: 0.12)
            c.fill(b, .panel, radius: 12)
            let picture = Box(b.x, b.y, b.width, 112)
            c.clip(Box(b.x, b.y, b.width, 112))
            c.gradient(Box(b.x, b.y, b.width, 124), top: it.top, bottom: it.bottom, radius: 12)
            c.unclip()
            c.text(i == 0 ? "☀" : "✈", centeredIn: picture, Canvas.Font(size: 40), .panel)
            c.text(it.title, at: Point(b.x + 12, b.y + 136), Canvas.Font(size: 16, bold: true))
            c.text(it.subtitle, at: Point(b.x + 12, b.y + 156), .small, .secondaryInk)
            let badge = Box(b.x + 12, b.y + 164, 70, 16)
            c.text(it.saved ? "♥ Saved" : "♡ Save", at: Point(badge.x, badge.maxY - 3), .small, it.saved ? .red : .secondaryInk)
        }
    }
}
