import CWaylandServer
import Glibc
import PointerEngine
import WaylandServer

extension LodestoneTest {
    /// `lodestone_test_v1.pointer_shape`: the adaptive pointer as last presented. A query
    /// reads state and never advances it: injected input steps the engine when it arrives,
    /// and frames (the manual clock advancing) do the rest.
    func sendAdaptivePointerShape(_ controller: PointerController) {
        let p = controller.presentation
        let report = controller.shapeReport
        let effect = p.contentEffect
        var kind: UInt32 = 0
        if let e = effect {
            switch e.kind {
            case .highlight: kind = 1
            case .lift: kind = 2
            case .hover: kind = 3
            case .none: kind = 0
            }
        }
        // 4 words per accessory: shape, x, y, alpha (see the XML).
        var words: [Int32] = []
        for a in p.accessories {
            let shape: Int32
            switch a.shape {
            case .arrow: shape = 0
            case .plus: shape = 1
            case .minus: shape = 2
            case .circleSlash: shape = 3
            case .checkmark: shape = 4
            case .path: shape = 5
            }
            words += [shape, wl_fixed_from_double(a.center.x), wl_fixed_from_double(a.center.y), wl_fixed_from_double(a.alpha)]
        }
        let f = wl_fixed_from_double
        withArray(words) { array in
            lodestone_test_v1_send_pointer_shape(
                pointer, report.kind.rawValue, f(report.rect.minX), f(report.rect.minY), f(report.rect.width), f(report.rect.height),
                f(report.cornerRadius), f(report.alpha), kind, f(effect?.progress ?? 0), f(effect?.scale ?? 1),
                controller.targetIdentifier == nil ? 0 : 1, controller.targetIdentifier ?? 0,
                f(p.devicePosition.x), f(p.devicePosition.y), array, p.annotation?.text ?? "")
        }
    }
}

/// The presented pointer in the terms of `lodestone_test_v1.pointer_shape`.
struct PointerShapeReport {
    enum Kind: UInt32 { case circle, verticalBeam, horizontalBeam, roundedRect, custom, hidden, band, clientCursor }
    var kind: Kind
    var rect: Rect<Global>
    var cornerRadius: Double
    var alpha: Double

    init(_ p: PointerPresentation, clientCursor: Bool, tuning: PointerTuning) {
        let g = p.pointer
        let shape = g.shape.scaled(by: g.scale)
        rect = shape.rect
        cornerRadius = shape.cornerRadius
        alpha = g.alpha
        let w = g.shape.rect.width, h = g.shape.rect.height
        if clientCursor { kind = .clientCursor }
        else if p.bandRect != nil { kind = .band }
        else if g.customPath != nil && g.pathAlpha >= 0.5 { kind = .custom; alpha = g.pathAlpha }
        else if g.alpha < 0.01 { kind = .hidden }
        else if abs(w - h) < 0.5 && g.shape.cornerRadius >= w / 2 - 0.25 { kind = .circle }
        else if abs(w - tuning.beamWidth) < 0.5 && h > w { kind = .verticalBeam }
        else if abs(h - tuning.beamWidth) < 0.5 && w > h { kind = .horizontalBeam }
        else { kind = .roundedRect }
    }
}
