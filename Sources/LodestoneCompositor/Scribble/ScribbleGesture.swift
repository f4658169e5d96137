import Glibc
import Rendering

/// Scribble's gestures, read from the ink's shape in the compositor (the recogniser is not
/// asked): scratching out (one stroke going back and forth across itself, iPadOS's scratch to
/// delete), and a line through text or a circle around it (select what it crosses or holds).
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

    /// A circle around text is at least this wide (points): a smaller loop is an "o"…
    static let minimumCircleWidth = 40.0
    /// …goes this far around its middle (radians; a closed loop is 2π)…
    static let minimumCircleTurn = 1.7 * Double.pi
    /// …and ends within this share of its width from where it began.
    static let circleGap = 0.35

    /// One stroke, at least `minimumCircleWidth` wide and 10 tall, going at least
    /// `minimumCircleTurn` around the middle of its bounds, its ends close.
    static func isCircle(_ strokes: [[InkPoint]]) -> Bool {
        guard strokes.count == 1, let stroke = strokes.first, stroke.count >= 8, let a = stroke.first, let b = stroke.last else { return false }
        let xs = stroke.map(\.x), ys = stroke.map(\.y)
        let (minX, maxX, minY, maxY) = (xs.min() ?? 0, xs.max() ?? 0, ys.min() ?? 0, ys.max() ?? 0)
        let (width, height) = (maxX - minX, maxY - minY)
        guard width >= minimumCircleWidth, height >= 10 else { return false }
        guard ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot() <= circleGap * width else { return false }
        // The angle swept around the middle, unwrapped point to point.
        let (cx, cy) = ((minX + maxX) / 2, (minY + maxY) / 2)
        var swept = 0.0, last = atan2(a.y - cy, a.x - cx)
        for p in stroke.dropFirst() {
            let angle = atan2(p.y - cy, p.x - cx)
            var d = angle - last
            if d > .pi { d -= 2 * .pi } else if d < -.pi { d += 2 * .pi }
            swept += d
            last = angle
        }
        return abs(swept) >= minimumCircleTurn
    }

    /// Where a selecting gesture runs through the text: a line's ends, or a circle's
    /// horizontal middle from its left edge to its right (inset a little: the ink lies around
    /// the text, not on it); nil when the strokes are neither.
    static func selection(_ strokes: [[InkPoint]]) -> (from: InkPoint, to: InkPoint)? {
        if isLine(strokes), let a = strokes.first?.first, let b = strokes.first?.last { return (a, b) }
        guard isCircle(strokes), let stroke = strokes.first else { return nil }
        let xs = stroke.map(\.x), ys = stroke.map(\.y)
        let (minX, maxX) = (xs.min() ?? 0, xs.max() ?? 0), y = ((ys.min() ?? 0) + (ys.max() ?? 0)) / 2
        let inset = (maxX - minX) * 0.1
        return (InkPoint(x: minX + inset, y: y, pressure: 0), InkPoint(x: maxX - inset, y: y, pressure: 0))
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
