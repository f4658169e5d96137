import AdaptivePointerClient

/// A multi-line text area: the pointer is an I-beam as tall as the line.
/// Click places the caret, drag selects (character by character, line by
/// line); the toolbar's B, I and U buttons style the text.
final class TextAreaPanel: Panel {
    let caption = "Text · I-beam sized to the line"
    let card: Box? = Box(860, 76, 400, 254)
    static let lineHeight = 22.0
    let lines = [
        "The pointer becomes an I-beam over text,",
        "sized to the height of the line it is on.",
        "Drag to select: the selection follows the",
        "pointer line by line, never skipping one.",
        "Toggle B, I and U in the toolbar to style",
        "this text; click to place the caret.",
        "Lodestone draws the beam; the app only",
        "declares the region and its line height.",
    ]
    private let toolbar: ToolbarPanel
    private let measurer = Canvas()
    /// (line, character offset) of the selection's anchor and moving end.
    private(set) var anchor: (line: Int, column: Int)?
    private(set) var focus: (line: Int, column: Int)?
    private var selecting = false

    init(toolbar: ToolbarPanel) { self.toolbar = toolbar }

    var textBox: Box { Box(content.x + 4, content.y + 2, content.width - 8, Double(lines.count) * Self.lineHeight) }
    private var font: Canvas.Font { Canvas.Font(size: 15, bold: toolbar.bold, italic: toolbar.italic) }

    func declare(on regions: SurfaceRegions, _ invalidate: @escaping () -> Void) {
        var d = RegionDescription(frame: textBox.frame, shape: .verticalBeam(lineHeight: Self.lineHeight), identifier: RegionID.text)
        d.hitArea = .padding(4)
        regions.add(d)
    }

    /// The caret position nearest to `p`.
    private func position(_ p: Point) -> (line: Int, column: Int) {
        let line = max(0, min(lines.count - 1, Int((p.y - textBox.y) / Self.lineHeight)))
        let chars = Array(lines[line])
        var best = (column: 0, distance: Double.infinity)
        for column in 0...chars.count {
            let x = textBox.x + measurer.measure(String(chars[..<column]), font)
            if abs(x - p.x) < best.distance { best = (column, abs(x - p.x)) }
        }
        return (line, best.column)
    }

    func pointerPressed(at p: Point) -> Bool {
        guard textBox.inset(-4).contains(p) else { return false }
        anchor = position(p)
        focus = anchor
        selecting = true
        return true
    }

    func pointerMoved(to p: Point, dragging: Bool) -> Bool {
        guard selecting, dragging else { return false }
        let f = position(p)
        if let focus, focus == f { return false }
        focus = f
        return true
    }

    func pointerReleased(at p: Point) -> Bool {
        selecting = false
        return false
    }

    /// The selected text (empty with a caret or nothing).
    var selectedText: String {
        guard let anchor, let focus else { return "" }
        let (a, b) = (anchor.line, anchor.column) <= (focus.line, focus.column) ? (anchor, focus) : (focus, anchor)
        var out: [String] = []
        for line in a.line...b.line {
            let chars = Array(lines[line])
            let from = line == a.line ? a.column : 0, to = line == b.line ? b.column : chars.count
            out.append(String(chars[from..<max(from, to)]))
        }
        return out.joined(separator: "\n")
    }

    func draw(_ c: Canvas) {
        let box = textBox, font = self.font
        c.clip(content)
        if let anchor, let focus {
            let (a, b) = (anchor.line, anchor.column) <= (focus.line, focus.column) ? (anchor, focus) : (focus, anchor)
            for line in a.line...b.line {
                let chars = Array(lines[line])
                let from = line == a.line ? a.column : 0, to = line == b.line ? b.column : chars.count
                let x0 = box.x + c.measure(String(chars[..<from]), font)
                let x1 = box.x + c.measure(String(chars[..<to]), font) + (line == b.line ? 0 : 4)
                let y = box.y + Double(line) * Self.lineHeight
                if x1 > x0 { c.fill(Box(x0, y + 1, x1 - x0, Self.lineHeight - 1), .selection) }
            }
            if (a.line, a.column) == (b.line, b.column) {
                let x = box.x + c.measure(String(Array(lines[a.line])[..<a.column]), font)
                c.fill(Box(x - 1, box.y + Double(a.line) * Self.lineHeight + 3, 2, Self.lineHeight - 5), .accent)
            }
        }
        for (i, line) in lines.enumerated() {
            let baseline = box.y + Double(i) * Self.lineHeight + 16
            c.text(line, at: Point(box.x, baseline), font)
            if toolbar.underline { c.line(from: Point(box.x, baseline + 2.5), to: Point(box.x + c.measure(line, font), baseline + 2.5), .ink) }
        }
        c.unclip()
        let selected = selectedText.count
        c.text(selected > 0 ? "\(selected) characters selected" : "Click to place the caret, drag to select",
               at: Point(box.x, card!.maxY - 12), .small, .secondaryInk)
    }
}
