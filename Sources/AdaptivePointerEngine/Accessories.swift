/// A small glyph shown beside the pointer to say what the element does (HIG "Pointer accessories").
public enum AccessoryShape: Hashable, Sendable {
    case arrow
    case plus
    case minus
    case circleSlash
    case checkmark
    /// Centred on the origin, pointing up (towards −y) like the built-ins.
    case path(Path<PointerLocal>)

    /// A fillable outline of the glyph, centred on the origin, `size` across, pointing up.
    /// Built on demand by the renderer (it allocates; never called on the frame path).
    public func outline(size s: Double) -> Path<PointerLocal> {
        typealias P = Point<PointerLocal>
        let h = s / 2, t = s / 5
        switch self {
        case .arrow:
            return Path([.move(to: P(x: 0, y: -h)), .line(to: P(x: h, y: h * 0.4)),
                         .line(to: P(x: -h, y: h * 0.4)), .close])
        case .minus:
            return .rect(Rect(x: -h, y: -t / 2, width: s, height: t))
        case .plus:
            var p = Path<PointerLocal>.rect(Rect(x: -h, y: -t / 2, width: s, height: t))
            for e in Path<PointerLocal>.rect(Rect(x: -t / 2, y: -h, width: t, height: s)).elements {
                appendElement(e, to: &p)
            }
            return p
        case .checkmark:
            return Path([.move(to: P(x: -h, y: 0)), .line(to: P(x: -h + t, y: -t)),
                         .line(to: P(x: -h * 0.3, y: h * 0.3)), .line(to: P(x: h - t, y: -h)),
                         .line(to: P(x: h, y: -h + t)), .line(to: P(x: -h * 0.3, y: h)), .close])
        case .circleSlash:
            // Ring (outer and inner circle, filled even-odd) plus a diagonal bar.
            var p = Path<PointerLocal>()
            for r in [h, h - t] { addCircle(radius: r, to: &p) }
            let d = t / 2 * 0.7071067811865476, e = h * 0.7071067811865476
            p.move(to: P(x: -e - d, y: -e + d)); p.addLine(to: P(x: -e + d, y: -e - d))
            p.addLine(to: P(x: e + d, y: e - d)); p.addLine(to: P(x: e - d, y: e + d)); p.close()
            return p
        case .path(let path):
            return path
        }
    }

    private func appendElement(_ e: PathElement<PointerLocal>, to p: inout Path<PointerLocal>) {
        switch e {
        case .move(let q): p.move(to: q)
        case .line(let q): p.addLine(to: q)
        case .quad(let c, let q): p.addQuadCurve(to: q, control: c)
        case .cubic(let c1, let c2, let q): p.addCurve(to: q, control1: c1, control2: c2)
        case .close: p.close()
        }
    }

    private func addCircle(radius r: Double, to p: inout Path<PointerLocal>) {
        typealias P = Point<PointerLocal>
        let k = 0.5522847498 * r // cubic approximation of a quarter circle
        p.move(to: P(x: 0, y: -r))
        p.addCurve(to: P(x: r, y: 0), control1: P(x: k, y: -r), control2: P(x: r, y: -k))
        p.addCurve(to: P(x: 0, y: r), control1: P(x: r, y: k), control2: P(x: k, y: r))
        p.addCurve(to: P(x: -r, y: 0), control1: P(x: -k, y: r), control2: P(x: -r, y: k))
        p.addCurve(to: P(x: 0, y: -r), control1: P(x: -r, y: -k), control2: P(x: -k, y: -r))
        p.close()
    }
}

/// Where an accessory sits: `angle` radians clockwise from the top of the pointer, `offset`
/// points beyond the pointer's edge.
public struct AccessoryPosition: Hashable, Sendable {
    public var angle: Double
    public var offset: Double

    public init(angle: Double, offset: Double = 0) {
        self.angle = angle
        self.offset = offset
    }

    public init(degrees: Double, offset: Double = 0) {
        self.init(angle: degrees * Double.pi / 180, offset: offset)
    }

    public static let top = AccessoryPosition(angle: 0)
    public static let right = AccessoryPosition(angle: Double.pi / 2)
    public static let bottom = AccessoryPosition(angle: Double.pi)
    public static let left = AccessoryPosition(angle: -Double.pi / 2)
}

/// One accessory of a style.
public struct PointerAccessory: Hashable, Sendable {
    public var shape: AccessoryShape
    public var position: AccessoryPosition
    /// Turns with the direction the pointer travels (e.g. a trail marker).
    public var rotatesWithMotion: Bool
    /// The glyph stays upright wherever it sits (a plus at 45° stays a plus); otherwise it is
    /// turned by its angle, so an arrow points away from the pointer.
    public var upright: Bool

    public init(_ shape: AccessoryShape, position: AccessoryPosition, rotatesWithMotion: Bool = false,
                upright: Bool = false) {
        self.shape = shape
        self.position = position
        self.rotatesWithMotion = rotatesWithMotion
        self.upright = upright
    }
}

/// Why an accessory set was refused; the protocol layer reports these to the client.
public enum AccessoryError: Error, Hashable, Sendable {
    case tooMany(count: Int, maximum: Int)
    case invalidPath(index: Int, PathError)
    case nonFinitePosition(index: Int)
}

/// Up to four accessories, stored inline so a style (and a presentation) never allocates for
/// them. Only the throwing initialiser builds one, so an over-full set cannot exist.
public struct AccessorySet: Hashable, Sendable, RandomAccessCollection {
    public static let maximumCount = 4

    private var a0, a1, a2, a3: PointerAccessory?
    public private(set) var count: Int

    public static let empty = AccessorySet()

    private init() { count = 0 }

    public init(_ accessories: [PointerAccessory]) throws(AccessoryError) {
        guard accessories.count <= Self.maximumCount else {
            throw .tooMany(count: accessories.count, maximum: Self.maximumCount)
        }
        self.init()
        for (i, a) in accessories.enumerated() {
            guard a.position.angle.isFinite, a.position.offset.isFinite else { throw .nonFinitePosition(index: i) }
            if case .path(let p) = a.shape {
                do { try p.validate() } catch { throw .invalidPath(index: i, error) }
            }
            switch i {
            case 0: a0 = a
            case 1: a1 = a
            case 2: a2 = a
            default: a3 = a
            }
        }
        count = accessories.count
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    public subscript(i: Int) -> PointerAccessory {
        precondition(i >= 0 && i < count, "accessory index out of range")
        switch i {
        case 0: return a0!
        case 1: return a1!
        case 2: return a2!
        default: return a3!
        }
    }
}
