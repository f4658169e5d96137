import AdaptivePointerEngine

extension Instant {
    /// The frame clock's milliseconds as an instant.
    init(milliseconds: Milliseconds) { self.init(seconds: Double(milliseconds) / 1000) }
}

/// A plane that can show the adaptive pointer without composing it (the DRM cursor plane,
/// the parent's cursor when nested). Asked before every composed frame, and at every pointer
/// step while it holds the pointer: then the pointer's motion damages nothing.
public protocol PointerPlane: AnyObject {
    /// Shows `presentation`'s pointer if the plane can (`adaptive`: the compositor draws the
    /// adaptive pointer, not a client's cursor). True: the frame must not draw the pointer
    /// (the plane shows it, or nothing is to be seen); false: the frame draws it (a plane
    /// that gave the pointer back hides its own with that frame, not before).
    func present(_ presentation: PointerPresentation, adaptive: Bool) -> Bool
}
