import Rendering

/// What the scene paints, bottom to top: the render elements of a frame, and the walk plane
/// assignment shares with it (`forEachPainted`).
extension Scene {
    /// What Lodestone itself draws into a frame, between the surfaces.
    enum Drawn {
        /// A window's title bar (server-side decorations), just beneath the window.
        case titleBar(TitleBar)
        /// While the session is locked, a head's opaque fill (global logical), beneath its lock surface.
        case lockFill(PixelRect)
    }

    /// Visits what a frame paints, bottom first: what Lodestone draws (`drawn`) and every
    /// mapped surface (`surface`, with its global origin), in the one paint order, for
    /// composing (`withRenderElements`) and for deciding the planes (`Frames`). Layer surfaces
    /// of the background and bottom layers, windows each with its title bar beneath it,
    /// override-redirect X11 windows, the top and overlay layers, popups, the input method's
    /// popup and a drag's icon above them all; while locked, each head's fill and lock
    /// surface, nothing else.
    func forEachPainted(drawn: (Drawn) -> Void, surface: (WlSurface, Int32, Int32) -> Void) {
        if let lock {
            for cover in lock.covers where cover.bounds.width > 0 && cover.bounds.height > 0 {
                drawn(.lockFill(cover.bounds))
                if let s = cover.surface { walk(s, x: cover.bounds.x, y: cover.bounds.y, surface) }
            }
            return
        }
        visitLayers(.background ... .bottom, surface)
        for window in windows {
            if let titleBar = window.titleBar, window.isMapped { drawn(.titleBar(titleBar)) }
            visit(window, surface)
        }
        for window in overrideRedirect { visit(window, surface) }
        visitLayers(.top ... .overlay, surface)
        for popup in popups { visit(popup.xdgSurface, surface) }
        if let popup = inputPopup() { walk(popup.surface, x: popup.x, y: popup.y, surface) }
        if let icon = dragIcon() { walk(icon.surface, x: icon.x, y: icon.y, surface) }
    }

    /// Hands the renderer this frame's elements, bottom first (`forEachPainted`): every
    /// mapped surface but `skipping` (a preview surface an effect draws itself) and, with
    /// `skippingPlanes`, those on a backend's planes; then the pointer on top: a client's
    /// cursor image, or the adaptive pointer's overlay.
    /// (`cursor` and `overlay` rather than an array of them: this runs every frame.)
    func withRenderElements(skipping: WlSurface?, skippingPlanes: Bool = false, cursor: RenderElement?, overlay: RenderElement?,
                            _ body: ([RenderElement]) -> Void) {
        // Local functions: a closure in a `let` would put its context on the heap every frame.
        func drawn(_ what: Drawn) {
            switch what {
            case .titleBar(let bar): if let element = bar.element(output: output) { elements.append(element) }
            case .lockFill(let bounds): if let lock { elements.append(lockFill(lock, bounds: bounds, output: output)) }
            }
        }
        func visitor(_ s: WlSurface, _ x: Int32, _ y: Int32) {
            if s === skipping || (skippingPlanes && s.onPlane) { return }
            if let e = element(for: s, x: x, y: y) { elements.append(e) }
        }
        forEachPainted(drawn: drawn, surface: visitor)
        // Scribble's ink above every window, popup and drag icon (never over the lock screen).
        if lock == nil, let ink = ink?.element(output: output) { elements.append(ink) }
        if let cursor { elements.append(cursor) }
        if let overlay { elements.append(overlay) }
        body(elements)
        // Emptied at once: no surface's pixels are kept alive until the next frame.
        elements.removeAll(keepingCapacity: true)
    }

    private func element(for surface: WlSurface, x: Int32, y: Int32) -> RenderElement? {
        guard let texture = surface.texture else { return nil }
        let logical = PixelRect(x: x, y: y, width: surface.width, height: surface.height)
        let bounds = output.pixels(logical: logical)
        return RenderElement(image: texture, bounds: bounds, outputToImage: Self.outputToImage(surface.surfaceToBuffer, logical: logical, pixels: bounds),
                             opaque: surface.isOpaque)
    }

    /// Output pixels to a buffer's pixels, for a surface whose logical rect `logical` is
    /// drawn into the output pixels `pixels`: the surface is stretched to fill exactly
    /// those pixels (at a fractional scale their edges were rounded), so a buffer as
    /// large as `pixels` (a client drawing at the preferred fractional scale through a
    /// viewport) lands pixel for pixel.
    static func outputToImage(_ surfaceToBuffer: Affine, logical: PixelRect, pixels: PixelRect) -> Affine {
        guard logical.width > 0, logical.height > 0, pixels.width > 0, pixels.height > 0 else { return surfaceToBuffer }
        return surfaceToBuffer
            .concatenating(.scale(Double(logical.width) / Double(pixels.width), Double(logical.height) / Double(pixels.height)))
            .concatenating(.translation(-Double(pixels.x), -Double(pixels.y)))
    }
}
