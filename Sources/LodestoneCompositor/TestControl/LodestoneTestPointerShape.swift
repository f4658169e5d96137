import CWaylandServer
import Glibc
import AdaptivePointerEngine
import WaylandServer

extension LodestoneTest {
    /// `lodestone_test_v1.pointer_shape`: the adaptive pointer as last presented. A query
    /// reads state and never advances it: injected input steps the engine when it arrives,
    /// and frames (the manual clock advancing) do the rest.
    func sendAdaptivePointerShape(_ snapshot: PointerSnapshot) {
        let p = snapshot.presentation
        // Whether a client's cursor shows is the seat's policy as it is now.
        let report = PointerShapeReport(p, clientCursor: !host.adaptivePointerDrawn, tuning: snapshot.tuning)
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
            send { lodestone_test_v1_send_pointer_shape($0, report.kind.rawValue, f(report.rect.minX), f(report.rect.minY), f(report.rect.width), f(report.rect.height),
                f(report.cornerRadius), f(report.alpha), kind, f(effect?.progress ?? 0), f(effect?.scale ?? 1),
                snapshot.targetIdentifier == nil ? 0 : 1, snapshot.targetIdentifier ?? 0,
                f(p.devicePosition.x), f(p.devicePosition.y), array, p.annotation?.text ?? "") }
        }
    }

    /// `lodestone_test_v1.pointer_preview` (since 4): the pointer's fill and the pen's hover
    /// preview, as last presented.
    func sendPointerPreview(_ snapshot: PointerSnapshot) {
        let p = snapshot.presentation
        func argb(_ c: PointerColor) -> UInt32 { DrawingTool(diameter: 1, color: c).argb }
        let f = wl_fixed_from_double
        let mark = p.hoverMark
        send { lodestone_test_v1_send_pointer_preview($0, argb(p.pointer.color), mark == nil ? 0 : 1, f(mark?.center.x ?? 0), f(mark?.center.y ?? 0),
            f(2 * (mark?.radius ?? 0)), argb(mark?.color ?? p.pointer.color), f(mark?.alpha ?? 0)) }
    }
}
