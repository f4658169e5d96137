/// Where a surface sits in global space: the only bridge between `SurfaceLocal` and `Global`.
/// The engine keeps region frames in global coordinates so hit testing needs no per-surface
/// transform; the compositor converts with this when a client commits regions or a surface
/// moves, and converts back when it reports band rectangles to the client.
public struct SurfacePlacement: Hashable, Sendable {
    /// The surface's top-left corner in global space.
    public var origin: Point<Global>
    /// Global points per surface-local point (1 unless the surface is scaled, e.g. viewporter).
    public var scale: Double

    public init(origin: Point<Global>, scale: Double = 1) {
        self.origin = origin
        self.scale = scale
    }

    public func toGlobal(_ p: Point<SurfaceLocal>) -> Point<Global> {
        Point(x: origin.x + p.x * scale, y: origin.y + p.y * scale)
    }

    public func toGlobal(_ r: Rect<SurfaceLocal>) -> Rect<Global> {
        Rect(origin: toGlobal(r.origin), size: Size(width: r.width * scale, height: r.height * scale))
    }

    public func toLocal(_ p: Point<Global>) -> Point<SurfaceLocal> {
        Point(x: (p.x - origin.x) / scale, y: (p.y - origin.y) / scale)
    }

    public func toLocal(_ r: Rect<Global>) -> Rect<SurfaceLocal> {
        Rect(origin: toLocal(r.origin), size: Size(width: r.width / scale, height: r.height / scale))
    }

    /// A region described in surface-local terms, placed in global space: frame and explicit
    /// hit rectangle are mapped; paddings and radii scale with the surface.
    public func toGlobal(_ region: LocalRegion) -> Region {
        var global = region.region
        global.frame = toGlobal(region.frame)
        switch region.hitArea {
        case .bezelled, .bezelless: global.hitArea = region.hitArea
        case .padding(let p): global.hitArea = .padding(p * scale)
        case .explicit: global.hitArea = .explicit(toGlobal(region.localHitRect ?? region.frame))
        }
        global.cornerRadius = region.region.cornerRadius * scale
        return global
    }
}

/// A region as a client describes it: frame (and explicit hit rectangle) in surface-local space.
/// Everything else is carried in `region` and copied over by `SurfacePlacement.toGlobal(_:)`.
public struct LocalRegion: Sendable {
    public var region: Region
    public var frame: Rect<SurfaceLocal>
    public var hitArea: HitArea
    /// Used when `hitArea` is `.explicit`; the `.explicit` payload itself is ignored.
    public var localHitRect: Rect<SurfaceLocal>?

    public init(region: Region, frame: Rect<SurfaceLocal>, hitArea: HitArea = .bezelled,
                localHitRect: Rect<SurfaceLocal>? = nil) {
        self.region = region
        self.frame = frame
        self.hitArea = hitArea
        self.localHitRect = localHitRect
    }
}
