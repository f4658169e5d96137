// The compositor's modes that config.toml and the command line name, in a target of their own
// so that LodestoneConfig (and liblodestone-pointer through it) needs no LodestoneCompositor.

/// Which pointer is shown over surfaces that declare no adaptive_pointer_v1 regions.
public enum PointerMode: String, Sendable, CaseIterable {
    /// A client's `wl_pointer.set_cursor` image, as today, so existing apps are never worse off.
    case client
    /// The adaptive pointer everywhere; what it does over apps that declare no regions is
    /// `LegacyApps`.
    case adaptive
}

/// With `PointerMode.adaptive`: how apps that declare no regions are read.
public enum LegacyApps: String, Sendable, CaseIterable {
    /// Everything an app says: its cursor names (`shapes`), and (issue 11, to come) the
    /// geometry it publishes for accessibility. Today the same as `shapes`.
    case adaptive
    /// The app's cursor names, from wp_cursor_shape_v1 or its recognised theme cursor
    /// images, become adaptive forms (a beam over text, arrows on resize edges); an image
    /// that is no theme cursor is shown as the app drew it.
    case shapes
    /// No reading at all: the adaptive circle over every app, whatever its cursor.
    case off
}

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
