import Rendering

/// Scribble's gestures, read from the ink's shape in the compositor (the recogniser is not
/// asked): scratching out (one stroke going back and forth across itself, iPadOS's scratch to
/// delete) and a line through text (one straight, flat stroke: select what it crosses).
enum ScribbleGesture {
    /// How far (points) the pen must go back before a turn counts: a wobble is no turn.
    static let turnHysteresis = 4.0
    /// A scratch turns at least this often (three times across and back).
    static let minimumTurns = 4
    /// And is at least this wide (points).
    static let minimumWidth = 20.0

    /// A line through text is at least this long (points)…
    static let minimumLine = 30.0
    /// …and strays at most this far (points) from the straight line between its ends.
    static let lineTolerance = 6.0

    /// One stroke, at least `minimumLine` long, flatter than a fifth of its length, every point
    /// within `lineTolerance` of the chord from its first point to its last.
    static func isLine(_ strokes: [[InkPoint]]) -> Bool {
        guard strokes.count == 1, let stroke = strokes.first, let a = stroke.first, let b = stroke.last else { return false }
        let (dx, dy) = (b.x - a.x, b.y - a.y)
        let length = (dx * dx + dy * dy).squareRoot()
        guard length >= minimumLine, abs(dy) <= length / 5 else { return false }
        return stroke.allSatisfy { p in abs((p.x - a.x) * dy - (p.y - a.y) * dx) / length <= lineTolerance }
    }

    /// One stroke, at least `minimumWidth` wide and wider than it is tall, that turns back
    /// horizontally at least `minimumTurns` times.
    static func isScratch(_ strokes: [[InkPoint]]) -> Bool {
        guard strokes.count == 1, let stroke = strokes.first, let first = stroke.first else { return false }
        let xs = stroke.map(\.x), ys = stroke.map(\.y)
        let width = (xs.max() ?? 0) - (xs.min() ?? 0), height = (ys.max() ?? 0) - (ys.min() ?? 0)
        guard width >= minimumWidth, width > height else { return false }
        var turns = 0, direction = 0.0, extreme = first.x
        for p in stroke.dropFirst() {
            let d = p.x - extreme
            if direction == 0 {
                if abs(d) >= turnHysteresis { direction = d > 0 ? 1 : -1; extreme = p.x }
            } else if (d > 0) == (direction > 0) {
                extreme = p.x
            } else if abs(d) >= turnHysteresis {
                turns += 1
                direction = -direction
                extreme = p.x
            }
        }
        return turns >= minimumTurns
    }
}
