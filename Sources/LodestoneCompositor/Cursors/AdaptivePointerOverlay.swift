import AdaptivePointerEngine
import Rendering

/// The adaptive pointer and its content effects, drawn by the compositor over the scene
/// composed beneath it (the top element of a frame, unless the cursor plane shows the pointer).
/// The frame hands it what to draw (`show`), so drawing asks no one.
final class AdaptivePointerOverlay: OverlayElement {
    private let painter = PointerRenderer()
    /// The step's own snapshot, held, not its presentation copied out: the presentation is
    /// read in place when drawn.
    private var snapshot: PointerSnapshot?
    /// Weak: a surface destroyed between frames is not kept alive by the last frame.
    private weak var previewSurface: WlSurface?
    private var previewOrigin: (x: Int32, y: Int32) = (0, 0)
    private var scale = 1.0

    /// What the next draw shows: the pointer as the last step left it, and the preview
    /// surface its effect acts on, with the surface's origin.
    func show(_ frame: PointerSnapshot, preview: (WlSurface, (Int32, Int32))?, scale: Double) {
        snapshot = frame
        previewSurface = preview?.0
        previewOrigin = preview?.1 ?? (0, 0)
        self.scale = scale
    }

    func draw(into image: Image, damage: PixelRegion) {
        guard let snapshot else { return }
        let (x, y) = previewOrigin
        guard let s = previewSurface, let texture = s.texture else {
            painter.draw(snapshot.presentation, into: image, scale: scale, clip: damage, preview: nil)
            return
        }
        let content = PreviewContent(image: texture, x: Double(x), y: Double(y), width: Double(s.width), height: Double(s.height))
        // The preview's pixels are the client's buffer, read in place under its guard.
        texture.reading {
            painter.draw(snapshot.presentation, into: image, scale: scale, clip: damage, preview: content)
        }
    }
}
