import Rendering

/// One `recognize ID LANG[,LANG…] STROKES` line (ScribbleRecognizer.swift): strokes separated
/// by `;`, points `x,y,pressure` separated by spaces, in points from the ink's top-left.
struct Request {
    var id: String
    var languages: [String]
    var strokes: [[InkPoint]]

    /// Nil for a line that is not a request (the reason in `problem`).
    init?(line: Substring, problem: inout String) {
        let words = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false)
        guard words.count >= 3, words[0] == "recognize", UInt64(words[1]) != nil else {
            problem = "not a 'recognize ID LANGUAGES STROKES' line"
            return nil
        }
        id = String(words[1])
        languages = words[2].split(separator: ",").map(String.init)
        strokes = []
        guard words.count == 4 else { return }
        for stroke in words[3].split(separator: ";") {
            var points: [InkPoint] = []
            for point in stroke.split(separator: " ") {
                let v = point.split(separator: ",").compactMap { Double($0) }
                guard v.count == 3, v.allSatisfy(\.isFinite) else {
                    problem = "a point that is not x,y,pressure: \(point.prefix(40))"
                    return nil
                }
                points.append(InkPoint(x: v[0], y: v[1], pressure: v[2]))
            }
            if !points.isEmpty { strokes.append(points) }
        }
    }
}

/// The strokes' bounding box.
func bounds(_ strokes: [[InkPoint]]) -> (x: Double, y: Double, width: Double, height: Double) {
    let points = strokes.joined()
    guard let first = points.first else { return (0, 0, 0, 0) }
    var (x0, y0, x1, y1) = (first.x, first.y, first.x, first.y)
    for p in points { x0 = min(x0, p.x); y0 = min(y0, p.y); x1 = max(x1, p.x); y1 = max(y1, p.y) }
    return (x0, y0, x1 - x0, y1 - y0)
}
