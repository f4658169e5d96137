/// The compositor's stable handle for a region (unique within one engine).
public struct RegionID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var rawValue: UInt64
    public init(_ rawValue: UInt64) { self.rawValue = rawValue }
    public static func < (a: RegionID, b: RegionID) -> Bool { a.rawValue < b.rawValue }
    public var description: String { "region#\(rawValue)" }
}

/// An opaque surface id chosen by the compositor, so a client's regions can go all at once.
public struct SurfaceID: Hashable, Sendable {
    public var rawValue: UInt64
    public init(_ rawValue: UInt64) { self.rawValue = rawValue }
}

/// How far around the frame the pointer is captured (HIG: about 12 points of padding for a
/// bezelled element, 24 without a bezel).
public enum HitArea: Hashable, Sendable {
    case bezelled
    case bezelless
    case padding(Double)
    case explicit(Rect<Global>)
}

/// Why a region was refused. The protocol layer names these in its protocol error.
public enum RegionError: Error, Hashable, Sendable {
    case nonFiniteGeometry
    case negativeSize
    case negativeCornerRadius
    case negativePadding
    case invalidBeamLength
    case annotationTooLong(length: Int, maximum: Int)
    case invalidPath(PathError)
    case accessories(AccessoryError)
    /// The drawing tool's diameter; the string says why (see `DrawingTool.problem`).
    case invalidDrawingTool(String)
}

/// One interactive element as the engine sees it. Frames are global; see `SurfacePlacement`
/// for the conversion from the surface-local coordinates clients use.
public struct Region: Hashable, Sendable {
    /// Annotations are a few words (HIG: "x/y of a graph"), never instructions.
    public static let maximumAnnotationLength = 64
    /// Default corner radius of lift/highlight when the client gives none.
    public static let defaultCornerRadius = 8.0

    public var id: RegionID
    public var owner: SurfaceID
    /// The client's own identifier, echoed in entered/left and band events.
    public var identifier: UInt32
    /// The element's visible rectangle.
    public var frame: Rect<Global>
    public var hitArea: HitArea
    public var cornerRadius: Double
    /// Higher wins among overlapping regions.
    public var stackingOrder: Int32
    public var style: PointerStyle
    /// Decides lift versus highlight under `PointerEffect.automatic`.
    public var background: ElementBackground
    public var magnetism: MagnetismMode
    /// While the button is held after a click, the region stays engaged along these axes.
    public var latchingAxes: Axes
    /// The pointer stays centred on the region along these axes (recentering).
    public var constrainedAxes: Axes
    /// Short text shown beside the pointer while over the region.
    public var annotation: String?
    /// A drag starting here becomes a band (rubber-band) selection.
    public var bandSelection: Bool
    /// A drawing surface: the hover preview and the pointer show this tool. Such a region
    /// never attracts the pointer and has no content effect (the stroke lands exactly under
    /// the pointer), whatever its effect and magnetism say.
    public var drawingTool: DrawingTool?
    /// Its owner has yet to confirm it is still there (an app's accessibility geometry, which
    /// may be stale): the pointer targets it, so the owner learns what to confirm, but keeps
    /// its untargeted form, unpulled, until the region comes back confirmed.
    public var awaitsConfirmation = false

    public init(id: RegionID, owner: SurfaceID, identifier: UInt32 = 0, frame: Rect<Global>,
                hitArea: HitArea = .bezelled, cornerRadius: Double = Region.defaultCornerRadius,
                stackingOrder: Int32 = 0, style: PointerStyle = PointerStyle(),
                background: ElementBackground = .transparent, magnetism: MagnetismMode = .automatic,
                latchingAxes: Axes = [], constrainedAxes: Axes = [], annotation: String? = nil,
                bandSelection: Bool = false, drawingTool: DrawingTool? = nil) {
        self.id = id
        self.owner = owner
        self.identifier = identifier
        self.frame = frame
        self.hitArea = hitArea
        self.cornerRadius = cornerRadius
        self.stackingOrder = stackingOrder
        self.style = style
        self.background = background
        self.magnetism = magnetism
        self.latchingAxes = latchingAxes
        self.constrainedAxes = constrainedAxes
        self.annotation = annotation
        self.bandSelection = bandSelection
        self.drawingTool = drawingTool
    }

    /// The effect after `automatic` is decided; none for a drawing region.
    func resolvedEffect(largeElementSide: Double) -> ResolvedEffect {
        drawingTool != nil ? .none
            : style.resolvedEffect(frame: frame, background: background, largeElementSide: largeElementSide)
    }

    /// The padding for `hitArea`, or nil for an explicit rectangle.
    public func padding(bezelled: Double = 12, bezelless: Double = 24) -> Double? {
        switch hitArea {
        case .bezelled: return bezelled
        case .bezelless: return bezelless
        case .padding(let p): return p
        case .explicit: return nil
        }
    }

    /// Where the pointer is captured: the frame plus padding, or the explicit rectangle.
    public var hitRect: Rect<Global> {
        switch hitArea {
        case .explicit(let r): return r
        default: return frame.outset(by: padding() ?? 0)
        }
    }

    /// Everything the engine and renderer rely on. `RegionStore.upsert` calls this, so a
    /// malformed region never reaches the spatial index.
    public func validate() throws(RegionError) {
        guard frame.isFinite, cornerRadius.isFinite else { throw .nonFiniteGeometry }
        guard frame.width >= 0, frame.height >= 0 else { throw .negativeSize }
        guard cornerRadius >= 0 else { throw .negativeCornerRadius }
        switch hitArea {
        case .padding(let p):
            guard p.isFinite else { throw .nonFiniteGeometry }
            guard p >= 0 else { throw .negativePadding }
        case .explicit(let r):
            guard r.isFinite else { throw .nonFiniteGeometry }
            guard r.width >= 0, r.height >= 0 else { throw .negativeSize }
        case .bezelled, .bezelless: break
        }
        switch style.shape {
        case .verticalBeam(let l), .horizontalBeam(let l):
            guard l.isFinite, l > 0 else { throw .invalidBeamLength }
        case .roundedRect(let r):
            guard r.isFinite else { throw .nonFiniteGeometry }
            guard r >= 0 else { throw .negativeCornerRadius }
        case .path(let p):
            do { try p.validate() } catch { throw .invalidPath(error) }
        case .effectDefault, .circle, .hidden: break
        }
        if let text = annotation, text.count > Self.maximumAnnotationLength {
            throw .annotationTooLong(length: text.count, maximum: Self.maximumAnnotationLength)
        }
        if let tool = drawingTool, let problem = DrawingTool.problem(diameter: tool.diameter) {
            throw .invalidDrawingTool(problem)
        }
        // AccessorySet can only be built valid; re-check the count in case of future changes.
        if style.accessories.count > AccessorySet.maximumCount {
            throw .accessories(.tooMany(count: style.accessories.count, maximum: AccessorySet.maximumCount))
        }
    }
}
