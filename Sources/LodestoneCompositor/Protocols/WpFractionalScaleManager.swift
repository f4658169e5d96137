import CWaylandProtocols
import CWaylandServer
import WaylandServer

/// `wp_fractional_scale_manager_v1` (fractional-scale-v1): tells a surface the scale to
/// render at, in 120ths, so a client with a viewport (`WpViewporter`) can draw at exactly
/// the output's pixel density. The preferred scale is the output's (`--scale`, such as
/// 1.5, or the nested parent's) in those 120ths; it is sent again when the output's scale
/// changes.
final class WpFractionalScaleManager: Resource, WpFractionalScaleManagerV1Handler {
    static let version: Int32 = 1
    unowned let output: Output

    init?(output: Output, client: Client, version: UInt32, id: UInt32) {
        self.output = output
        super.init(client: client, version: version, id: id)
    }

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        case .destroy: destroy()
        case .getFractionalScale:
            guard let surface = a.object(1, as: WlSurface.self) else { return }
            guard surface.fractionalScale == nil else {
                return postError(WP_FRACTIONAL_SCALE_MANAGER_V1_ERROR_FRACTIONAL_SCALE_EXISTS.rawValue,
                                 "wl_surface@\(surface.objectID) already has a wp_fractional_scale_v1")
            }
            guard let scale = WpFractionalScale(output: output, client: client, version: version, id: a.newID(0)) else { return }
            surface.fractionalScale = scale
            scale.sendPreferredScale()
        }
    }
}

/// `wp_fractional_scale_v1`: one surface's preferred scale.
final class WpFractionalScale: Resource, WpFractionalScaleV1Handler {
    private weak var output: Output?

    init?(output: Output, client: Client, version: UInt32, id: UInt32) {
        self.output = output
        super.init(client: client, version: version, id: id)
        output.fractionalScales.append(Weak(self))
    }

    func handle(_ request: Request, _ arguments: Arguments) {
        if request == .destroy { destroy() }
    }

    /// The output's scale in 120ths (the protocol's fixed denominator).
    func sendPreferredScale() {
        guard let output else { return }
        send { wp_fractional_scale_v1_send_preferred_scale($0, UInt32(output.scale.v120)) }
    }

    override func destroyed() { output?.fractionalScales.removeAll { $0.value == nil || $0.value === self } }
}
