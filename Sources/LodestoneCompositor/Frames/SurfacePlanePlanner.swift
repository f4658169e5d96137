import Rendering

/// Which of a frame's surfaces go on a backend's planes (`SurfacePlanes`). Pure: rects in,
/// decisions out, so the rule is unit-tested without a parent compositor, as the pointer's
/// `PointerPlanePlanner` is.
///
/// The frame is a stack of layers, bottom first: what Lodestone composes for certain (title
/// bars, the adaptive pointer with its effects, a client's cursor image) and client surfaces
/// a plane could show. Planes lie above the composed frame, in their own order; so a surface
/// may be a plane only when nothing composed lies above it where it overlaps it, and each
/// surface that is composed after all is composed for whatever lies beneath it too. One pass
/// from the top decides it.
struct SurfacePlanePlanner {
    enum Layer: Equatable {
        /// Drawn into the composed frame, wherever the planes go (output pixels).
        case composed(PixelRect)
        /// A surface (output pixels) that a plane could show when `accepted`.
        case candidate(PixelRect, accepted: Bool)
    }

    /// At most this many planes, the topmost: each is a surface of the parent's, and a client
    /// with thousands of subsurfaces must not make as many there. The rest are composed
    /// (beneath the planes, as everything composed is).
    let maximumPlanes: Int

    /// Composed pixels above the layer being decided; reused from frame to frame.
    private let composedAbove = PixelRegion()

    init(maximumPlanes: Int = 64) { self.maximumPlanes = maximumPlanes }

    /// For each layer, whether a plane shows it (false for every `.composed` one).
    func assign(_ layers: [Layer]) -> [Bool] {
        var planes = [Bool](repeating: false, count: layers.count)
        var count = 0
        composedAbove.clear()
        for index in layers.indices.reversed() {
            switch layers[index] {
            case .composed(let rect):
                composedAbove.add(rect)
            case .candidate(let rect, let accepted):
                if accepted && count < maximumPlanes && !composedAbove.intersects(rect) {
                    planes[index] = true
                    count += 1
                } else {
                    composedAbove.add(rect)
                }
            }
        }
        return planes
    }
}
