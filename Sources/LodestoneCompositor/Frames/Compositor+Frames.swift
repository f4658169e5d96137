import AdaptivePointerEngine
import Rendering

/// What backends, the test protocol and screencopy reach of the frames through the
/// compositor: the frames themselves are `Frames`' (Frames.swift).
extension Compositor {
    /// How frames reach the screen (a backend sets it when it starts).
    public var pacing: Pacing {
        get { frames.pacing }
        set { frames.pacing = newValue }
    }
    /// When the last composed frame was presented (`FrameClock.timestamp`).
    var lastPresented: Timestamp { frames.lastPresented }
    /// Frames composed so far (frames with damage).
    public var frameCount: Int { frames.frameCount }
    /// Called after each composed frame with the damaged output pixels.
    public var framePresented: ((Image, PixelRegion) -> Void)? {
        get { frames.framePresented }
        set { frames.framePresented = newValue }
    }
    /// A backend's hardware cursor (the DRM cursor plane), asked before each composed frame
    /// whether it shows the adaptive pointer itself; when it does, the frame leaves it out.
    public var pointerPlane: PointerPlane? {
        get { frames.pointerPlane }
        set { frames.pointerPlane = newValue }
    }

    /// A backend's planes for client surfaces (nested: the parent's subsurfaces), asked every
    /// frame which surfaces they show (`SurfacePlanes`); nil: every surface is composed.
    public var surfacePlanes: SurfacePlanes? {
        get { frames.surfacePlanes }
        set { frames.surfacePlanes = newValue }
    }
    /// The output as it is shown, the surfaces on planes drawn in: what captures read.
    public func capturedImage() -> Image { frames.capturedImage() }

    /// A frame at the next refresh.
    public func scheduleFrame() { clock.schedule() }
    /// A frame now, as the clock would run it, without waiting for the next refresh (the
    /// bench's motion-to-frame measure).
    public func frameNow() { frames.frameNow() }
    /// Composes what is damaged, with the pointer as its last step left it (a capture).
    public func composeIfNeeded() { frames.composeIfNeeded() }
    /// A held head's presenter can take a frame again (its flip completed).
    public func resume(_ head: OutputHead) { frames.resume(head) }
    /// The pointer's reaction now, without a frame (the test protocol's injected input).
    @discardableResult func settlePointer() -> PointerPresentation { frames.settlePointer() }
    /// Whether Lodestone draws the adaptive pointer now (not a client's cursor image).
    var adaptivePointerDrawn: Bool { frames.adaptivePointerDrawn }
    /// The output's `area` composed again without the pointer (a screenshot without it).
    func composeWithoutPointer(_ area: PixelRect) -> Image { frames.composeWithoutPointer(area) }
}
