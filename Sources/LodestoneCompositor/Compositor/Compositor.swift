import PointerAdaptation
import CWaylandServer
import LodestoneSystem
import Logging
import AdaptivePointerEngine
import Rendering
import WaylandServer

/// The assembly: it builds the subsystems (the scene, the desktop, the seat, the frames, each
/// protocol's state), hands each the peers it needs, and applies what they return for the
/// others (`SessionLock.Effect`). Protocol handlers live in one file per protocol and reach it
/// through narrow interfaces (`HandlerInterfaces.swift`). Its options: CompositorOptions.swift.
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
    /// The adaptive_pointer_v1 regions of the scene's mapped surfaces, placed in global space.
    let regions: SceneRegions
    /// What the layer shell's exclusive zones leave of each head (where windows maximize).
    let workAreas: WorkAreas
    /// Window placement, activation and stacking.
    private(set) var desktop: Desktop!
    /// Panels, launchers and notifications on the four layers around the windows (zwlr_layer_shell_v1).
    private(set) var layerShell: LayerShell!
    /// The session's startup programs and the terminal on Super+Return.
    public private(set) lazy var launcher = SessionLauncher(log: log)
    /// Input: the pointer, the keyboard focus, touch. Set once, in `init` (after the peers it
    /// is handed): unchecked, as every frame reads it a dozen times and each dynamic
    /// exclusivity check costs ~60 instructions (issue 29).
    @exclusivity(unchecked) public private(set) var seat: Seat!
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
    let sessionLock: SessionLock
    /// Surfaces that keep the session from idling (zwp_idle_inhibitor_v1).
    private(set) var idleInhibitors: IdleInhibitors!
    /// When the session went idle, for ext_idle_notification_v1 (swayidle).
    private(set) var idleNotifier: IdleNotifier!
    /// Text inputs (zwp_text_input_v3) and the input method serving them (zwp_input_method_v2).
    private(set) var textInputs: TextInputs!
    /// The text inputs, for an input method outside Lodestone (the nested backend's parent's).
    public var bridgedTextInput: BridgedTextInput { textInputs }
    /// Lodestone's keyboard shortcuts, and the clients that asked them to pass through.
    private(set) var shortcuts: Shortcuts!
    let shortcutsInhibitors: ShortcutsInhibitors
    /// The windows task bars list (zwlr_foreign_toplevel_manager_v1, ext_foreign_toplevel_list_v1).
    private(set) lazy var foreignToplevels = ForeignToplevels(scene: scene, layout: layout, loop: display.eventLoop)
    /// Windows exported through xdg-foreign, and their imports.
    let foreignExports = ForeignExports()
    /// xdg_activation_v1 tokens issued and not yet used.
    public private(set) lazy var activationTokens = ActivationTokens(keyboard: seat.keyboard, scene: scene)
    /// The Xcursor themes clients draw cursors from (loaded on first use).
    let cursorThemes: CursorThemes
    /// The geometry apps without regions publish for accessibility (AT-SPI), read on demand.
    /// PointerAdaptation's: it asks the scene whether a window declares regions, tells the seat
    /// that what it placed changed, and hears the pointer from the seat (`PointerContext`).
    private(set) var accessibility: Accessibility!
    /// Touchpad gestures: the system's swipes, and the rest routed to clients.
    /// Set once, in `init`; unchecked as `seat` is (read every frame).
    @exclusivity(unchecked) private(set) var gestures: Gestures!
    /// Tablet tools (pens, erasers): their routing to clients and the hover preview.
    private(set) var tablets: Tablets!
    /// Handwriting with the pen in text fields (issue 40): its settings are config.toml's `[scribble]`.
    public private(set) var scribble: Scribble!
    /// The X11 window manager while Xwayland runs (owned by XwaylandServer); the seat's drags
    /// speak XDND through it.
    weak var xwm: XWM? { didSet { seat.xwm = xwm } }
    /// Live adaptive pointer regions per client (`ClientLimits.adaptiveRegionsPerClient`).
    let regionTally = RegionTally()
    /// linux-dmabuf: what is offered (a backend sets its device, or its parent, when it
    /// starts) and the dmabuf fds clients make Lodestone hold.
    public private(set) lazy var dmabuf: LinuxDmabuf = {
        let dmabuf = LinuxDmabuf(log: log)
        // A buffer the parent took may now go on a plane: the next frame decides again.
        dmabuf.parentTookBuffer = { [unowned self] in self.frames.planesMayChange() }
        return dmabuf
    }()
    /// Screen copies (zwlr_screencopy_manager_v1): managers and frames waiting for damage.
    private(set) lazy var screencopy: Screencopy = {
        let screencopy = Screencopy(output: output)
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

    public init(display: Display, options: Options, logger: Logger) throws(SystemError) {
        self.display = display
        acceptsBufferBeforeInitialAck = options.acceptsBufferBeforeInitialAck
        newWindowsAlwaysTakeFocus = options.newWindowsAlwaysTakeFocus
        acceptsAnySelectionSerial = options.acceptsAnySelectionSerial
        log = logger
        withdrawnGlobalLinger = max(0, options.withdrawnGlobalLinger)
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
        regions = SceneRegions(scene: scene)
        workAreas = WorkAreas(layout: layout, output: output)
        // The default 'us' keymap; without xkb-data there is no keyboard to offer.
        guard let keymap = Keymap() else { throw SystemError("xkbcommon could not compile the default 'us' keymap (is xkb-data installed?)") }
        let log = logger
        // In the middle of the first head (with one head, of the output).
        let first = layout.heads[0].bounds
        let start = Point<Global>(x: Double(first.x) + Double(first.width) / 2, y: Double(first.y) + Double(first.height) / 2)
        let pointer = SeatPointer(outputBounds: output.logicalBounds, start: start, settings: options.pointerSettings,
                                  at: Instant(milliseconds: clock.now), log: { log.warning("\($0)") })
        // The seat's peers first: the keyboard focus, which many of them follow, then those
        // the seat asks (the text inputs and the tablets; what they need the seat to do
        // comes back as a value).
        let keyboard = KeyboardFocus(display: display, keymap: keymap)
        cursorThemes = CursorThemes(log: log)
        sessionLock = SessionLock(scene: scene, layout: layout, output: output, keyboard: keyboard, clock: clock, display: display, log: log)
        shortcutsInhibitors = ShortcutsInhibitors(keyboard: keyboard)
        let idleNotifier = try IdleNotifier(clock: clock, loop: display.eventLoop)
        self.idleNotifier = idleNotifier
        selection = DataSelection()
        textInputs = TextInputs(display: display, scene: scene, layout: layout, keyboard: keyboard, clock: clock)
        tablets = Tablets(display: display, scene: scene)
        seat = Seat(display: display, scene: scene, regions: regions, output: output, clock: clock, log: log, keyboard: keyboard,
                    cursorThemes: cursorThemes, idleNotifier: idleNotifier, selection: selection, primarySelection: primarySelection,
                    shortcutsInhibitors: shortcutsInhibitors, sessionLock: sessionLock, tablets: tablets, textInputs: textInputs,
                    pointer: pointer, pointerMode: options.pointerMode, legacyApps: options.legacyApps, touch: options.touch)
        // Only a client acting on its own current input replaces the clipboard or the
        // primary selection (wlcs 1.5 needs the old, lax rule: `acceptsAnySelectionSerial`).
        let seat = self.seat!, acceptsAny = acceptsAnySelectionSerial
        let acceptsSerial: (UInt32, Client) -> Bool = { [unowned seat] serial, client in
            acceptsAny || seat.isCurrentInputSerial(serial, of: client)
        }
        selection.acceptsSerial = acceptsSerial
        primarySelection.acceptsSerial = acceptsSerial
        clock.advanced = { [unowned idleNotifier] in idleNotifier.clockAdvanced() }
        idleInhibitors = IdleInhibitors(isVisible: { [scene] in scene.origin(of: $0) != nil },
                                        changed: { [unowned seat, unowned idleNotifier] in
                                            seat.pointerInput(.idleInhibited($0))
                                            idleNotifier.setInhibited($0)
                                        })
        accessibility = Accessibility(loop: display.eventLoop, log: log,
                                      declaresRegions: { [regions] window in
                                          guard let surface = Scene.rootSurface(of: window) else { return false }
                                          return regions.treeHasRegions(surface)
                                      },
                                      changed: { [unowned seat] in seat.pointerWorldChanged(regions: true) })
        let newWindowFocus = NewWindowFocus(display: display, keyboard: keyboard, scene: scene, alwaysTakesFocus: newWindowsAlwaysTakeFocus)
        desktop = Desktop(scene: scene, output: output, layout: layout, workAreas: workAreas, clock: clock, accessibility: accessibility,
                          keyboard: keyboard, log: log, newWindowFocus: newWindowFocus)
        let switcher = WindowSwitcher(scene: scene, output: output, clock: clock, mover: desktop.mover)
        gestures = Gestures(display: display, clock: clock, windowSwitcher: switcher)
        layerShell = LayerShell(scene: scene, layout: layout, workAreas: workAreas, keyboard: keyboard, desktop: desktop,
                                accessibility: accessibility, clock: clock, display: display, log: log,
                                acceptsBufferBeforeInitialAck: acceptsBufferBeforeInitialAck)
        shortcuts = Shortcuts(keyboard: keyboard, inhibitors: shortcutsInhibitors, switcher: switcher,
                              launcher: launcher, tokens: activationTokens, clock: clock)
        // The seat's peers built after it, before any input reaches it.
        seat.accessibility = accessibility
        seat.desktop = desktop
        seat.gestures = gestures
        seat.layerShell = layerShell
        seat.shortcuts = shortcuts
        scribble = try Scribble(scene: scene, regions: regions, textInputs: textInputs, accessibility: accessibility, output: output,
                                clock: clock, loop: display.eventLoop, log: log)
        tablets.scribble = scribble
        if layout.heads.count > 1 { seat.outputChanged(bounds: output.logicalBounds, areas: layout.areas) }
        scene.cursorOrigin = { [unowned seat] surface in surface === seat.cursor.surface ? seat.cursor.origin : nil }
        scene.dragIcon = { [unowned seat] in seat.activeDrag?.iconPlacement }
        scene.onChange = { [unowned self] change in
            // Heads before the pointer's enter, as under wlroots: mako 1.7 reads its surface's
            // output on wl_pointer.enter, and crashed on a null one.
            if change == .layout { self.scene.forEachMappedRoot(self.updateOutputs) }
            self.seat.sceneChanged(change)
            if change == .layout {
                self.idleInhibitors.reevaluate()
                self.foreignToplevels.needsUpdate()
                self.textInputs.placePopup()  // the popup follows its app's window
                self.textInputs.updateOutside()  // and so does the caret an outside input method is told of
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
    func surfaceCreated(_ surface: WlSurface) { xwm?.surfaceCreated(surface) }

    func surfaceDestroyed(_ surface: WlSurface) {
        scene.damageTree(surface)
        frames.surfaceDestroyed(surface)
        (surface.role as? XwaylandSurface)?.window?.surfaceAssociationEnded()
        if let xdg = surface.role as? XdgSurface {
            xdg.toplevel?.unmap()
            xdg.popup?.dismiss()
        }
        if let sub = surface.role as? WlSubsurface, let parent = sub.parent { parent.unstack(sub) }
        (surface.role as? ZwlrLayerSurface)?.surfaceDestroyed()
        seat.surfaceDestroyed(surface)
        tablets.surfaceDestroyed(surface)
        scheduleFrame()
    }

    /// New content in surface-local rects.
    func surfaceDamaged(_ surface: WlSurface, _ rects: [PixelRect]) {
        scene.damage(surface, rects)
        // A surface on a plane: its frame only hands the update on, at once.
        if surface.onPlane && (!rects.isEmpty || surface.hasFrameRequests) {
            clock.scheduleSoon()
        } else if !output.damage.isEmpty || !output.planeDamage.isEmpty {
            scheduleFrame()
        }
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
}
