/// The few transcendental functions the engine needs, in pure Swift: the engine imports no C
/// module (not even libm), and a fixed polynomial gives bit-identical results everywhere,
/// which keeps presentations reproducible. Accuracy is within a few ulps for the argument
/// ranges the engine uses (spring phases, headings).
public enum Math {
    private static let ln2Hi = 6.93147180369123816490e-01
    private static let ln2Lo = 1.90821492927058770002e-10

    /// eˣ by reduction to x = k·ln2 + r, |r| ≤ ln2/2, and a degree-13 Taylor polynomial.
    public static func exp(_ x: Double) -> Double {
        if x.isNaN { return x }
        if x > 709.78 { return .infinity }
        if x < -745 { return 0 }
        let k = (x * 1.4426950408889634).rounded()
        let r = (x - k * ln2Hi) - k * ln2Lo
        var p = 1.0 / 6227020800.0             // 1/13!
        p = p * r + 1.0 / 479001600.0           // 1/12!
        p = p * r + 1.0 / 39916800.0
        p = p * r + 1.0 / 3628800.0
        p = p * r + 1.0 / 362880.0
        p = p * r + 1.0 / 40320.0
        p = p * r + 1.0 / 5040.0
        p = p * r + 1.0 / 720.0
        p = p * r + 1.0 / 120.0
        p = p * r + 1.0 / 24.0
        p = p * r + 1.0 / 6.0
        p = p * r + 0.5
        p = p * r + 1.0
        p = p * r + 1.0
        let e = Int(k)
        if e < -1020 { // split the scaling so subnormal results stay correct
            return Double(sign: .plus, exponent: e + 60, significand: p) * 0x1p-60
        }
        return Double(sign: .plus, exponent: e, significand: p)
    }

    /// Reduction of x to r in [-π/4, π/4] with x = q·π/2 + r (three-part π/2, fdlibm constants).
    @inline(__always)
    private static func reduce(_ x: Double) -> (r: Double, quadrant: Int) {
        let q = (x * 0.63661977236758134308).rounded()
        let r = ((x - q * 1.57079632673412561417e+00) - q * 6.07710050630396597660e-11)
            - q * 2.02226624871116645580e-21
        return (r, Int(q) & 3)
    }

    @inline(__always)
    private static func sinKernel(_ r: Double) -> Double {
        let r2 = r * r
        var p = -1.0 / 121645100408832000.0    // -1/19!
        p = p * r2 + 1.0 / 355687428096000.0
        p = p * r2 - 1.0 / 1307674368000.0
        p = p * r2 + 1.0 / 6227020800.0
        p = p * r2 - 1.0 / 39916800.0
        p = p * r2 + 1.0 / 362880.0
        p = p * r2 - 1.0 / 5040.0
        p = p * r2 + 1.0 / 120.0
        p = p * r2 - 1.0 / 6.0
        return r + r * r2 * p
    }

    @inline(__always)
    private static func cosKernel(_ r: Double) -> Double {
        let r2 = r * r
        var p = 1.0 / 6402373705728000.0       // 1/18!
        p = p * r2 - 1.0 / 20922789888000.0
        p = p * r2 + 1.0 / 87178291200.0
        p = p * r2 - 1.0 / 479001600.0
        p = p * r2 + 1.0 / 3628800.0
        p = p * r2 - 1.0 / 40320.0
        p = p * r2 + 1.0 / 720.0
        p = p * r2 - 1.0 / 24.0
        p = p * r2 + 0.5
        return 1 - r2 * p
    }

    public static func sin(_ x: Double) -> Double {
        guard x.isFinite else { return .nan }
        let (r, q) = reduce(x)
        switch q {
        case 0: return sinKernel(r)
        case 1: return cosKernel(r)
        case 2: return -sinKernel(r)
        default: return -cosKernel(r)
        }
    }

    public static func cos(_ x: Double) -> Double {
        guard x.isFinite else { return .nan }
        let (r, q) = reduce(x)
        switch q {
        case 0: return cosKernel(r)
        case 1: return -sinKernel(r)
        case 2: return -cosKernel(r)
        default: return sinKernel(r)
        }
    }

    /// atan for any x: reduced to |x| ≤ tan(π/12) and a degree-23 odd Taylor polynomial.
    public static func atan(_ x: Double) -> Double {
        if x.isNaN { return x }
        if x < 0 { return -atan(-x) }
        if x > 1 { return Double.pi / 2 - atan(1 / x) }
        let sqrt3 = 1.7320508075688772
        var offset = 0.0
        var t = x
        if t > 0.2679491924311227 { // tan(π/12)
            t = (t * sqrt3 - 1) / (t + sqrt3)
            offset = Double.pi / 6
        }
        let t2 = t * t
        // atan t = t·Σ (-1)ᵏ t²ᵏ/(2k+1), k = 0…11, by Horner from the highest term.
        var p = -1.0 / 23.0
        var k = 10
        while k >= 0 {
            p = (k % 2 == 0 ? 1.0 : -1.0) / Double(2 * k + 1) + p * t2
            k -= 1
        }
        return offset + t * p
    }

    /// The angle of (x, y) from the positive x axis, in (-π, π].
    public static func atan2(_ y: Double, _ x: Double) -> Double {
        if x > 0 { return atan(y / x) }
        if x < 0 { return y >= 0 ? atan(y / x) + Double.pi : atan(y / x) - Double.pi }
        if y > 0 { return Double.pi / 2 }
        if y < 0 { return -Double.pi / 2 }
        return 0
    }
}
