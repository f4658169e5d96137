/// One drawing command of a `Path`.
public enum PathElement<Space: CoordinateSpace>: Hashable, Sendable {
    case move(to: Point<Space>)
    case line(to: Point<Space>)
    case quad(control: Point<Space>, to: Point<Space>)
    case cubic(control1: Point<Space>, control2: Point<Space>, to: Point<Space>)
    case close

    /// Every point the element names, control points included (bounds are computed from these).
    @inlinable func forEachPoint(_ body: (Point<Space>) -> Void) {
        switch self {
        case .move(let p), .line(let p): body(p)
        case .quad(let c, let p): body(c); body(p)
        case .cubic(let c1, let c2, let p): body(c1); body(c2); body(p)
        case .close: break
        }
    }
}

/// Why a path was refused. The protocol layer turns these into a "malformed path" error.
public enum PathError: Error, Hashable, Sendable {
    case empty
    /// The first element must be a `move`, so every segment has a start point.
    case missingInitialMove
    case nonFinitePoint(elementIndex: Int)
    case tooManyElements(count: Int, maximum: Int)
}

/// A vector outline for custom pointer shapes and accessories (move/line/quad/cubic/close).
/// Value type; copying shares storage, so a presentation carrying a path does not allocate.
public struct Path<Space: CoordinateSpace>: Hashable, Sendable {
    /// Keeps a hostile client from making the renderer walk an unbounded outline.
    public static var maximumElementCount: Int { 1024 }

    public private(set) var elements: [PathElement<Space>]

    public init() { elements = [] }

    public init(_ elements: [PathElement<Space>]) { self.elements = elements }

    public var isEmpty: Bool { elements.isEmpty }

    public mutating func move(to p: Point<Space>) { elements.append(.move(to: p)) }
    public mutating func addLine(to p: Point<Space>) { elements.append(.line(to: p)) }
    public mutating func addQuadCurve(to p: Point<Space>, control c: Point<Space>) {
        elements.append(.quad(control: c, to: p))
    }
    public mutating func addCurve(to p: Point<Space>, control1 c1: Point<Space>, control2 c2: Point<Space>) {
        elements.append(.cubic(control1: c1, control2: c2, to: p))
    }
    public mutating func close() { elements.append(.close) }

    /// A rectangle outline (handy for tests and simple custom shapes).
    public static func rect(_ r: Rect<Space>) -> Path {
        Path([.move(to: r.origin), .line(to: Point(x: r.maxX, y: r.minY)),
              .line(to: Point(x: r.maxX, y: r.maxY)), .line(to: Point(x: r.minX, y: r.maxY)), .close])
    }

    /// Control-point bounds: never smaller than the drawn curve (a Bézier lies in the hull of
    /// its control points), which is what damage tracking needs.
    public var bounds: Rect<Space> {
        var minX = Double.infinity, minY = Double.infinity
        var maxX = -Double.infinity, maxY = -Double.infinity
        for element in elements {
            element.forEachPoint { p in
                minX = Swift.min(minX, p.x); maxX = Swift.max(maxX, p.x)
                minY = Swift.min(minY, p.y); maxY = Swift.max(maxY, p.y)
            }
        }
        guard minX <= maxX, minY <= maxY else { return .zero }
        return Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    /// Checks what the renderer relies on: non-empty, starts with a move, finite, bounded.
    public func validate() throws(PathError) {
        guard let first = elements.first else { throw .empty }
        guard case .move = first else { throw .missingInitialMove }
        guard elements.count <= Self.maximumElementCount else {
            throw .tooManyElements(count: elements.count, maximum: Self.maximumElementCount)
        }
        for (index, element) in elements.enumerated() {
            var finite = true
            element.forEachPoint { if !$0.isFinite { finite = false } }
            if !finite { throw .nonFinitePoint(elementIndex: index) }
        }
    }

    /// The same outline with every point mapped, e.g. into another space.
    public func mapPoints<Other>(_ transform: (Point<Space>) -> Point<Other>) -> Path<Other> {
        Path<Other>(elements.map { element -> PathElement<Other> in
            switch element {
            case .move(let p): return .move(to: transform(p))
            case .line(let p): return .line(to: transform(p))
            case .quad(let c, let p): return .quad(control: transform(c), to: transform(p))
            case .cubic(let c1, let c2, let p):
                return .cubic(control1: transform(c1), control2: transform(c2), to: transform(p))
            case .close: return .close
            }
        })
    }

    /// Scaled about the origin (pointer-local paths scale with the accessibility size).
    public func scaled(by s: Double) -> Path {
        mapPoints { Point(x: $0.x * s, y: $0.y * s) }
    }
}
