import AdaptivePointerClient

/// A multi-line text area: the pointer is an I-beam as tall as the line.
/// Click places the caret, drag selects (character by character, line by
/// line); the toolbar's B, I and U buttons style the text. Below the last line
/// is a writing area (adaptive-pointer-v1 version 4): what a pen writes there
/// becomes a new line, as writing below the last reminder makes a new one.
final class TextAreaPanel: Panel {
    let caption = "Text · I-beam sized to the line"
    let card: Box? = Box(860, 76, 400, 254)
    static let lineHeight = 22.0
    private(set) var lines = [
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

    /// Lines written with the pen come after the eighth, up to this many; the last is then replaced.
    static let maximumLines = 9
    private var textRegion: PointerRegion?
    private var writingRegion: PointerRegion?

    init(toolbar: ToolbarPanel) { self.toolbar = toolbar }

    /// Below the last line, to the card's status line: where a pen adds a line.
    var writingBox: Box { Box(textBox.x, textBox.maxY, textBox.width, max(24, card!.maxY - 20 - textBox.maxY)) }

    var textBox: Box { Box(content.x + 4, content.y + 2, content.width - 8, Double(lines.count) * Self.lineHeight) }
    private var font: Canvas.Font { Canvas.Font(size: 15, bold: toolbar.bold, italic: toolbar.italic) }

    func declare(on regions: SurfaceRegions, _ invalidate: @escaping () -> Void) {
        textRegion = regions.add(textDescription)
        let writing = regions.add(writingDescription)
        writing.onWritten = { [unowned self] _, text, _ in
            self.add(line: text)
            invalidate()
        }
        writingRegion = writing
    }

    private var textDescription: RegionDescription {
        var d = RegionDescription(frame: textBox.frame, shape: .verticalBeam(lineHeight: Self.lineHeight), identifier: RegionID.text)
        d.hitArea = .padding(4)
        return d
    }

    private var writingDescription: RegionDescription {
        var d = RegionDescription(frame: writingBox.frame, shape: .verticalBeam(lineHeight: Self.lineHeight), identifier: RegionID.writingArea)
        d.writingArea = true
        return d
    }

    /// Handwriting read below the last line: a new line (the regions follow the text's end).
    private func add(line: String) {
        if lines.count < Self.maximumLines { lines.append(line) } else { lines[lines.count - 1] = line }
        anchor = nil
        focus = nil
        textRegion?.apply(textDescription)
        writingRegion?.apply(writingDescription)
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
