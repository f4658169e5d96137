/// What the presented pointer looks like, in a few numbers: the terms of
/// `lodestone_test_v1.pointer_shape` and of liblodestone-pointer's presentation
/// (`lodestone_pointer_shape_kind`: the raw values are that enum's and the protocol's).
public struct PointerShapeReport: Hashable, Sendable {
    public enum Kind: UInt32, Sendable { case circle, verticalBeam, horizontalBeam, roundedRect, custom, hidden, band, clientCursor, arrow }
    public var kind: Kind
    public var rect: Rect<Global>
    public var cornerRadius: Double
    public var alpha: Double

    /// - Parameter clientCursor: an app's own cursor image is shown instead of the adaptive pointer.
    public init(_ p: PointerPresentation, clientCursor: Bool, tuning: PointerTuning) {
        let g = p.pointer
        let shape = g.shape.scaled(by: g.scale)
        rect = shape.rect
        cornerRadius = shape.cornerRadius
        alpha = g.alpha
        let w = g.shape.rect.width, h = g.shape.rect.height
        if clientCursor { kind = .clientCursor }
        else if p.bandRect != nil { kind = .band }
        else if g.customPath != nil && g.pathAlpha >= 0.5 { kind = .custom; alpha = g.pathAlpha }
        else if g.arrowAlpha >= 0.5 { kind = .arrow; alpha = g.arrowAlpha; rect = g.arrowBounds; cornerRadius = 0 }
        else if g.alpha < 0.01 { kind = .hidden }
        else if abs(w - h) < 0.5 && g.shape.cornerRadius >= w / 2 - 0.25 { kind = .circle }
        else if abs(w - tuning.beamWidth) < 0.5 && h > w { kind = .verticalBeam }
        else if abs(h - tuning.beamWidth) < 0.5 && w > h { kind = .horizontalBeam }
        else { kind = .roundedRect }
    }
}
