import CWaylandServer
import Rendering
import WaylandServer

/// The rules that place a popup, and the placement algorithm (xdg_positioner).
struct PositionerRules {
    var width: Int32 = 0, height: Int32 = 0
    var anchorRect = PixelRect(x: 0, y: 0, width: 0, height: 0)
    var anchor: UInt32 = XDG_POSITIONER_ANCHOR_NONE.rawValue
    var gravity: UInt32 = XDG_POSITIONER_GRAVITY_NONE.rawValue
    var constraints: UInt32 = 0
    var offsetX: Int32 = 0, offsetY: Int32 = 0
    var reactive = false
    var anchorRectSet = false
    var parentWidth: Int32 = 0, parentHeight: Int32 = 0

    var isComplete: Bool { width > 0 && height > 0 && anchorRectSet }

    // Anchor and gravity share values: none, top, bottom, left, right, top_left, bottom_left, top_right, bottom_right.
    private static func hasTop(_ v: UInt32) -> Bool { v == 1 || v == 5 || v == 7 }
    private static func hasBottom(_ v: UInt32) -> Bool { v == 2 || v == 6 || v == 8 }
    private static func hasLeft(_ v: UInt32) -> Bool { v == 3 || v == 5 || v == 6 }
    private static func hasRight(_ v: UInt32) -> Bool { v == 4 || v == 7 || v == 8 }
    private static func flipX(_ v: UInt32) -> UInt32 { [0, 1, 2, 4, 3, 7, 8, 5, 6][Int(v)] }
    private static func flipY(_ v: UInt32) -> UInt32 { [0, 2, 1, 3, 4, 6, 5, 8, 7][Int(v)] }

    /// The popup's box relative to the parent's window geometry, before constraints.
    /// Worked out in Int64 and clamped: sizes, anchors and offsets may each be near Int32.max.
    func unconstrainedBox(anchor: UInt32, gravity: UInt32) -> PixelRect {
        let ax = Int64(anchorRect.x), ay = Int64(anchorRect.y), aw = Int64(anchorRect.width), ah = Int64(anchorRect.height)
        let w = Int64(width), h = Int64(height)
        let px = Self.hasLeft(anchor) ? ax : Self.hasRight(anchor) ? ax + aw : ax + aw / 2
        let py = Self.hasTop(anchor) ? ay : Self.hasBottom(anchor) ? ay + ah : ay + ah / 2
        let x = (Self.hasLeft(gravity) ? px - w : Self.hasRight(gravity) ? px : px - w / 2) + Int64(offsetX)
        let y = (Self.hasTop(gravity) ? py - h : Self.hasBottom(gravity) ? py : py - h / 2) + Int64(offsetY)
        return PixelRect(x: Int32(clamping: x), y: Int32(clamping: y), width: width, height: height)
    }

    /// Places the popup inside `area` (parent-relative) as the constraint
    /// adjustments allow: flip, then slide, then resize, per axis.
    func place(within area: PixelRect) -> PixelRect {
        var box = unconstrainedBox(anchor: anchor, gravity: gravity)
        let fitsX = { (b: PixelRect) in b.x >= area.x && b.maxX <= area.maxX }
        let fitsY = { (b: PixelRect) in b.y >= area.y && b.maxY <= area.maxY }

        if !fitsX(box) && constraints & XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_FLIP_X.rawValue != 0 {
            let flipped = unconstrainedBox(anchor: Self.flipX(anchor), gravity: Self.flipX(gravity))
            if fitsX(flipped) { box.x = flipped.x }
        }
        if !fitsY(box) && constraints & XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_FLIP_Y.rawValue != 0 {
            let flipped = unconstrainedBox(anchor: Self.flipY(anchor), gravity: Self.flipY(gravity))
            if fitsY(flipped) { box.y = flipped.y }
        }
        if !fitsX(box) && constraints & XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_SLIDE_X.rawValue != 0 {
            if box.maxX > area.maxX { box.x = area.maxX.clampedSubtracting(box.width) }
            if box.x < area.x { box.x = area.x }
        }
        if !fitsY(box) && constraints & XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_SLIDE_Y.rawValue != 0 {
            if box.maxY > area.maxY { box.y = area.maxY.clampedSubtracting(box.height) }
            if box.y < area.y { box.y = area.y }
        }
        if !fitsX(box) && constraints & XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_RESIZE_X.rawValue != 0 {
            let clipped = box.intersection(PixelRect(x: area.x, y: box.y, width: area.width, height: max(box.height, 1)))
            if clipped.width > 0 { box.x = clipped.x; box.width = clipped.width }
        }
        if !fitsY(box) && constraints & XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_RESIZE_Y.rawValue != 0 {
            let clipped = box.intersection(PixelRect(x: box.x, y: area.y, width: max(box.width, 1), height: area.height))
            if clipped.height > 0 { box.y = clipped.y; box.height = clipped.height }
        }
        return box
    }
}

/// `xdg_positioner`: a client-built set of placement rules.
final class XdgPositioner: Resource, XdgPositionerHandler {
    var rules = PositionerRules()

    override init?(client: Client, version: UInt32, id: UInt32) {
        super.init(client: client, version: version, id: id)
    }

    func handle(_ request: Request, _ a: Arguments) {
        let invalid = XDG_POSITIONER_ERROR_INVALID_INPUT.rawValue
        switch request {
        case .destroy: destroy()
        case .setSize:
            guard a.int(0) > 0, a.int(1) > 0 else { return postError(invalid, "positioner size \(a.int(0))×\(a.int(1)) must be positive") }
            rules.width = a.int(0); rules.height = a.int(1)
        case .setAnchorRect:
            guard a.int(2) >= 0, a.int(3) >= 0 else { return postError(invalid, "anchor rect size \(a.int(2))×\(a.int(3)) is negative") }
            rules.anchorRect = PixelRect(x: a.int(0), y: a.int(1), width: a.int(2), height: a.int(3))
            rules.anchorRectSet = true
        case .setAnchor:
            guard a.uint(0) <= 8 else { return postError(invalid, "anchor \(a.uint(0)) is not an xdg_positioner.anchor value") }
            rules.anchor = a.uint(0)
        case .setGravity:
            guard a.uint(0) <= 8 else { return postError(invalid, "gravity \(a.uint(0)) is not an xdg_positioner.gravity value") }
            rules.gravity = a.uint(0)
        case .setConstraintAdjustment: rules.constraints = a.uint(0)
        case .setOffset: rules.offsetX = a.int(0); rules.offsetY = a.int(1)
        case .setReactive: rules.reactive = true
        case .setParentSize: rules.parentWidth = a.int(0); rules.parentHeight = a.int(1)
        case .setParentConfigure: break
        }
    }
}
