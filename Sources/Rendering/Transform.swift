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

    /// (tx, ty) when this map only shifts by whole pixels.
    public var integerTranslation: (x: Int32, y: Int32)? {
        guard a == 1, b == 0, c == 0, d == 1, tx.rounded() == tx, ty.rounded() == ty,
              abs(tx) < 1e9, abs(ty) < 1e9 else { return nil }
        return (Int32(tx), Int32(ty))
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
