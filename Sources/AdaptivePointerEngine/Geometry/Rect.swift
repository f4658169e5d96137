/// An axis-aligned rectangle in `Space`. Containment is half-open (`min <= p < max`) so two
/// rectangles that share an edge never both claim a point on it.
public struct Rect<Space: CoordinateSpace>: Hashable, Sendable, CustomStringConvertible {
    public var origin: Point<Space>
    public var size: Size<Space>

    @inlinable public init(origin: Point<Space>, size: Size<Space>) {
        self.origin = origin
        self.size = size
    }

    @inlinable public init(x: Double, y: Double, width: Double, height: Double) {
        self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
    }

    /// The rectangle with `center` in its middle.
    @inlinable public init(center: Point<Space>, width: Double, height: Double) {
        self.init(x: center.x - width / 2, y: center.y - height / 2, width: width, height: height)
    }

    /// The smallest rectangle spanning both corners, in any order (band selection uses this).
    @inlinable public init(corner a: Point<Space>, _ b: Point<Space>) {
        self.init(x: Swift.min(a.x, b.x), y: Swift.min(a.y, b.y),
                  width: abs(a.x - b.x), height: abs(a.y - b.y))
    }

    @inlinable public static var zero: Rect { Rect(x: 0, y: 0, width: 0, height: 0) }

    @inlinable public var minX: Double { origin.x }
    @inlinable public var minY: Double { origin.y }
    @inlinable public var maxX: Double { origin.x + size.width }
    @inlinable public var maxY: Double { origin.y + size.height }
    @inlinable public var midX: Double { origin.x + size.width / 2 }
    @inlinable public var midY: Double { origin.y + size.height / 2 }
    @inlinable public var width: Double { size.width }
    @inlinable public var height: Double { size.height }
    @inlinable public var center: Point<Space> { Point(x: midX, y: midY) }
    @inlinable public var isEmpty: Bool { !(size.width > 0 && size.height > 0) }
    @inlinable public var isFinite: Bool { origin.isFinite && size.isFinite }

    public var description: String { "[\(minX), \(minY) \(width)×\(height)]" }

    @inlinable public func contains(_ p: Point<Space>) -> Bool {
        p.x >= minX && p.x < maxX && p.y >= minY && p.y < maxY
    }

    /// Whether `other` lies inside, edges included (used by the damage property checks).
    @inlinable public func contains(_ other: Rect) -> Bool {
        other.minX >= minX && other.maxX <= maxX && other.minY >= minY && other.maxY <= maxY
    }

    @inlinable public func intersects(_ other: Rect) -> Bool {
        other.minX < maxX && other.maxX > minX && other.minY < maxY && other.maxY > minY
    }

    @inlinable public func intersection(_ other: Rect) -> Rect {
        let x0 = Swift.max(minX, other.minX), y0 = Swift.max(minY, other.minY)
        let x1 = Swift.min(maxX, other.maxX), y1 = Swift.min(maxY, other.maxY)
        return Rect(x: x0, y: y0, width: Swift.max(0, x1 - x0), height: Swift.max(0, y1 - y0))
    }

    /// The smallest rectangle holding both (damage is a union of old and new bounds).
    @inlinable public func union(_ other: Rect) -> Rect {
        let x0 = Swift.min(minX, other.minX), y0 = Swift.min(minY, other.minY)
        let x1 = Swift.max(maxX, other.maxX), y1 = Swift.max(maxY, other.maxY)
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// Grown by `d` on every side (negative `d` shrinks, never below zero size).
    @inlinable public func outset(by d: Double) -> Rect {
        outset(dx: d, dy: d)
    }

    /// Edges move by exactly `dx`/`dy` (so a zero outset is the identity); a rectangle shrunk
    /// past nothing collapses onto its centre line.
    @inlinable public func outset(dx: Double, dy: Double) -> Rect {
        var r = Rect(x: minX - dx, y: minY - dy, width: width + 2 * dx, height: height + 2 * dy)
        if r.size.width < 0 { r.origin.x = midX; r.size.width = 0 }
        if r.size.height < 0 { r.origin.y = midY; r.size.height = 0 }
        return r
    }

    /// The smallest rectangle with integral edges holding this one (pixel-aligned damage;
    /// integral edges also make later unions and containment checks exact).
    @inlinable public var integral: Rect {
        let x0 = minX.rounded(.down), y0 = minY.rounded(.down)
        return Rect(x: x0, y: y0, width: maxX.rounded(.up) - x0, height: maxY.rounded(.up) - y0)
    }

    @inlinable public func offset(by v: Vector<Space>) -> Rect {
        Rect(origin: origin + v, size: size)
    }

    /// The nearest point of the rectangle (edges included) to `p`.
    @inlinable public func clamp(_ p: Point<Space>) -> Point<Space> {
        Point(x: Swift.min(Swift.max(p.x, minX), maxX), y: Swift.min(Swift.max(p.y, minY), maxY))
    }

    /// Squared distance from `p` to the rectangle; zero inside (cheap comparisons).
    @inlinable public func squaredDistance(to p: Point<Space>) -> Double {
        let dx = Swift.max(minX - p.x, 0, p.x - maxX)
        let dy = Swift.max(minY - p.y, 0, p.y - maxY)
        return dx * dx + dy * dy
    }

    /// Distance from `p` to the rectangle; zero inside.
    @inlinable public func distance(to p: Point<Space>) -> Double {
        let dx = Swift.max(minX - p.x, 0, p.x - maxX)
        let dy = Swift.max(minY - p.y, 0, p.y - maxY)
        return (dx * dx + dy * dy).squareRoot()
    }
}

/// A rectangle with circular corners: the one family every built-in pointer shape belongs to
/// (circle, beam, platter), which is why the shape morph can interpolate its four numbers.
public struct RoundedRect<Space: CoordinateSpace>: Hashable, Sendable {
    public var rect: Rect<Space>
    /// Already limited to half the shorter side, so a renderer can draw it as is.
    public var cornerRadius: Double

    @inlinable public init(rect: Rect<Space>, cornerRadius: Double) {
        self.rect = rect
        self.cornerRadius = Swift.max(0, Swift.min(cornerRadius, Swift.min(rect.width, rect.height) / 2))
    }

    /// A circle of `diameter` around `center`.
    @inlinable public static func circle(center: Point<Space>, diameter: Double) -> RoundedRect {
        RoundedRect(rect: Rect(center: center, width: diameter, height: diameter), cornerRadius: diameter / 2)
    }

    @inlinable public var bounds: Rect<Space> { rect }
    @inlinable public var center: Point<Space> { rect.center }
    @inlinable public var isFinite: Bool { rect.isFinite && cornerRadius.isFinite }

    /// Scaled about its centre (pressed scale, lift growth).
    @inlinable public func scaled(by s: Double) -> RoundedRect {
        RoundedRect(rect: Rect(center: rect.center, width: rect.width * s, height: rect.height * s),
                    cornerRadius: cornerRadius * s)
    }
}
