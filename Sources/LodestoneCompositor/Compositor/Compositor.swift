import PointerAdaptation
import CWaylandServer
import LodestoneSystem
import Logging
import AdaptivePointerEngine
import Rendering
import WaylandServer

/// The compositor's state: one object that owns every protocol's state and
/// the scene. Protocol handlers live in one file per protocol and call in here.
public final class Compositor {
    public let display: Display
    /// The composed frame, as large as the layout's bounding box.
    public let output: Output
    /// The heads (monitors) and where each sits; each shows its part of `output`.
    public let layout = OutputLayout()
    public let clock: FrameClock
    let log: Logger
    var globals: [WaylandGlobal] = []
    /// Removed heads' globals, each destroyed by its timer (`Compositor.retire`).
    var withdrawnGlobals: [(global: WaylandGlobal, timer: EventSource)] = []
    let withdrawnGlobalLinger: Int32
    /// (interface name, version) of each global in `globals`; see TestControl/HarnessEntryPoints.swift.
    var advertised: [(name: String, version: Int32)] = []

    /// What is where on the output; its one change notification reaches the seat and the pointer.
    let scene: Scene
    /// Window placement, activation and stacking.
    private(set) var desktop: Desktop!
    /// Panels, launchers and notifications on the four layers around the windows (zwlr_layer_shell_v1).
    private(set) lazy var layerShell = LayerShell(scene: scene, layout: layout, seat: seat, desktop: desktop, accessibility: accessibility,
                                                     clock: clock, display: display, log: log,
                                                     acceptsBufferBeforeInitialAck: acceptsBufferBeforeInitialAck)
    /// The session's startup programs and the terminal on Super+Return.
    public private(set) lazy var launcher = SessionLauncher(log: log)
    /// Set once, in `init` (the seat needs the compositor): unchecked, as every frame reads it
    /// a dozen times and each dynamic exclusivity check costs ~60 instructions (issue 29).
    @exclusivity(unchecked) public private(set) var seat: Seat!
    /// Touch routing; nil while there is no touchscreen: `Options.touch`'s is there for
    /// good, a TTY's while libinput has a touch device (`touchscreenPresent`).
    public private(set) var touchscreen: Touchscreen?
    /// `Options.touch`: the touchscreen stays whatever devices come and go.
    private let keepsTouchscreen: Bool
    /// Stepping the pointer, composing and presenting (`Frames/`). Set once, in `init`
    /// (after the seat and gestures it reads); unchecked as `seat` is (every frame).
    @exclusivity(unchecked) private(set) var frames: Frames!
    private(set) var selection: DataSelection!
    let primarySelection = PrimarySelection()
    /// Both selections for clipboard managers (zwlr_data_control_manager_v1).
    private(set) lazy var dataControl = DataControl(clipboard: selection, primary: primarySelection)
    /// The heads for output-management clients (zwlr_output_manager_v1), and the backend's say.
    public private(set) lazy var outputManagement = OutputManagement(layout: layout)
    /// The clipboard and the primary selection, for a backend that bridges them (nested).
    public var bridgedSelections: (clipboard: BridgedSelection, primary: BridgedSelection) { (selection, primarySelection) }
    /// The session lock (ext_session_lock_v1): while locked, only the locker's surfaces.
    private(set) lazy var sessionLock = SessionLock(compositor: self)
    /// Surfaces that keep the session from idling (zwp_idle_inhibitor_v1).
    private(set) var idleInhibitors: IdleInhibitors!
    /// When the session went idle, for ext_idle_notification_v1 (swayidle).
    private(set) var idleNotifier: IdleNotifier!
    /// Text inputs (zwp_text_input_v3) and the input method serving them (zwp_input_method_v2).
    private(set) lazy var textInputs = TextInputs(compositor: self)
    /// The text inputs, for an input method outside Lodestone (the nested backend's parent's).
    public var bridgedTextInput: BridgedTextInput { textInputs }
    /// Lodestone's keyboard shortcuts, and the clients that asked them to pass through.
    private(set) lazy var shortcuts = Shortcuts(compositor: self)
    private(set) lazy var shortcutsInhibitors = ShortcutsInhibitors(focus: { [unowned self] in self.seat.keyboard.focus })
    /// The windows task bars list (zwlr_foreign_toplevel_manager_v1, ext_foreign_toplevel_list_v1).
    private(set) lazy var foreignToplevels = ForeignToplevels(host: self, loop: display.eventLoop)
    /// Windows exported through xdg-foreign, and their imports.
    let foreignExports = ForeignExports()
    /// xdg_activation_v1 tokens issued and not yet used.
    public private(set) lazy var activationTokens = ActivationTokens(compositor: self)
    /// The Xcursor themes clients draw cursors from (loaded on first use).
    private(set) lazy var cursorThemes = CursorThemes(log: log)
    /// The geometry apps without regions publish for accessibility (AT-SPI), read on demand.
    /// PointerAdaptation's: it asks the scene whether a window declares regions, tells the seat
    /// that what it placed changed, and hears the pointer from the seat (`PointerContext`).
    private(set) lazy var accessibility = Accessibility(
        loop: display.eventLoop, log: log,
        declaresRegions: { [unowned self] window in
            guard let surface = Scene.rootSurface(of: window) else { return false }
            return self.scene.regions.treeHasRegions(surface)
        },
        changed: { [unowned self] in self.seat.pointerWorldChanged(regions: true) })
    /// Touchpad gestures: the system's swipes, and the rest routed to clients.
    /// Set once, in `init`; unchecked as `seat` is (read every frame).
    @exclusivity(unchecked) private(set) var gestures: Gestures!
    /// Tablet tools (pens, erasers): their routing to clients and the hover preview.
    private(set) var tablets: Tablets!
    /// Handwriting with the pen in text fields (issue 40): its settings are config.toml's `[scribble]`.
    public private(set) var scribble: Scribble!
    /// The X11 window manager while Xwayland runs (owned by XwaylandServer).
    weak var xwm: XWM?
    /// Live adaptive pointer regions per client (`ClientLimits.adaptiveRegionsPerClient`).
    let regionTally = RegionTally()
    /// linux-dmabuf: what is offered (a backend sets its device, or its parent, when it
    /// starts) and the dmabuf fds clients make Lodestone hold.
    public private(set) lazy var dmabuf = LinuxDmabuf(log: log)
    /// Screen copies (zwlr_screencopy_manager_v1): managers and frames waiting for damage.
    private(set) lazy var screencopy: Screencopy = {
        let screencopy = Screencopy(source: self)
        frames.screencopy = screencopy
        return screencopy
    }()
    /// How frames reach the screen, for wp_presentation (see `PresentedFrame`); a backend
    /// sets it when it starts (`pacing`, Frames/Compositor+Frames.swift).
    public enum Pacing: Sendable { case timer, parent, vsync }
    /// See `Options.acceptsBufferBeforeInitialAck`.
    let acceptsBufferBeforeInitialAck: Bool
    /// See `Options.newWindowsAlwaysTakeFocus` and `Options.acceptsAnySelectionSerial`.
    let newWindowsAlwaysTakeFocus: Bool, acceptsAnySelectionSerial: Bool

    public struct Options: Sendable {
        public var width: Int32 = 1280, height: Int32 = 800, scale = OutputScale(1)
        public var refreshHz: Int32 = 60
        /// When frames start composing before their refresh (`--max-render-time`).
        public var maxRenderTime = MaxRenderTime.off
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

    public init(display: Display, options: Options, logger: Logger) throws(SystemError) {
        self.display = display
        acceptsBufferBeforeInitialAck = options.acceptsBufferBeforeInitialAck
        newWindowsAlwaysTakeFocus = options.newWindowsAlwaysTakeFocus
        acceptsAnySelectionSerial = options.acceptsAnySelectionSerial
        log = logger
        withdrawnGlobalLinger = max(0, options.withdrawnGlobalLinger)
        keepsTouchscreen = options.touch
        let modes = options.outputs.isEmpty
            ? [OutputMode(name: options.outputName, width: options.width, height: options.height, refreshHz: options.refreshHz)]
            : options.outputs
        for mode in modes { layout.append(OutputHead(mode, scale: options.scale)) }
        output = Output(name: modes[0].name, description: "Lodestone \(modes[0].name)",
                        width: layout.size.width, height: layout.size.height, scale: options.scale,
                        refreshMilliHz: options.refreshHz * 1000)
        // Several heads: the clock ticks at the fastest head's rate, and each head takes a
        // frame at its own (`Frames.presentDueHeads`).
        let tick = modes.count > 1 ? modes.map(\.refreshHz).max() ?? options.refreshHz : options.refreshHz
        clock = try FrameClock(mode: options.clock, refreshHz: tick, maxRenderTime: options.maxRenderTime, loop: display.eventLoop)
        scene = Scene(output: output)
        // The default 'us' keymap; without xkb-data there is no keyboard to offer.
        guard let keymap = Keymap() else { throw SystemError("xkbcommon could not compile the default 'us' keymap (is xkb-data installed?)") }
        let log = logger
        // In the middle of the first head (with one head, of the output).
        let first = layout.heads[0].bounds
        let start = Point<Global>(x: Double(first.x) + Double(first.width) / 2, y: Double(first.y) + Double(first.height) / 2)
        let pointer = SeatPointer(outputBounds: output.logicalBounds, start: start, settings: options.pointerSettings,
                                  at: Instant(milliseconds: clock.now), log: { log.warning("\($0)") })
        seat = Seat(compositor: self, keymap: keymap, pointer: pointer, pointerMode: options.pointerMode, legacyApps: options.legacyApps)
        if layout.heads.count > 1 { seat.outputChanged(bounds: output.logicalBounds, areas: layout.areas) }
        if options.touch { touchscreen = Touchscreen(compositor: self) }
        selection = DataSelection()
        // Only a client acting on its own current input replaces the clipboard or the
        // primary selection (wlcs 1.5 needs the old, lax rule: `acceptsAnySelectionSerial`).
        let acceptsSerial: (UInt32, Client) -> Bool = { [unowned self] serial, client in
            self.acceptsAnySelectionSerial || self.seat.isCurrentInputSerial(serial, of: client)
        }
        selection.acceptsSerial = acceptsSerial
        primarySelection.acceptsSerial = acceptsSerial
        idleNotifier = try IdleNotifier(clock: clock, loop: display.eventLoop)
        clock.advanced = { [unowned self] in self.idleNotifier.clockAdvanced() }
        idleInhibitors = IdleInhibitors(isVisible: { [unowned self] in self.origin(of: $0) != nil },
                                        changed: { [unowned self] in
                                            self.seat.pointerInput(.idleInhibited($0))
                                            self.idleNotifier.setInhibited($0)
                                        })
        desktop = Desktop(compositor: self)
        gestures = Gestures(compositor: self)
        tablets = Tablets(compositor: self)
        scribble = try Scribble(scene: scene, textInputs: textInputs, accessibility: accessibility, output: output, clock: clock,
                                loop: display.eventLoop, log: log)
        scene.cursorOrigin = { [unowned self] surface in surface === self.seat.cursor.surface ? self.seat.cursor.origin : nil }
        scene.dragIcon = { [unowned self] in self.seat.activeDrag?.iconPlacement }
        scene.onChange = { [unowned self] change in
            self.seat.sceneChanged(change)
            if change == .layout {
                self.idleInhibitors.reevaluate()
                self.foreignToplevels.needsUpdate()
                self.textInputs.placePopup()  // the popup follows its app's window
                self.textInputs.updateOutside()  // and so does the caret an outside input method is told of
                self.scene.forEachMappedRoot(self.updateOutputs)
            }
        }
        let frames = try Frames(clock: clock, output: output, layout: layout, scene: scene, seat: seat, gestures: gestures, loop: display.eventLoop)
        self.frames = frames
        clock.onFrame = { [unowned frames] in frames.repaint() }

        try addGlobals(options)
        // Before any app starts: accessibility switched on, the bus found.
        accessibility.enabled = options.pointerMode == .adaptive && options.legacyApps == .adaptive
        accessibility.start()
        scheduleFrame()
    }

    /// New pointer settings while running (config.toml was saved): they reach the engine at
    /// once, and the next frame shows them.
    public func updatePointer(settings: PointerSettings, mode: PointerMode, legacyApps: LegacyApps) {
        if mode != seat.pointerMode || legacyApps != seat.legacyApps {
            accessibility.enabled = mode == .adaptive && legacyApps == .adaptive
            seat.setAppCursor(mode: mode, legacyApps: legacyApps)
        }
        seat.pointerSettingsChanged(settings)
    }

    /// Disconnects every client and withdraws the globals while the display
    /// still exists (a wl_global must go before its wl_display).
    public func shutdown() {
        display.destroyClients()
        globals.removeAll()
        withdrawnGlobals.removeAll()
        for head in layout.heads { head.global = nil }
        accessibility.stop()
        foreignToplevels.stop()
    }

    deinit {
        globals.removeAll()
        withdrawnGlobals.removeAll()
        for head in layout.heads { head.global = nil }
    }


    // MARK: Surfaces

    /// A client made a surface: Xwayland's may be an X window's (WL_SURFACE_ID came first).
    /// The seat's first touchscreen came or its last went (`InputEvent.touchscreen`). Points
    /// down when it goes are cancelled; bound `wl_seat`s hear the new capabilities, and the
    /// `wl_touch` objects of the old one stay inert (clients release them).
    func touchscreenPresent(_ present: Bool) {
        guard present != (touchscreen != nil), !keepsTouchscreen else { return }
        if present { touchscreen = Touchscreen(compositor: self) } else { touchscreen?.cancel(); touchscreen = nil }
        seat.capabilitiesChanged()
    }

    func surfaceCreated(_ surface: WlSurface) { xwm?.surfaceCreated(surface) }

    func surfaceDestroyed(_ surface: WlSurface) {
        scene.damageTree(surface)
        (surface.role as? XwaylandSurface)?.window?.surfaceAssociationEnded()
        if let xdg = surface.role as? XdgSurface {
            xdg.toplevel?.unmap()
            xdg.popup?.dismiss()
        }
        if let sub = surface.role as? WlSubsurface, let parent = sub.parent { parent.unstack(sub) }
        (surface.role as? ZwlrLayerSurface)?.surfaceDestroyed()
        seat.surfaceDestroyed(surface)
        touchscreen?.surfaceDestroyed(surface)
        tablets.surfaceDestroyed(surface)
        scheduleFrame()
    }

    /// New content in surface-local rects.
    func surfaceDamaged(_ surface: WlSurface, _ rects: [PixelRect]) {
        scene.damage(surface, rects)
        if !output.damage.isEmpty { scheduleFrame() }
    }

    /// `wl_surface.offset` / attach offset: only cursors and a drag's icon move with it.
    func surfaceMoved(_ surface: WlSurface, dx: Int32, dy: Int32) {
        if surface === seat.cursor.surface { seat.cursor.offset(dx: dx, dy: dy) }
        if let drag = seat.activeDrag, surface === drag.icon { drag.iconMoved(dx: dx, dy: dy) }
    }

    /// A subsurface may have gained or lost its buffer, moved or been restacked.
    func surfaceLayoutChanged(_ surface: WlSurface) {
        scene.damageTree(surface)
        scene.changed(.layout)
        scheduleFrame()
    }

    /// Damages the surface and everything drawn relative to it, where they are now.
    func damageSurfaceTree(_ surface: WlSurface) {
        scene.damageTree(surface)
        scheduleFrame()
    }

    /// The surface's top-left in global coordinates, or nil when it is not on screen.
    func origin(of surface: WlSurface) -> (Int32, Int32)? { scene.origin(of: surface) }
}
