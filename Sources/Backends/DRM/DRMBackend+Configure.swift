import CDRM
import LodestoneCompositor
import LodestoneSystem
import Rendering

/// A client's arrangement of the TTY's heads (`zwlr_output_manager_v1`): each head offers
/// its connector's modes; a head switched off has its CRTC turned off, and one switched on
/// is lit again in its mode, and another of its modes is set (`DRMOutput.setMode`: new
/// buffers, the CRTC set). Places are the compositor's alone. What the backend cannot show is
/// refused (`failed`) with the reason in the log:
/// - custom modes: a mode the connector does not list needs timings of its own (CVT),
///   which the backend does not compute;
/// - a scale other than the session's (`--scale`) or a transform: each head's part of the
///   one composed frame is copied into its buffer pixel for pixel, neither scaled nor turned.
extension DRMBackend: OutputConfigurator {
    /// The head's modes are its connector's (refresh in mHz from the timings, as wlroots
    /// computes it), the current one the output's; its size in millimetres from the connector.
    func describe(_ head: OutputHead, _ output: DRMOutput, _ compositor: Compositor) {
        let preferred = output.modes.first { $0.type & UInt32(DRM_MODE_TYPE_PREFERRED) != 0 }
        var modes: [HeadMode] = []
        for m in output.modes {
            var mode = Self.headMode(m)
            mode.isPreferred = preferred.map { Self.headMode($0).matches(mode) } ?? false
            if !modes.contains(where: { $0.matches(mode) }) { modes.append(mode) }
        }
        var identity = HeadIdentity()
        identity.make = "DRM"
        identity.model = output.connectorName
        identity.widthMillimetres = output.millimetres.width
        identity.heightMillimetres = output.millimetres.height
        compositor.describe(head, modes: modes, current: modes.first { $0.matches(Self.headMode(output.mode)) }, identity: identity)
    }

    /// A connector's mode as clients see it: pixels, and refresh in mHz.
    static func headMode(_ m: drmModeModeInfo) -> HeadMode {
        let total = Int64(m.htotal) * Int64(m.vtotal)
        var refresh = total > 0 ? Int32(clamping: (Int64(m.clock) * 1_000_000 + total / 2) / total) : Int32(clamping: Int64(m.vrefresh) * 1000)
        if m.flags & UInt32(DRM_MODE_FLAG_INTERLACE) != 0 { refresh = refresh &* 2 }
        return HeadMode(width: Int32(m.hdisplay), height: Int32(m.vdisplay), refreshMilliHz: refresh)
    }

    public func refusal(of configuration: [HeadConfiguration]) -> String? {
        guard let compositor = configuredCompositor else { return "the DRM backend has stopped" }
        for c in configuration where c.isEnabled {
            guard let output = outputs.first(where: { $0.headName == c.head.name }) else { return "\(c.head.name) has no DRM output" }
            if !output.modes.contains(where: { Self.headMode($0).matches(c.mode) }) {
                return "\(c.head.name): \(c.mode.width)×\(c.mode.height) at \(c.mode.refreshMilliHz) mHz is not a mode \(output.connectorName) lists; custom modes need timings of their own (CVT), which the DRM backend does not compute"
            }
            if c.scale != compositor.output.scale {
                return "\(c.head.name): scale \(c.scale) differs from the session's (\(compositor.output.scale), --scale): the DRM backend copies each head's part of the one composed frame pixel for pixel and cannot scale it"
            }
            if c.transform != .normal {
                return "\(c.head.name): transform \(c.transform.rawValue): the DRM backend copies each head's part of the composed frame unturned"
            }
        }
        return nil
    }

    public func apply(_ configuration: [HeadConfiguration]) throws(SystemError) {
        for c in configuration {
            guard let output = outputs.first(where: { $0.headName == c.head.name }) else { continue }
            if !c.isEnabled {
                if output.isLit { output.disable() }
                continue
            }
            guard !output.isLit || !c.mode.matches(c.head.mode),
                  let mode = output.modes.first(where: { Self.headMode($0).matches(c.mode) }) else { continue }
            try output.setMode(mode)
        }
    }

    /// The cursor planes follow the heads' new places and sizes; the frame is redrawn whole.
    public func arranged() {
        guard let compositor = configuredCompositor else { return }
        placeCursors(compositor)
        compositor.output.damageAll()
        compositor.scheduleFrame()
    }
}
