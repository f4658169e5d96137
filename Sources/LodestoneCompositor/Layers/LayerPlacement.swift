import CWaylandServer
import Rendering

/// `zwlr_layer_shell_v1.layer`: the four layers, bottom first. Background and bottom are
/// drawn under the windows, top and overlay above them (`Scene`).
enum ShellLayer: UInt32, CaseIterable, Comparable {
    case background, bottom, top, overlay

    /// nil for a value the protocol does not name (the `invalid_layer` error).
    init?(_ value: UInt32) { self.init(rawValue: value) }
    var isAboveWindows: Bool { self >= .top }
    static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
}

/// `zwlr_layer_surface_v1.anchor`: the head's edges a surface is anchored to.
struct LayerAnchor: OptionSet, Equatable {
    let rawValue: UInt32
    static let top = LayerAnchor(rawValue: ZWLR_LAYER_SURFACE_V1_ANCHOR_TOP.rawValue)
    static let bottom = LayerAnchor(rawValue: ZWLR_LAYER_SURFACE_V1_ANCHOR_BOTTOM.rawValue)
    static let left = LayerAnchor(rawValue: ZWLR_LAYER_SURFACE_V1_ANCHOR_LEFT.rawValue)
    static let right = LayerAnchor(rawValue: ZWLR_LAYER_SURFACE_V1_ANCHOR_RIGHT.rawValue)
    static let all: LayerAnchor = [.top, .bottom, .left, .right]

    /// The edge an exclusive zone is taken from: a surface anchored to one edge, or to one
    /// edge and both edges beside it. Anchored to a corner, to two opposite edges or to all
    /// four, its zone is ignored (the protocol leaves the edge undefined; sway ignores it).
    var exclusiveEdge: LayerAnchor? {
        switch self {
        case [.top], [.top, .left, .right]: .top
        case [.bottom], [.bottom, .left, .right]: .bottom
        case [.left], [.left, .top, .bottom]: .left
        case [.right], [.right, .top, .bottom]: .right
        default: nil
        }
    }
}

/// `zwlr_layer_surface_v1.keyboard_interactivity`.
enum LayerKeyboardInteractivity: UInt32 {
    /// Never takes the keyboard (a panel, a notification).
    case none
    /// On the top and overlay layers, takes the keyboard while mapped and keeps it (a
    /// launcher); on the lower layers, as `onDemand`.
    case exclusive
    /// Takes the keyboard when clicked, like a window (since version 4).
    case onDemand
}

/// `set_margin`: distances from the anchored edges (only those apply).
struct LayerMargin: Equatable {
    var top: Int32 = 0, right: Int32 = 0, bottom: Int32 = 0, left: Int32 = 0
}

/// What a layer surface's set_* requests ask for; double-buffered, applied on commit.
struct LayerPlacement: Equatable {
    var layer: ShellLayer
    /// 0: stretch between the two anchored edges.
    var width: Int32 = 0, height: Int32 = 0
    var anchor: LayerAnchor = []
    /// > 0: space reserved along the anchored edge; 0: kept clear of others' zones;
    /// -1: placed against the head's edges whatever others reserve.
    var exclusiveZone: Int32 = 0
    var margin = LayerMargin()
    var keyboard = LayerKeyboardInteractivity.none

    /// Where the surface goes within `head`, given the area `usable` that other surfaces'
    /// exclusive zones left; `usable` shrinks by this surface's own zone when `reserves`.
    /// nil when the margins leave no room (the surface is closed, as sway does).
    /// This is sway's `arrange_surface` (desktop/layer_shell.c), in logical pixels.
    func place(in head: PixelRect, usable: inout PixelRect, reserves: Bool) -> PixelRect? {
        let bounds = exclusiveZone == -1 ? head : usable
        var box = PixelRect(x: 0, y: 0, width: width, height: height)
        // Horizontally: stretched, against an edge, or centred.
        if anchor.isSuperset(of: [.left, .right]) && width == 0 {
            box.x = bounds.x; box.width = bounds.width
        } else if anchor.contains(.left) {
            box.x = bounds.x
        } else if anchor.contains(.right) {
            box.x = bounds.x &+ (bounds.width &- width)
        } else {
            box.x = bounds.x &+ (bounds.width / 2 &- width / 2)
        }
        if anchor.isSuperset(of: [.top, .bottom]) && height == 0 {
            box.y = bounds.y; box.height = bounds.height
        } else if anchor.contains(.top) {
            box.y = bounds.y
        } else if anchor.contains(.bottom) {
            box.y = bounds.y &+ (bounds.height &- height)
        } else {
            box.y = bounds.y &+ (bounds.height / 2 &- height / 2)
        }
        // Margins push the surface in from the edges it is anchored to.
        if anchor.isSuperset(of: [.left, .right]) {
            box.x = box.x.clampedAdding(margin.left)
            box.width = box.width.clampedSubtracting(margin.left.clampedAdding(margin.right))
        } else if anchor.contains(.left) {
            box.x = box.x.clampedAdding(margin.left)
        } else if anchor.contains(.right) {
            box.x = box.x.clampedSubtracting(margin.right)
        }
        if anchor.isSuperset(of: [.top, .bottom]) {
            box.y = box.y.clampedAdding(margin.top)
            box.height = box.height.clampedSubtracting(margin.top.clampedAdding(margin.bottom))
        } else if anchor.contains(.top) {
            box.y = box.y.clampedAdding(margin.top)
        } else if anchor.contains(.bottom) {
            box.y = box.y.clampedSubtracting(margin.bottom)
        }
        guard box.width > 0, box.height > 0 else { return nil }
        if reserves { reserve(from: &usable) }
        return box
    }

    /// Takes this surface's exclusive zone (and the margin on its edge) off `usable`.
    private func reserve(from usable: inout PixelRect) {
        guard exclusiveZone > 0, let edge = anchor.exclusiveEdge else { return }
        let taken: Int32
        switch edge {
        case .top: taken = exclusiveZone.clampedAdding(margin.top)
        case .bottom: taken = exclusiveZone.clampedAdding(margin.bottom)
        case .left: taken = exclusiveZone.clampedAdding(margin.left)
        default: taken = exclusiveZone.clampedAdding(margin.right)
        }
        let vertical = edge == .top || edge == .bottom
        let amount = max(0, min(taken, vertical ? usable.height : usable.width))
        switch edge {
        case .top: usable.y &+= amount; usable.height &-= amount
        case .bottom: usable.height &-= amount
        case .left: usable.x &+= amount; usable.width &-= amount
        default: usable.width &-= amount
        }
    }
}
