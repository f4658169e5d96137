/// Coordinate spaces are phantom types: `Point<Global>` and `Point<SurfaceLocal>` are different
/// types, so passing a surface-local point where a global one is expected fails to compile
/// (the approach of Smithay's `utils/geometry.rs`). All values are logical points.
public protocol CoordinateSpace: Sendable {}

/// The compositor's global logical space, spanning all outputs. The engine works in this space.
public enum Global: CoordinateSpace {}

/// A surface's own logical space, as clients describe their regions.
public enum SurfaceLocal: CoordinateSpace {}

/// Relative to the pointer's centre: custom pointer shapes and accessory glyphs.
public enum PointerLocal: CoordinateSpace {}

/// A position in `Space`.
public struct Point<Space: CoordinateSpace>: Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double

    @inlinable public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    @inlinable public static var zero: Point { Point(x: 0, y: 0) }

    @inlinable public var isFinite: Bool { x.isFinite && y.isFinite }

    @inlinable public func distance(to other: Point) -> Double { (other - self).length }

    public var description: String { "(\(x), \(y))" }

    @inlinable public static func - (a: Point, b: Point) -> Vector<Space> {
        Vector(dx: a.x - b.x, dy: a.y - b.y)
    }

    @inlinable public static func + (p: Point, v: Vector<Space>) -> Point {
        Point(x: p.x + v.dx, y: p.y + v.dy)
    }

    @inlinable public static func - (p: Point, v: Vector<Space>) -> Point {
        Point(x: p.x - v.dx, y: p.y - v.dy)
    }

    @inlinable public static func += (p: inout Point, v: Vector<Space>) { p = p + v }
}

/// A displacement in `Space` (the difference of two points).
public struct Vector<Space: CoordinateSpace>: Hashable, Sendable, CustomStringConvertible {
    public var dx: Double
    public var dy: Double

    @inlinable public init(dx: Double, dy: Double) {
        self.dx = dx
        self.dy = dy
    }

    @inlinable public static var zero: Vector { Vector(dx: 0, dy: 0) }

    @inlinable public var length: Double { (dx * dx + dy * dy).squareRoot() }

    @inlinable public var isFinite: Bool { dx.isFinite && dy.isFinite }

    public var description: String { "⟨\(dx), \(dy)⟩" }

    /// The same direction, at most `maximum` long (slip is capped this way).
    @inlinable public func clamped(toLength maximum: Double) -> Vector {
        let l = length
        return l > maximum && l > 0 ? self * (maximum / l) : self
    }

    @inlinable public static func + (a: Vector, b: Vector) -> Vector { Vector(dx: a.dx + b.dx, dy: a.dy + b.dy) }
    @inlinable public static func - (a: Vector, b: Vector) -> Vector { Vector(dx: a.dx - b.dx, dy: a.dy - b.dy) }
    @inlinable public static func * (v: Vector, s: Double) -> Vector { Vector(dx: v.dx * s, dy: v.dy * s) }
    @inlinable public static prefix func - (v: Vector) -> Vector { Vector(dx: -v.dx, dy: -v.dy) }
}

/// A width and height in `Space`.
public struct Size<Space: CoordinateSpace>: Hashable, Sendable {
    public var width: Double
    public var height: Double

    @inlinable public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    @inlinable public static var zero: Size { Size(width: 0, height: 0) }

    @inlinable public var isFinite: Bool { width.isFinite && height.isFinite }
}
