/// The pointer itself for one frame.
public struct PointerGeometry: Hashable, Sendable {
    /// The outline before `scale`; circle, beam, platter and band are all rounded rects.
    public var shape: RoundedRect<Global>
    /// Pressed scale (0.9) and similar, about `shape`'s centre.
    public var scale: Double
    /// Final opacity of the rounded-rect pointer (visibility, lift fade and cross-fades included).
    public var alpha: Double
    public var color: PointerColor
    public var border: PointerBorder?
    /// A custom shape drawn around `shape.center`, scaled by `scale`, at `pathAlpha`.
    public var customPath: Path<PointerLocal>?
    public var pathAlpha: Double
    /// Highlight and lift: draw the pointer below the element's pixels, not above.
    public var drawsBeneathContent: Bool
    /// The arrow style's arrow (`PointerArrow`): its opacity, where its tip is (the device
    /// position, 1:1) and its size multiplier. It is scaled by `scale` about the tip, drawn
    /// in `color` with a contrasting rim (`border`, when set), always over the content.
    public var arrowAlpha: Double = 0
    public var arrowTip = Point<Global>(x: 0, y: 0)
    public var arrowSize = 1.0

    /// The width of the arrow's contrasting rim, points (outside its outline); a wider border
    /// replaces it.
    public static let arrowRimWidth = 1.0

    /// The arrow's outline as drawn (scaled, at its tip), without the rim.
    public var arrowBounds: Rect<Global> {
        let b = PointerArrow.unitBounds, s = arrowSize * scale
        return Rect(x: arrowTip.x + b.minX * s, y: arrowTip.y + b.minY * s, width: b.width * s, height: b.height * s)
    }

    /// Everything the pointer paints (border and antialiasing included).
    public var bounds: Rect<Global> {
        var b = shape.scaled(by: scale).bounds.outset(by: (border?.width ?? 0) + 1)
        if arrowAlpha > 0 { b = b.union(arrowBounds.outset(by: max(Self.arrowRimWidth, border?.width ?? 0) * scale + 1)) }
        if let path = customPath {
            let pb = path.bounds
            let c = shape.center
            b = b.union(Rect(x: c.x + pb.minX * scale, y: c.y + pb.minY * scale,
                             width: pb.width * scale, height: pb.height * scale).outset(by: 1))
        }
        return b
    }
}

public struct ShadowEffect: Hashable, Sendable {
    public var opacity: Double
    public var radius: Double
    public var offset: Vector<Global>
}

public struct SpecularEffect: Hashable, Sendable {
    public var center: Point<Global>
    public var radius: Double
    /// About 0.05–0.08, highest with the pointer near the element's centre.
    public var opacity: Double
}

public struct TintEffect: Hashable, Sendable {
    public var mode: HoverTint
    public var opacity: Double
}

/// What happens to the targeted element's pixels (or its preview surface).
public struct ContentEffect: Hashable, Sendable {
    public var region: RegionID
    public var identifier: UInt32
    public var kind: ResolvedEffect
    /// 0 → no effect, 1 → fully applied; everything below is already multiplied by it.
    public var progress: Double
    /// The element's own frame, untransformed.
    public var frame: Rect<Global>
    /// Uniform scale about the frame's centre (lift: +7.6 points, hover: +6).
    public var scale: Double
    /// Slip: the element follows the pointer a little (≈0.1 of the offset, at most 15).
    public var translation: Vector<Global>
    public var shadow: ShadowEffect?
    public var specular: SpecularEffect?
    public var tint: TintEffect?
    /// Highlight: the platter drawn under the element (it equals the pointer's shape).
    public var platter: RoundedRect<Global>?
    /// 0 → released, 1 → the button is held on the element. Lift shows it by shrinking
    /// slightly (already in `scale`); a highlight's platter is the pointer, whose own pressed
    /// scale shows it.
    public var pressProgress: Double = 0
    /// The element's corner radius (the region's), before `scale`: lift and hover mask, clip,
    /// tint and shadow with it, so a round element lifts round.
    public var cornerRadius = Region.defaultCornerRadius

    /// The element as drawn: frame scaled and translated.
    public var transformedFrame: Rect<Global> {
        Rect(center: frame.center + translation, width: frame.width * scale, height: frame.height * scale)
    }

    /// Everything the effect may paint, for damage.
    public var bounds: Rect<Global> {
        var b = transformedFrame.union(frame)
        if let s = shadow { b = b.union(transformedFrame.offset(by: s.offset).outset(by: s.radius)) }
        if let p = platter { b = b.union(p.bounds) }
        return b.outset(by: 1)
    }
}

/// One accessory for one frame.
public struct AccessoryPresentation: Hashable, Sendable {
    public var shape: AccessoryShape
    /// The shape being cross-faded out while `shape` fades in (accessory set changes).
    public var previousShape: AccessoryShape?
    /// 1 shows only `shape`, 0 only `previousShape`.
    public var morphProgress: Double
    public var center: Point<Global>
    /// Radians clockwise; glyphs are drawn pointing up, then rotated (0 for an upright one).
    public var rotation: Double
    /// Nominal glyph size (≈11 points, times the size multiplier) before `scale`.
    public var size: Double
    public var scale: Double
    public var alpha: Double

    public var bounds: Rect<Global> {
        Rect(center: center, width: size * scale, height: size * scale).outset(by: size * 0.25 + 1)
    }
}

/// At most four accessories, inline, so building a presentation never allocates.
public struct AccessoryList: Hashable, Sendable, RandomAccessCollection {
    private var a0, a1, a2, a3: AccessoryPresentation?
    public private(set) var count = 0

    public init() {}

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    public subscript(i: Int) -> AccessoryPresentation {
        precondition(i >= 0 && i < count, "accessory index out of range")
        switch i {
        case 0: return a0!
        case 1: return a1!
        case 2: return a2!
        default: return a3!
        }
    }

    mutating func append(_ a: AccessoryPresentation) {
        switch count {
        case 0: a0 = a
        case 1: a1 = a
        case 2: a2 = a
        case 3: a3 = a
        default: return
        }
        count += 1
    }
}

/// A short text beside the pointer.
public struct AnnotationPresentation: Hashable, Sendable {
    public var text: String
    /// The corner of the box nearest the pointer.
    public var anchor: Point<Global>
    /// An estimated box (characters × `annotationCharacterWidth`), kept on the output.
    public var frame: Rect<Global>
    public var alpha: Double
}

/// Everything the renderer needs for one frame, in global coordinates. Same inputs and same
/// instants give equal presentations.
public struct PointerPresentation: Hashable, Sendable {
    public var time: Instant
    /// What clients receive (after magnetism); always on the output.
    public var logicalPosition: Point<Global>
    /// The device position before magnetism.
    public var devicePosition: Point<Global>
    public var pointer: PointerGeometry
    /// The region the pointer is engaged with, if any.
    public var targetRegion: RegionID?
    public var contentEffect: ContentEffect?
    /// The previous target's effect while it winds down.
    public var exitingContentEffect: ContentEffect?
    public var accessories: AccessoryList
    public var annotation: AnnotationPresentation?
    /// The selection rectangle during band selection (the pointer has become it).
    public var bandRect: Rect<Global>?
    /// Whether the pointer is meant to be shown (auto-hide, typing, lock); `pointer.alpha`
    /// carries the animated fade.
    public var isVisible: Bool
    public var isLocked: Bool
    /// Call `step` again next frame while true.
    public var isAnimating: Bool
    /// Everything painted this frame.
    public var bounds: Rect<Global>
    /// To repaint: this frame's bounds united with the previous frame's.
    public var damage: Rect<Global>
    /// The Pencil hover preview while a tablet tool hovers in proximity.
    public var hoverMark: HoverMark? = nil
}
