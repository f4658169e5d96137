import AdaptivePointerClient

/// Two panes and the handle between them: over the handle the pointer grows
/// left and right arrows; dragging it resizes the panes and the pointer shows
/// the left pane's width × height beside it.
final class SplitViewPanel: Panel {
    let caption = "Split view · resize handle with arrows"
    let card: Box?
    private(set) var splitX: Double
    private(set) var dragging = false
    private var region: PointerRegion?
    private var description: RegionDescription?

    init(card: Box) {
        self.card = card
        splitX = card.x + 14 + 150
    }

    var handle: Box { Box(splitX - 4, content.y, 8, content.height) }
    var leftPane: Box { Box(content.x, content.y, splitX - 4 - content.x, content.height) }
    var rightPane: Box { Box(splitX + 4, content.y, content.maxX - splitX - 4, content.height) }
    /// What the annotation says while dragging.
    var sizeText: String { "\(Int(leftPane.width)) × \(Int(leftPane.height))" }

    func declare(on regions: SurfaceRegions, _ invalidate: @escaping () -> Void) {
        var d = RegionDescription(frame: handle.frame, effect: .none, identifier: RegionID.splitHandle)
        d.hitArea = .padding(6)
        d.accessories = [.init(.arrow, angle: 270, offset: 3), .init(.arrow, angle: 90, offset: 3)]
        // The handle is dragged sideways: latched horizontally, it stays the target however
        // far the hand runs ahead of the redrawn handle.
        d.latchingAxes = .horizontal
        description = d
        region = regions.add(d)
    }

    private func update() {
        guard var d = description else { return }
        d.frame = handle.frame
        d.annotation = dragging ? sizeText : nil
        description = d
        region?.apply(d)
    }

    func contains(_ p: Point) -> Bool { card!.contains(p) }

    func pointerPressed(at p: Point) -> Bool {
        guard handle.inset(-8).contains(p) else { return false }
        dragging = true
        update()
        return true
    }

    func pointerMoved(to p: Point, dragging isDragging: Bool) -> Bool {
        guard dragging, isDragging else { return false }
        let x = max(content.x + 60, min(content.maxX - 60, p.x.rounded()))
        guard x != splitX else { return false }
        splitX = x
        update()
        return true
    }

    func pointerReleased(at p: Point) -> Bool {
        guard dragging else { return false }
        dragging = false
        update()
        return true
    }

    func draw(_ c: Canvas) {
        c.fill(leftPane, Color(hex: 0xf1f3f5), radius: 6)
        c.fill(rightPane, Color(hex: 0xf8f9fa), radius: 6)
        c.text("Sidebar", at: Point(leftPane.x + 10, leftPane.y + 20), Canvas.Font(size: 13, bold: true))
        for (i, item) in ["Inbox", "Drafts", "Sent", "Archive"].enumerated() {
            c.text(item, at: Point(leftPane.x + 10, leftPane.y + 44 + Double(i) * 22), .small, .secondaryInk)
        }
        c.text("Detail", at: Point(rightPane.x + 10, rightPane.y + 20), Canvas.Font(size: 13, bold: true))
        c.text("\(Int(rightPane.width)) pt wide", at: Point(rightPane.x + 10, rightPane.y + 44), .small, .secondaryInk)
        c.fill(Box(splitX - 0.5, content.y, 1, content.height), .separator)
        c.fill(Box(splitX - 2, handle.midY - 16, 4, 32), dragging ? .accent : Color(hex: 0xadb5bd), radius: 2)
    }
}
