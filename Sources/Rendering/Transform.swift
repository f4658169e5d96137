import CPixman

/// A 2D affine map, used to take output pixels to buffer pixels.
public struct Affine: Sendable, Equatable {
    public var a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double

    public static let identity = Affine(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a; self.b = b; self.c = c; self.d = d; self.tx = tx; self.ty = ty
    }

    public static func translation(_ x: Double, _ y: Double) -> Affine { Affine(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y) }
    public static func scale(_ sx: Double, _ sy: Double) -> Affine { Affine(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0) }

    /// `self` after `other`: first `other`, then `self`.
    public func concatenating(_ other: Affine) -> Affine {
        Affine(a: a * other.a + c * other.b, b: b * other.a + d * other.b,
               c: a * other.c + c * other.d, d: b * other.c + d * other.d,
               tx: a * other.tx + c * other.ty + tx, ty: b * other.tx + d * other.ty + ty)
    }

    public func apply(_ x: Double, _ y: Double) -> (x: Double, y: Double) {
        (a * x + c * y + tx, b * x + d * y + ty)
    }

    public var isIdentity: Bool { self == .identity }

    /// (tx, ty) when this map only shifts by whole pixels. Within a billionth: at a
    /// fractional output scale a buffer drawn at that scale maps 1:1 through factors such
    /// as 1.5 × 100/150, which doubles leave a rounding error away from 1.
    public var integerTranslation: (x: Int32, y: Int32)? {
        guard Self.isWhole(a, 1), abs(b) < Self.tolerance, abs(c) < Self.tolerance, Self.isWhole(d, 1),
              abs(tx) < 1e9, abs(ty) < 1e9, Self.isWhole(tx), Self.isWhole(ty) else { return nil }
        return (Int32(tx.rounded()), Int32(ty.rounded()))
    }

    /// Whether the map's scale factors are whole numbers (nearest-pixel sampling is exact).
    public var hasIntegralScale: Bool { Self.isWhole(a) && Self.isWhole(d) }

    static let tolerance = 1e-9
    /// `v` within the tolerance of a whole number (of `expected`, when given).
    static func isWhole(_ v: Double, _ expected: Double? = nil) -> Bool {
        let r = v.rounded()
        return abs(v - r) < tolerance * max(1, abs(v)) && (expected.map { r == $0 } ?? true)
    }

    var pixman: pixman_transform_t {
        func f(_ v: Double) -> pixman_fixed_t { pixman_fixed_t(clamping: Int64((v * 65536).rounded())) }
        var t = pixman_transform_t()
        t.matrix.0 = (f(a), f(c), f(tx))
        t.matrix.1 = (f(b), f(d), f(ty))
        t.matrix.2 = (0, 0, f(1))
        return t
    }
}
