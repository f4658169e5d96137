import Foundation

/// Handwriting made once and committed (Tests/data/scribble/strokes.txt, by
/// Scripts/make-scribble-strokes): English words traced from handwriting fonts, Japanese
/// characters from KanjiVG. ScribbleTests writes them with the injected pen;
/// `lodestone-bench --scribble` measures how many the recogniser reads exactly.
public struct ScribbleSample: Sendable {
    public var text: String
    /// `en`, `ja`.
    public var language: String
    /// The font or KanjiVG character it was made from.
    public var source: String
    /// Points from the word's top-left (points), with pressure.
    public var strokes: [[(x: Double, y: Double, pressure: Double)]]

    /// Every sample in `file`.
    public static func load(_ file: String) throws -> [ScribbleSample] {
        let text = try String(contentsOfFile: file, encoding: .utf8)
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 4 else { return nil }
            let strokes = fields[3].split(separator: ";").map { stroke in
                stroke.split(separator: " ").compactMap { point -> (x: Double, y: Double, pressure: Double)? in
                    let v = point.split(separator: ",").compactMap { Double($0) }
                    return v.count == 3 ? (v[0], v[1], v[2]) : nil
                }
            }
            return ScribbleSample(text: String(fields[0]), language: String(fields[1]), source: String(fields[2]), strokes: strokes)
        }
    }

    /// The strokes in the recogniser's request form (`x,y,p x,y,p;…`).
    public var encoded: String {
        strokes.map { $0.map { String(format: "%.1f,%.1f,%.2f", $0.x, $0.y, $0.pressure) }.joined(separator: " ") }.joined(separator: ";")
    }
}

extension TestControl {
    /// Writes `strokes` with the injected pen, their top-left at global (x, y): each stroke
    /// a tip down, its points, a tip up; the pen comes into proximity first and leaves after.
    public func write(_ strokes: [[(x: Double, y: Double, pressure: Double)]], at x: Double, y: Double) throws {
        guard let first = strokes.first?.first else { return }
        try tabletTool(.proximityIn, x: x + first.x, y: y + first.y, distance: 0.1)
        for stroke in strokes {
            guard let start = stroke.first else { continue }
            try tabletTool(.axes, x: x + start.x, y: y + start.y, distance: 0.05)
            try tabletTool(.tipDown, x: x + start.x, y: y + start.y, pressure: start.pressure)
            for p in stroke.dropFirst() { try tabletTool(.axes, x: x + p.x, y: y + p.y, pressure: p.pressure) }
            let end = stroke.last ?? start
            try tabletTool(.tipUp, x: x + end.x, y: y + end.y, distance: 0.05)
        }
        try tabletTool(.proximityOut)
    }
}
