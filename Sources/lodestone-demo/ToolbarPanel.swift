import AdaptivePointerClient

/// The window's toolbar: bar buttons that toggle (favourite, bold, italic,
/// underline: the last three style the text area) and a segmented control.
/// Both highlight, and their hit regions touch, so the pointer slides from
/// one button to the next without flickering back to the circle.
final class ToolbarPanel: Panel {
    let caption = ""
    let card: Box? = nil
    static let bar = Box(0, 0, 1280, 60)

    struct Button { var glyph: String; var font: Canvas.Font; var frame: Box; var on = false }
    private(set) var buttons: [Button]
    let segments = ["Day", "Week", "Month", "Year"]
    private(set) var selectedSegment = 1
    private var pressed: Int?

    var favourite: Bool { buttons[0].on }
    var bold: Bool { buttons[1].on }
    var italic: Bool { buttons[2].on }
    var underline: Bool { buttons[3].on }

    init() {
        let glyphs: [(String, Canvas.Font)] = [("★", Canvas.Font(size: 18)), ("B", Canvas.Font(size: 17, bold: true)),
                                               ("I", Canvas.Font(size: 17, italic: true)), ("U", Canvas.Font(size: 17))]
        buttons = glyphs.enumerated().map { i, g in Button(glyph: g.0, font: g.1, frame: Box(360 + Double(i) * 44, 12, 40, 36)) }
    }

    /// Segment `i`'s frame.
    func segment(_ i: Int) -> Box { Box(820 + Double(i) * 80, 14, 80, 32) }

    func declare(on regions: SurfaceRegions, _ invalidate: @escaping () -> Void) {
        for (i, b) in buttons.enumerated() {
            var d = RegionDescription(frame: b.frame.frame, effect: .highlight, identifier: RegionID.barButtons + UInt32(i))
            // Contiguous: each hit rect reaches halfway into the 4-point gap on both sides.
            d.hitArea = .rect(x: Int32(b.frame.x) - 2, y: 4, width: 44, height: 52)
            regions.add(d)
        }
        for i in segments.indices {
            let s = segment(i)
            var d = RegionDescription(frame: s.frame, effect: .highlight, identifier: RegionID.segments + UInt32(i))
            d.hitArea = .rect(x: Int32(s.x), y: 4, width: 80, height: 52)
            d.cornerRadius = 7
            regions.add(d)
        }
    }

    func contains(_ p: Point) -> Bool { Self.bar.contains(p) }

    private func hit(_ p: Point) -> Int? {
        if let i = buttons.firstIndex(where: { $0.frame.inset(-2).contains(p) }) { return i }
        if let i = segments.indices.first(where: { segment($0).contains(p) }) { return 100 + i }
        return nil
    }

    func pointerPressed(at p: Point) -> Bool { pressed = hit(p); return false }

    func pointerReleased(at p: Point) -> Bool {
        defer { pressed = nil }
        guard let h = hit(p), h == pressed else { return false }
        if h >= 100 { selectedSegment = h - 100 } else { buttons[h].on.toggle() }
        return true
    }

    func draw(_ c: Canvas) {
        let bar = Self.bar
        c.fill(bar, Color(hex: 0xf9f9fb))
        c.line(from: Point(0, bar.maxY - 0.5), to: Point(bar.width, bar.maxY - 0.5), .separator)
        c.text("Lodestone", at: Point(24, 36), Canvas.Font(size: 20, bold: true))
        c.text("adaptive pointer demo", at: Point(24 + c.measure("Lodestone ", Canvas.Font(size: 20, bold: true)), 36),
               Canvas.Font(size: 14), .secondaryInk)
        for b in buttons {
            if b.on { c.fill(b.frame, .accent, radius: 8) }
            let glyphColor: Color = b.on ? .panel : (b.glyph == "★" ? Color(hex: 0x8e8e93) : .ink)
            c.text(b.glyph, centeredIn: b.frame, b.font, glyphColor)
        }
        // The segmented control: a track, the selected segment raised on it.
        let track = Box(segment(0).x, segment(0).y, 80 * Double(segments.count), 32)
        c.fill(track, .fill, radius: 8)
        for (i, name) in segments.enumerated() {
            let s = segment(i)
            if i == selectedSegment {
                let knob = s.inset(2)
                c.shadow(knob, radius: 7, depth: 2, opacity: 0.12)
                c.fill(knob, .panel, radius: 7)
            } else if i != selectedSegment - 1 && i < segments.count - 1 {
                c.line(from: Point(s.maxX, s.y + 8), to: Point(s.maxX, s.maxY - 8), .separator)
            }
            c.text(name, centeredIn: s, Canvas.Font(size: 13, bold: i == selectedSegment), .ink)
        }
        c.text("view: \(segments[selectedSegment])", at: Point(1160, 35), .small, .secondaryInk)
    }
}
