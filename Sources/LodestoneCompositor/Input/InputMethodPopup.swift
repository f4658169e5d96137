import Rendering
import WaylandServer

/// Where the input method's popup (its candidate window) goes: just below the active text
/// input's cursor rectangle, or above it when below would leave the head the caret is on,
/// and moved back onto that head when it would still stick out. It is drawn above every
/// window and popup (`Scene.inputPopup`) and takes no pointer input: clicks reach the app
/// beneath, as under sway. Only the input method's newest popup with content is shown.
extension TextInputs {
    /// The popup's surface and its rect in global coordinates (weak: the surface may go first).
    struct PopupPlacement {
        weak var surface: WlSurface?
        var rect: PixelRect
    }

    /// Places the popup again: after a commit of the popup or the text input, a change of
    /// the active text input, and any layout change (the app's window moved). Damages where
    /// it was and where it is.
    func placePopup() {
        let new = popupTarget()
        let old = popupPlacement
        if old?.surface === new?.surface, old?.rect == new?.rect { return }
        if let surface = old?.surface { scene.damageTree(surface) }
        popupPlacement = new
        if let surface = new?.surface { scene.damageTree(surface) }
        clock.schedule()
    }

    private func popupTarget() -> PopupPlacement? {
        guard let inputMethod, inputMethod.isActive, let active, let target = active.focus,
              let (ox, oy) = scene.origin(of: target),
              let popup = inputMethod.popups.last(where: { $0.surface?.hasContent == true }), let surface = popup.surface
        else { return nil }
        // No cursor rectangle: the surface's top-left corner stands for it.
        let caret = (active.current.cursor ?? PixelRect(x: 0, y: 0, width: 0, height: 0)).offsetBy(dx: ox, dy: oy)
        let probe = PixelRect(x: caret.x, y: caret.y, width: max(1, caret.width), height: max(1, caret.height))
        let head = layout.head(for: probe)?.bounds ?? probe
        let (w, h) = (surface.width, surface.height)
        var x = caret.x, y = caret.maxY
        if y.clampedAdding(h) > head.maxY, caret.y.clampedSubtracting(h) >= head.y { y = caret.y.clampedSubtracting(h) }
        x = max(head.x, min(x, head.maxX.clampedSubtracting(w)))
        y = max(head.y, min(y, head.maxY.clampedSubtracting(h)))
        popup.textInputRectangle(PixelRect(x: caret.x.clampedSubtracting(x), y: caret.y.clampedSubtracting(y), width: caret.width, height: caret.height))
        return PopupPlacement(surface: surface, rect: PixelRect(x: x, y: y, width: w, height: h))
    }
}
