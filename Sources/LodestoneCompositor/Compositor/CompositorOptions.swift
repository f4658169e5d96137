import AdaptivePointerEngine
import PointerAdaptation
import Rendering

/// What a compositor is built with: the heads, the clock, the pointer, and which protocols
/// are offered and how strictly (the command line and config.toml fill it in).
extension Compositor {
    public struct Options: Sendable {
        public var width: Int32 = 1280, height: Int32 = 800, scale = OutputScale(1)
        public var refreshHz: Int32 = 60
        /// When frames start composing before their refresh (`--max-render-time`; the
        /// configuration's default, `auto`).
        public var maxRenderTime = MaxRenderTime.auto
        public var clock: FrameClock.Mode = .realtime
        public var testControl = false
        /// The pointer over surfaces without adaptive_pointer_v1 regions.
        public var pointerMode = PointerMode.adaptive
        /// With the adaptive pointer: how apps that declare no regions are read.
        public var legacyApps = LegacyApps.adaptive
        /// The adaptive pointer's look and feel (config.toml, flags); `updatePointer` changes them later.
        public var pointerSettings = PointerSettings()
        public var outputName = "HEADLESS-1"
        /// Several heads side by side (`--outputs`, a TTY's connectors); empty: one head of
        /// `width`×`height` named `outputName`.
        public var outputs: [OutputMode] = []
        /// Treats a buffer committed after the initial xdg_surface.configure was
        /// sent, but before it was acknowledged, as acknowledging it. wlcs 1.5's
        /// create_visible_surface does this (fixed in later wlcs); off by default.
        public var acceptsBufferBeforeInitialAck = false
        /// Offer wl_touch and route touch points (`--touchscreen`: the test protocol's touch
        /// points; the wlcs integration's fake touchscreen).
        public var touch = false
        /// Offer zwlr_screencopy_manager_v1, so clients (grim) can read the screen. The
        /// command line turns it on for the headless and nested backends (`--no-screencopy`).
        public var screencopy = false
        /// Offer zwlr_data_control_manager_v1, through which clipboard managers read and set
        /// the selection without a window; `--no-data-control` withdraws it for a user who
        /// wants only the focused app to reach the clipboard.
        public var dataControl = true
        /// Offer zxdg_decoration_manager_v1 (server-side title bars); `--no-server-decorations`
        /// turns it off, so clients draw their own, as under GNOME's mutter.
        public var serverDecorations = true
        /// Every new window takes the keyboard, whichever client has it. Off by default: a
        /// new window takes the keyboard unless focus-stealing prevention holds it back
        /// (`NewWindowFocus`). wlcs 1.5 expects every `create_visible_surface`
        /// to get the focus.
        public var newWindowsAlwaysTakeFocus = false
        /// Accepts `wl_data_device.set_selection` whatever its serial. Off by default: the
        /// serial must come from the client's current input (`Seat.isCurrentInputSerial`).
        /// wlcs 1.5's CopyCutPaste sends serial 0 from a client without focus.
        public var acceptsAnySelectionSerial = false
        /// How long a removed head's wl_output global stays bindable after clients were told
        /// it went (`Compositor.removeOutput`), in milliseconds: wlroots waits 5 s too.
        public var withdrawnGlobalLinger: Int32 = 5000
        public init() {}
    }
}
