import Foundation
import LodestoneSystem
import Logging
import AdaptivePointerProtocol
import AdaptivePointerEngine
import Rendering
import WaylandServer

/// What an accessible element becomes for the pointer: its region (docs/accessibility.md's table of roles),
/// placed in the window geometry past the toolkit's own decorations and grown to the outline
/// the app draws.
extension Accessibility {
    /// The region an element becomes (docs/accessibility.md's table of roles).
    static func spec(_ e: AccessibleElement, id: RegionID) -> RegionSpec {
        var spec = RegionSpec(id: id)
        spec.draft.frame = Rect(x: e.x, y: e.y, width: e.width, height: e.height)
        switch e.kind {
        case .control:
            spec.draft.style.effect = .highlight
        case .iconButton:
            spec.draft.style.effect = .lift
        case .slider(let horizontal):
            spec.draft.style.effect = .highlight
            spec.draft.latchingAxes = horizontal ? .horizontal : .vertical
        case .item:
            spec.draft.style.effect = .hover(tint: .overlay, shadow: false, scale: false)
            spec.draft.hitArea = .padding(0)
        case .text(let line, let singleLine):
            let length = line ?? 24
            spec.draft.style.effect = .none
            spec.draft.style.shape = .verticalBeam(length: length)
            spec.draft.hitArea = .padding(4)
            // One line, centred in the entry: the beam rests on it.
            if singleLine, e.height > length {
                spec.draft.frame = Rect(x: e.x, y: e.y + ((e.height - length) / 2).rounded(), width: e.width, height: length)
                spec.draft.hitArea = .explicit(.zero)
                spec.draft.hitRect = Rect(x: e.x, y: e.y, width: e.width, height: e.height)
            }
        }
        return spec
    }

    /// Where the AT-SPI frame's origin is in the window geometry. Toolkits publish the
    /// client area; one that draws its own title bar and border (Qt's decorations) has
    /// a window geometry larger than its frame: the border on the left, right and bottom
    /// alike, the title bar on top.
    static func decorationInset(geometry g: PixelRect, frame: (width: Double, height: Double)) -> (x: Double, y: Double) {
        let dx = max(0, Double(g.width) - frame.width), dy = max(0, Double(g.height) - frame.height)
        guard frame.width > 0, frame.height > 0, dx < 64, dy < 128 else { return (0, 0) }
        let side = (dx / 2).rounded(.down)
        return (side, max(0, dy - side))
    }

    /// Controls grow to where they are drawn (`DrawnOutline`); window coordinates are the
    /// window geometry's, the pixels the surface's.
    static func outline(_ e: inout AccessibleElement, in surface: WlSurface, geometry g: PixelRect) {
        guard e.framed else { return }
        let (dx, dy) = (Double(g.x), Double(g.y))
        let drawn = DrawnOutline.drawn((e.x + dx, e.y + dy, e.width, e.height), in: surface)
        (e.x, e.y, e.width, e.height) = (drawn.x - dx, drawn.y - dy, drawn.width, drawn.height)
    }
}
