import AdaptivePointerClient

/// A toolbar that hides itself: only a grabber shows at the window's bottom
/// edge. When the pointer rests on the edge, the edge region's `entered`
/// event reveals the bar (its regions are declared then); the `left` events of
/// its regions hide it again once the pointer is elsewhere. Its buttons pick a tool.
final class HidingToolbarPanel: Panel {
    let caption = ""
    let card: Box? = nil
    let tools = ["Pen", "Marker", "Eraser", "Ruler", "Lasso"]
    private(set) var revealed = false
    private(set) var selectedTool = 0
    private let edge: Box
    let bar: Box
    private var pointer = Point.outside
    private var regions: SurfaceRegions?
    private var barRegions: [PointerRegion] = []
    private var invalidate: () -> Void = {}
    private var pressed: Int?

    init(windowWidth: Double, windowHeight: Double) {
        edge = Box(0, windowHeight - 8, windowWidth, 8)
        bar = Box(windowWidth / 2 - 250, windowHeight - 64, 500, 52)
    }

    func button(_ i: Int) -> Box { Box(bar.x + 10 + Double(i) * 96, bar.y + 8, 88, 36) }

    func declare(on regions: SurfaceRegions, _ invalidate: @escaping () -> Void) {
        self.regions = regions
        self.invalidate = invalidate
        var d = RegionDescription(frame: edge.frame, effect: .none, identifier: RegionID.revealEdge)
        d.hitArea = .rect(x: 0, y: Int32(edge.y) - 2, width: Int32(edge.width), height: 10)
        d.magnetism = .off
        let region = regions.add(d)
        region.onEnter = { [unowned self] _ in self.reveal() }
        region.onLeave = { [unowned self] _ in self.hideIfAway() }
    }

    private func reveal() {
        guard !revealed, let regions else { return }
        revealed = true
        var background = RegionDescription(frame: bar.frame, effect: .none, identifier: RegionID.hiddenBar)
        background.hitArea = .padding(0)
        background.stackingOrder = -1
        background.magnetism = .off
        barRegions = [regions.add(background)]
        for i in tools.indices {
            let b = button(i)
            var d = RegionDescription(frame: b.frame, effect: .highlight, identifier: RegionID.hiddenBarButtons + UInt32(i))
            d.hitArea = .rect(x: Int32(b.x) - 4, y: Int32(bar.y), width: 96, height: Int32(bar.height))
            barRegions.append(regions.add(d))
        }
        for r in barRegions { r.onLeave = { [unowned self] _ in self.hideIfAway() } }
        invalidate()
    }

    /// Hides the bar unless the pointer is on it or on the edge.
    private func hideIfAway() {
        guard revealed, !bar.inset(-6).contains(pointer), !edge.inset(-2).contains(pointer), let regions else { return }
        revealed = false
        for r in barRegions { regions.remove(r) }
        barRegions = []
        invalidate()
    }

    func contains(_ p: Point) -> Bool { revealed && bar.contains(p) }

    func pointerMoved(to p: Point, dragging: Bool) -> Bool {
        pointer = p
        return false
    }

    private func hit(_ p: Point) -> Int? { tools.indices.first { button($0).inset(-4).contains(p) } }

    func pointerPressed(at p: Point) -> Bool { pressed = hit(p); return false }

    func pointerReleased(at p: Point) -> Bool {
        defer { pressed = nil }
        guard let i = hit(p), i == pressed, i != selectedTool else { return false }
        selectedTool = i
        return true
    }

    func draw(_ c: Canvas) {
        guard revealed else {
            c.fill(Box(edge.midX - 30, edge.y + 1, 60, 4), Color(hex: 0xadb5bd), radius: 2)
            c.text("rest the pointer on the bottom edge", centeredIn: Box(edge.x, edge.y - 22, edge.width, 16), .small, Color(hex: 0x9aa0a6))
            return
        }
        c.shadow(bar, radius: 14, depth: 6, opacity: 0.18)
        c.fill(bar, Color(hex: 0x2b2b2e), radius: 14)
        for (i, tool) in tools.enumerated() {
            let b = button(i)
            if i == selectedTool { c.fill(b, .accent, radius: 8) }
            c.text(tool, centeredIn: b, Canvas.Font(size: 14, bold: i == selectedTool), .panel)
        }
    }
}
