/// The annotation beside the pointer: shown while over a region that has one, faded with the
/// accessory spring, kept on screen by flipping to the other side of the pointer at an edge.
struct AnnotationAnimator: Sendable {
    private(set) var text: String?
    private var characters = 0
    var presence = AnimatedValue(0)

    mutating func retarget(_ newText: String?) {
        if let t = newText {
            if t != text {
                text = t
                characters = t.count
            }
            presence.target = 1
        } else {
            presence.target = 0
        }
    }

    mutating func advance(_ k: SpringKit.Transitions) {
        presence.advance(k.accessory)
        if presence.isSettled && presence.value == 0 { text = nil }
    }

    func present(beside pointer: Rect<Global>, output: Rect<Global>, alpha: Double,
                 tuning t: PointerTuning) -> AnnotationPresentation? {
        guard let text else { return nil }
        let w = Double(characters) * t.annotationCharacterWidth + 2 * t.annotationGap
        let h = t.annotationHeight
        var x = pointer.maxX + t.annotationGap
        var y = pointer.minY - t.annotationGap - h
        if x + w > output.maxX { x = pointer.minX - t.annotationGap - w }
        if y < output.minY { y = pointer.maxY + t.annotationGap }
        x = max(output.minX, min(x, output.maxX - w))
        y = max(output.minY, min(y, output.maxY - h))
        let frame = Rect<Global>(x: x, y: y, width: w, height: h)
        let anchor = Point<Global>(x: x < pointer.minX ? frame.maxX : frame.minX,
                                   y: y < pointer.minY ? frame.maxY : frame.minY)
        return AnnotationPresentation(text: text, anchor: anchor, frame: frame,
                                      alpha: max(0, min(1, presence.value)) * alpha)
    }
}
