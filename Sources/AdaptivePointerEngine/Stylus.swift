/// A tablet tool (Apple Pencil, a Wacom pen) near or on the screen, as the engine hears it.
public enum StylusInput: Hashable, Sendable {
    /// Out of proximity: nothing of the stylus shows.
    case away
    /// In proximity above the screen: a hover preview shows where the mark will land.
    /// `distance` runs from 0 (about to touch) to 1 (the edge of proximity).
    case hovering(at: Point<Global>, distance: Double)
    /// On the screen: the app draws; the pointer and the preview hide.
    case touching(at: Point<Global>)
}

/// The Pencil hover preview: a small mark at the tool's position whose size follows its
/// distance from the screen (closer is smaller and more solid, the way a pencil's shadow
/// sharpens as it nears paper), as the Apple Pencil hover guidelines describe. Over a drawing
/// region it is the region's tool: at contact exactly the stroke's width, in its ink.
public struct HoverMark: Hashable, Sendable {
    public var center: Point<Global>
    public var radius: Double
    public var alpha: Double
    /// The ink of the region's tool; nil draws the mark in the pointer's colour.
    public var color: PointerColor?

    /// Radius 2.5 points at contact to 8 at the edge of proximity, times the tool's diameter
    /// over 5 (`DrawingTool.defaultHoverDiameter`); opacity 0.85 to 0.35, times the ink's alpha.
    public init(center: Point<Global>, distance: Double, tool: DrawingTool? = nil) {
        let d = distance.isFinite ? min(max(distance, 0), 1) : 1
        let scale = tool.map { $0.diameter / DrawingTool.defaultHoverDiameter } ?? 1
        self.center = center
        radius = (2.5 + 5.5 * d) * scale
        alpha = (0.85 - 0.5 * d) * (tool?.color.alpha ?? 1)
        color = tool?.color
    }

    public var bounds: Rect<Global> {
        Rect(x: center.x - radius - 2, y: center.y - radius - 2, width: 2 * radius + 4, height: 2 * radius + 4)
    }
}

extension PointerPresentation {
    /// How much a pinch scales a lifted element: the fingers' scale, softened (a quarter of
    /// it) and kept between 0.85 and 1.2 so the element stays recognisably itself.
    public static func pinchFactor(_ scale: Double) -> Double {
        guard scale.isFinite, scale > 0 else { return 1 }
        return min(max(1 + (scale - 1) * 0.25, 0.85), 1.2)
    }
}
