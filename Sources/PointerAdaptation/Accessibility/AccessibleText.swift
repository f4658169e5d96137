/// How tall a text's lines are: the first character's extents or the font size, and in text
/// of several lines each line's own (issue 27, per-line beam).
extension AccessibleWalk {
    /// The text's line height: the first character's extents where the toolkit reports them
    /// (Qt, GTK 3; `measured`), else its default font size (GTK 4.8 implements no character extents).
    func lineHeight(_ path: String, _ done: @escaping (Double?, _ measured: Bool) -> Void) {
        call(path, "Text", "GetCharacterExtents", [.int32(0), .uint32(0)]) { [weak self] m in
            let h = m?.readInt32().flatMap { _ in m?.readInt32() }.flatMap { _ in m?.readInt32() }.flatMap { _ in m?.readInt32() }
            if let h, let line = Self.plausibleLine(Double(h)) { return done(line, true) }
            self?.call(path, "Text", "GetDefaultAttributes") { m in
                let attributes = m?.array("{ss}") { () -> (String, String)? in
                    m?.container("e", "ss") { () -> (String, String)? in
                        guard let k = m?.readString(), let v = m?.readString() else { return nil }
                        return (k, v)
                    }
                }
                let size = attributes?.first { $0.0 == "size" }.flatMap { Double($0.1) }
                done(size.map(AccessibleWalk.lineHeight(fontSize:)).flatMap(AccessibleWalk.plausibleLine), false)
            }
        }
    }

    /// Text less than twice this tall is one line.
    static let shortestLine = 24.0

    /// Texts of several lines read line by line in one walk, and points asked in each.
    static let maximumSampledTexts = 8, maximumLineSamples = 48
    /// Points are asked this far apart, down the text's left edge.
    static let lineSampleStep = 6.0

    /// The lines of a text of several lines (issue 27: a heading and the body below it get
    /// different beams): the character at points down its left edge (`GetOffsetAtPoint`) and
    /// that character's extents (`GetCharacterExtents`) give each line's top and height. Each
    /// line becomes an element of its own, above the text's, from its top to the next line's,
    /// its beam as tall as its characters. Extents that are no line (absurd, outside the text)
    /// are dropped.
    func sampleLines(_ path: String, of index: Int) {
        let text = elements[index]
        let count = min(Self.maximumLineSamples, max(2, Int(text.height / Self.lineSampleStep)))
        let x = Int32(clamping: Int((text.x + min(6, text.width / 2)).rounded()))
        var lines: [(y: Double, height: Double)] = []
        var answered = 0
        let answer = { [weak self] (line: (y: Double, height: Double)?) in
            answered += 1
            if let line, line.y >= text.y - 1, line.y < text.y + text.height, !lines.contains(where: { abs($0.y - line.y) < 1 }) { lines.append(line) }
            if answered == count { self?.addLines(lines, of: index) }
        }
        for k in 0..<count {
            let y = Int32(clamping: Int((text.y + (Double(k) + 0.5) * text.height / Double(count)).rounded()))
            call(path, "Text", "GetOffsetAtPoint", [.int32(x), .int32(y), .uint32(0)]) { [weak self] m in
                guard let self, let offset = m?.readInt32(), offset >= 0 else { return answer(nil) }
                self.call(path, "Text", "GetCharacterExtents", [.int32(offset), .uint32(0)]) { m in
                    let e = m.flatMap { m in [m.readInt32(), m.readInt32(), m.readInt32(), m.readInt32()].compactMap { $0 } }
                    guard let e, e.count == 4, abs(Double(e[1])) <= Self.maximumExtent, let h = Self.plausibleLine(Double(e[3])) else { return answer(nil) }
                    answer((Double(e[1]), h))
                }
            }
        }
    }

    private func addLines(_ lines: [(y: Double, height: Double)], of index: Int) {
        let text = elements[index]
        let sorted = lines.sorted { $0.y < $1.y }
        guard sorted.count >= 2 || sorted.first.map({ $0.height < text.height / 2 }) == true else { return }
        for (i, line) in sorted.enumerated() {
            let bottom = min(text.y + text.height, i + 1 < sorted.count ? sorted[i + 1].y : line.y + line.height)
            let top = max(text.y, line.y)
            guard bottom > top else { continue }
            elements.append(AccessibleElement(kind: .text(lineHeight: line.height, singleLine: true), x: text.x, y: top,
                                              width: text.width, height: bottom - top, depth: text.depth + 1, source: text.source))
        }
    }

    /// A line of text in a font of `size` (AT-SPI's "size" attribute, in points): 1.2 ems at
    /// 96 dpi, the leading most UI fonts have.
    static func lineHeight(fontSize size: Double) -> Double { (size * 96 / 72 * 1.2).rounded() }

    /// A line height some font has: an app may say nan, inf, a negative or INT32_MAX.
    static func plausibleLine(_ height: Double) -> Double? { height.isFinite && height >= 1 && height <= 1024 ? height : nil }
}
