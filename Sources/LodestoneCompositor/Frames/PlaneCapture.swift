import Rendering
import WaylandServer

/// What a capture (a screenshot, screencopy) reads while surfaces are on planes: the composed
/// frame lacks them, so the whole picture is drawn apart, made on the first capture and kept
/// up to date from then on with what each frame changed.
final class PlaneCapture {
    private unowned let output: Output
    private unowned let scene: Scene
    /// The pointer as the last frame drew it (a client's cursor image, the overlay), for the
    /// capture image to draw the same.
    var pointerElements: (cursor: RenderElement?, overlay: RenderElement?) = (nil, nil)
    private var captureImage: Image?
    /// What changed since `captureImage` was last drawn.
    private let captureDamage = PixelRegion()

    init(output: Output, scene: Scene) {
        self.output = output
        self.scene = scene
    }

    /// A frame went out that `changed` these output pixels (the planes' surfaces included).
    /// With no surface on a plane the composed frame is the whole picture again.
    func framePresented(changed: PixelRegion, planesShowSurfaces: Bool) {
        if !planesShowSurfaces {
            captureImage = nil
            captureDamage.clear()
        } else if captureImage != nil {
            captureDamage.add(changed)
        }
    }

    /// The whole picture, `preview` left to the pointer's effect as the frame leaves it.
    func image(preview: WlSurface?, renderer: inout Renderer) -> Image {
        let image: Image
        if let existing = captureImage, existing.width == output.pixelWidth, existing.height == output.pixelHeight {
            image = existing
        } else {
            image = Image(width: output.pixelWidth, height: output.pixelHeight, format: .xrgb8888)
            captureImage = image
            captureDamage.clear()
            captureDamage.add(PixelRect(x: 0, y: 0, width: output.pixelWidth, height: output.pixelHeight))
        }
        scene.withRenderElements(skipping: preview, cursor: pointerElements.cursor, overlay: pointerElements.overlay) { elements in
            renderer.render(elements, into: image, damage: captureDamage)
        }
        captureDamage.clear()
        return image
    }
}
