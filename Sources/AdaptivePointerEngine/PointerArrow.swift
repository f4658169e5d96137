/// The pointer of the `arrow` style (iPadOS 26): a pointed arrowhead whose tip is the hotspot,
/// pointing up and to the left, with softly rounded corners and a notch at its base.
///
/// Its outline is a dart symmetric about an axis 22.5° right of straight down: two wings 19
/// points long (the circle's diameter, so both styles cover about the same area), 26° either
/// side of the axis, and a notch 0.62 of the way down the axis. The tip is rounded by 1 point,
/// the wings by 2, the notch by 1.5. Coordinates are points at size 1, the tip at (0, 0).
public enum PointerArrow {
    /// The corners, clockwise from the tip, and how much each is rounded.
    static let corners: [(x: Double, y: Double, radius: Double)] = [
        (0, 0, 1),
        // The right wing: 48.5° from straight down.
        (14.230, 12.589, 2),
        // The notch: 0.62 × 19 along the axis.
        (4.508, 10.883, 1.5),
        // The left wing: 3.5° left of straight down.
        (-1.160, 18.965, 2),
    ]

    /// The outline at `size` (the size multiplier), the tip at the origin.
    public static func outline(size: Double) -> Path<PointerLocal> {
        let n = corners.count
        func point(_ i: Int) -> Point<PointerLocal> {
            let c = corners[(i + n) % n]
            return Point(x: c.x * size, y: c.y * size)
        }
        // A corner's rounding starts `radius` before it on the incoming edge and ends `radius`
        // after it on the outgoing one, joined by a quadratic curve through the corner.
        func toward(_ from: Point<PointerLocal>, _ to: Point<PointerLocal>, by r: Double) -> Point<PointerLocal> {
            let dx = to.x - from.x, dy = to.y - from.y
            let length = (dx * dx + dy * dy).squareRoot()
            guard length > 0 else { return from }
            let t = min(r / length, 0.5)
            return Point(x: from.x + dx * t, y: from.y + dy * t)
        }
        var path = Path<PointerLocal>()
        for i in 0...n {
            let corner = point(i), r = corners[i % n].radius * size
            let entry = toward(corner, point(i - 1), by: r), exit = toward(corner, point(i + 1), by: r)
            if i == 0 { path.move(to: exit); continue }
            path.addLine(to: entry)
            path.addQuadCurve(to: exit, control: corner)
        }
        path.close()
        return path
    }

    /// The corners' bounds at `size`, relative to the tip (the outline lies inside them).
    public static func bounds(size: Double) -> Rect<PointerLocal> {
        let xs = corners.map(\.x), ys = corners.map(\.y)
        let minX = xs.min()!, minY = ys.min()!
        return Rect(x: minX * size, y: minY * size, width: (xs.max()! - minX) * size, height: (ys.max()! - minY) * size)
    }

    /// `bounds(size: 1)`, computed once: the engine needs it every frame.
    static let unitBounds = bounds(size: 1)
}
