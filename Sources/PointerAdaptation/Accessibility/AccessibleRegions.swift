import AdaptivePointerProtocol
import AdaptivePointerEngine

/// What an accessible element becomes for the pointer: its region (docs/accessibility.md's table of roles),
/// placed in the window geometry past the toolkit's own decorations and grown to the outline
/// the app draws.
extension Accessibility {
    /// The region an element becomes (docs/accessibility.md's table of roles).
    static func draft(_ e: AccessibleElement) -> RegionDraft {
        var draft = RegionDraft()
        draft.frame = Rect(x: e.x, y: e.y, width: e.width, height: e.height)
        switch e.kind {
        case .control:
            draft.style.effect = .highlight
        case .iconButton:
            draft.style.effect = .lift
        case .slider(let horizontal):
            draft.style.effect = .highlight
            draft.latchingAxes = horizontal ? .horizontal : .vertical
        case .item:
            draft.style.effect = .hover(tint: .overlay, shadow: false, scale: false)
            draft.hitArea = .padding(0)
        case .text(let line, let singleLine):
            let length = line ?? 24
            draft.style.effect = .none
            draft.style.shape = .verticalBeam(length: length)
            draft.hitArea = .padding(4)
            // One line, centred in the entry: the beam rests on it.
            if singleLine, e.height > length {
                draft.frame = Rect(x: e.x, y: e.y + ((e.height - length) / 2).rounded(), width: e.width, height: length)
                draft.hitArea = .explicit(.zero)
                draft.hitRect = Rect(x: e.x, y: e.y, width: e.width, height: e.height)
            }
        }
        return draft
    }

    /// Where the AT-SPI frame's origin is in the window geometry. Toolkits publish the
    /// client area; one that draws its own title bar and border (Qt's decorations) has
    /// a window geometry larger than its frame: the border on the left, right and bottom
    /// alike, the title bar on top.
    static func decorationInset(size g: (width: Int32, height: Int32), frame: (width: Double, height: Double)) -> (x: Double, y: Double) {
        let dx = max(0, Double(g.width) - frame.width), dy = max(0, Double(g.height) - frame.height)
        guard frame.width > 0, frame.height > 0, dx < 64, dy < 128 else { return (0, 0) }
        let side = (dx / 2).rounded(.down)
        return (side, max(0, dy - side))
    }

    /// Controls grow to where they are drawn (`DrawnOutline`); window coordinates are the
    /// window geometry's, the pixels the surface's.
    static func outline(_ e: inout AccessibleElement, in pixels: WindowPixels) {
        guard e.framed else { return }
        let (dx, dy) = (Double(pixels.geometryOffset.x), Double(pixels.geometryOffset.y))
        let drawn = DrawnOutline.drawn((e.x + dx, e.y + dy, e.width, e.height), in: pixels)
        (e.x, e.y, e.width, e.height) = (drawn.x - dx, drawn.y - dy, drawn.width, drawn.height)
    }
}
