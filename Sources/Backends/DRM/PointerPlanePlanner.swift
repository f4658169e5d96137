import AdaptivePointerEngine

/// Whether the adaptive pointer can go on the DRM cursor plane this frame, where, and whether
/// its image must be drawn and uploaded again. Pure values in, a decision out: the DRM calls
/// (`DRMPointerPlane`) only carry it out, so this part is unit-tested without a GPU.
///
/// The plane shows the pointer when it is all that shows: the plain circle (or any rounded
/// rect the pointer has become on its own, such as a beam or a drawing tool's ringed circle)
/// with no content effect, band, accessory, annotation, hover preview or custom outline, and
/// small enough for the plane with its antialiasing margin. Anything else is composed into
/// the frame, as is everything after the driver once refused the plane.
public struct PointerPlanePlanner: Sendable {
    /// The plane's size in pixels (`DRM_CAP_CURSOR_WIDTH`/`HEIGHT`; 64 when the driver does not say).
    public let width: Int32, height: Int32
    /// Output pixels per logical point.
    public let scale: Int32
    /// The image last uploaded, so an unchanged pointer is only moved.
    private(set) var uploaded: CursorImageKey?
    /// The driver refused `drmModeSetCursor2` once: the pointer is composed from then on.
    private(set) var refused = false

    public init(width: Int32 = 64, height: Int32 = 64, scale: Int32 = 1) {
        self.width = width > 0 ? width : 64
        self.height = height > 0 ? height : 64
        self.scale = max(1, scale)
    }

    /// Why the pointer is composed into the frame instead.
    public enum Reason: Equatable, Sendable {
        /// A client's own cursor image shows (the plane could take it too; not done yet).
        case clientCursor
        case contentEffect, band, accessories, annotation, hoverPreview, customOutline
        /// Highlight and lift draw the pointer beneath the element's pixels.
        case beneathContent
        /// The pointer (with its margin) is larger than the plane.
        case tooLarge
        /// The driver said no once.
        case refused
        /// The circle and the arrow both show (a style change fading one into the other).
        case crossFade
    }

    /// What one frame does with the plane.
    public enum Decision: Equatable, Sendable {
        /// The pointer is on the plane: its image's top-left goes at (x, y) in output pixels
        /// (`drmModeMoveCursor`), the hotspot is the image's centre (`drmModeSetCursor2`), and
        /// `upload` says the image changed and must be drawn and set again.
        case plane(x: Int32, y: Int32, hotspotX: Int32, hotspotY: Int32, upload: Bool)
        /// Nothing to show (hidden, faded out): the plane is off and the frame draws nothing either.
        case off
        /// The frame draws the pointer; the plane is off.
        case composite(Reason)
    }

    /// What the plane's image depends on: when this changes, the image is drawn again.
    /// Sizes in 1/4 pixels and opacity in 1/64 steps: finer changes are invisible, and a
    /// settled pointer never uploads.
    struct CursorImageKey: Hashable, Sendable {
        var width, height, radius: Int
        var color: UInt32
        var alpha: Int
        var borderWidth: Int
        var borderColor: UInt32
        var arrowAlpha: Int
        var arrowSize: Int
    }

    /// The decision for `p` (`adaptive`: the compositor draws the adaptive pointer, not a
    /// client's cursor). Remembers what it uploaded.
    public mutating func plan(_ p: PointerPresentation, adaptive: Bool) -> Decision {
        let decision = Self.decide(p, adaptive: adaptive, refused: refused, width: width, height: height, scale: scale)
        guard case .plane(let x, let y, let hx, let hy, _) = decision else {
            uploaded = nil   // the plane is off: the next time it is used, upload again
            return decision
        }
        let key = Self.key(p.pointer, scale: scale)
        let upload = key != uploaded
        uploaded = key
        return .plane(x: x, y: y, hotspotX: hx, hotspotY: hy, upload: upload)
    }

    /// `drmModeSetCursor2` failed: compose from now on.
    public mutating func driverRefused() {
        refused = true
        uploaded = nil
    }

    static func decide(_ p: PointerPresentation, adaptive: Bool, refused: Bool,
                       width: Int32, height: Int32, scale: Int32) -> Decision {
        guard adaptive else { return .composite(.clientCursor) }
        guard !refused else { return .composite(.refused) }
        let g = p.pointer
        if p.contentEffect != nil || p.exitingContentEffect != nil { return .composite(.contentEffect) }
        if p.bandRect != nil { return .composite(.band) }
        if !p.accessories.isEmpty { return .composite(.accessories) }
        if let a = p.annotation, a.alpha > 0.001 { return .composite(.annotation) }
        if p.hoverMark != nil { return .composite(.hoverPreview) }
        if g.customPath != nil && g.pathAlpha > 0.001 { return .composite(.customOutline) }
        if g.drawsBeneathContent { return .composite(.beneathContent) }
        let circle = g.alpha > 0.001, arrow = g.arrowAlpha > 0.001
        // The circle and the arrow cross-fading (a style change) is no plain pointer.
        if circle && arrow { return .composite(.crossFade) }
        guard circle || arrow else { return .off }
        // The drawn pointer (its outline scaled, plus border and one pixel of antialiasing),
        // around the image's centre: the circle's centre or the arrow's tip, the hotspot.
        let s = Double(scale)
        let anchor = Self.anchor(g)
        let drawn = g.bounds
        let needW = 2 * max(anchor.x - drawn.minX, drawn.maxX - anchor.x) * s
        let needH = 2 * max(anchor.y - drawn.minY, drawn.maxY - anchor.y) * s
        guard needW <= Double(width), needH <= Double(height) else { return .composite(.tooLarge) }
        let hx = width / 2, hy = height / 2
        // The hotspot on a whole output pixel (the image is drawn with the anchor at its centre).
        let px = Int32((anchor.x * s).rounded()), py = Int32((anchor.y * s).rounded())
        return .plane(x: px - hx, y: py - hy, hotspotX: hx, hotspotY: hy, upload: true)
    }

    /// The pointer's hotspot: the arrow's tip while the arrow shows, else the circle's centre.
    public static func anchor(_ g: PointerGeometry) -> Point<Global> {
        g.arrowAlpha > 0.001 ? g.arrowTip : g.shape.center
    }

    static func key(_ g: PointerGeometry, scale: Int32) -> CursorImageKey {
        let s = Double(scale)
        let shape = g.shape.scaled(by: g.scale)
        func q(_ v: Double, _ steps: Double) -> Int { Int((v * steps).rounded()) }
        func argb(_ c: PointerColor) -> UInt32 { DrawingTool(diameter: 1, color: c).argb }
        return CursorImageKey(width: q(shape.rect.width * s, 4), height: q(shape.rect.height * s, 4),
                              radius: q(shape.cornerRadius * s, 4), color: argb(g.color), alpha: q(g.alpha, 64),
                              borderWidth: q((g.border?.width ?? 0) * s, 4), borderColor: g.border.map { argb($0.color) } ?? 0,
                              arrowAlpha: q(g.arrowAlpha, 64), arrowSize: q(g.arrowSize * g.scale * s, 16))
    }

    /// The presentation to draw into the plane's image: only the pointer, its centre moved to
    /// the image's centre (in logical points, as the renderer draws at `scale`).
    public func imagePresentation(of p: PointerPresentation) -> PointerPresentation {
        var q = p
        let s = Double(scale)
        let target = Point<Global>(x: Double(width / 2) / s, y: Double(height / 2) / s)
        let d = target - Self.anchor(p.pointer)
        q.pointer.shape = RoundedRect(rect: p.pointer.shape.rect.offset(by: d), cornerRadius: p.pointer.shape.cornerRadius)
        q.pointer.arrowTip = p.pointer.arrowTip + d
        q.contentEffect = nil
        q.exitingContentEffect = nil
        q.accessories = AccessoryList()
        q.annotation = nil
        q.bandRect = nil
        q.hoverMark = nil
        let all = Rect<Global>(x: 0, y: 0, width: Double(width) / s, height: Double(height) / s)
        q.bounds = all
        q.damage = all
        return q
    }
}
