// MaxRenderTime, which config.toml and the command line name, in a target of its own so that
// LodestoneConfig (and liblodestone-pointer through it) needs no LodestoneCompositor.
// PointerMode and LegacyApps live in PointerAdaptation, which the library links anyway.

/// `--max-render-time` (and `max-render-time` in config.toml): how long before its refresh
/// a frame starts composing, as sway's `max_render_time` and mutter's dynamic max render time.
public enum MaxRenderTime: Hashable, Sendable {
    /// Compose at the refresh, as before: input that arrives during the frame waits a whole one.
    case off
    /// As late as the measured compose time allows: a high percentile of recent frames, plus a
    /// margin that grows when a frame misses its refresh.
    case auto
    /// A fixed number of milliseconds before the refresh.
    case milliseconds(Double)

    /// `auto`, `off` or a number of milliseconds (above 0); nil for anything else.
    public init?(argument: String) {
        switch argument {
        case "auto": self = .auto
        case "off": self = .off
        default:
            guard let ms = Double(argument), ms.isFinite, ms > 0 else { return nil }
            self = .milliseconds(ms)
        }
    }
}
