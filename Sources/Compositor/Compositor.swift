import CWaylandServer
import LodestoneSystem
import Logging
import PointerEngine
import Rendering
import WaylandServer

/// The compositor's state: one object that owns every protocol's state and
/// the scene. Protocol handlers live in one file per protocol and call in here.
public final class Compositor {
    public let display: Display
    public let output: Output
    public let clock: FrameClock
    let log: Logger
    var renderer = Renderer()
    private var globals: [WaylandGlobal] = []
    /// (interface name, version) of each global in `globals`; see TestControl/HarnessEntryPoints.swift.
    private(set) var advertised: [(name: String, version: Int32)] = []

    /// What is where on the output; its one change notification reaches the seat and the pointer.
    let scene: Scene
    /// Window placement, activation and stacking.
    private(set) var desktop: Desktop!
    public private(set) var seat: Seat!
    /// Touch routing; nil unless `Options.touch` (no backend has a touchscreen yet).
    public private(set) var touchscreen: Touchscreen?
    /// The adaptive pointer: regions, engine, drawing.
    private(set) var pointerController: PointerController!
    private(set) var selection: DataSelection!
    let primarySelection = PrimarySelection()
    /// Surfaces that keep the session from idling (zwp_idle_inhibitor_v1).
    private(set) var idleInhibitors: IdleInhibitors!
    /// Lodestone's keyboard shortcuts, and the clients that asked them to pass through.
    private(set) lazy var shortcuts = Shortcuts(compositor: self)
    private(set) lazy var shortcutsInhibitors = ShortcutsInhibitors(focus: { [unowned self] in self.seat.keyboard.focus })
    /// Windows exported through xdg-foreign, and their imports.
    let foreignExports = ForeignExports()
    /// xdg_activation_v1 tokens issued and not yet used.
    public private(set) lazy var activationTokens = ActivationTokens(compositor: self)
    /// The Xcursor themes clients draw cursors from (loaded on first use).
    private(set) lazy var cursorThemes = CursorThemes(log: log)
    /// The geometry apps without regions publish for accessibility (AT-SPI), read on demand.
    private(set) lazy var accessibility = Accessibility(compositor: self)
    /// Touchpad gestures: the system's swipes, and the rest routed to clients.
    private(set) var gestures: Gestures!
    /// Tablet tools (pens, erasers): their routing to clients and the hover preview.
    private(set) var tablets: Tablets!
    /// The X11 window manager while Xwayland runs (owned by XwaylandServer).
    weak var xwm: XWM?
    /// Live adaptive pointer regions per client (`ClientLimits.adaptiveRegionsPerClient`).
    let regionTally = RegionTally()
    /// Screen copies (zwlr_screencopy_manager_v1): managers and frames waiting for damage.
    private(set) lazy var screencopy = Screencopy(compositor: self)
    /// When the last composed frame was presented (`FrameClock.timestamp`).
    private(set) var lastPresented = Timestamp(seconds: 0, nanoseconds: 0)
    /// How frames reach the screen, for wp_presentation (see `PresentedFrame`); a backend
    /// sets it when it starts.
    public enum Pacing: Sendable { case timer, parent, vsync }
    public var pacing = Pacing.timer
    /// Repaints so far (with damage or not): wp_presentation's sequence.
    private(set) var repaintCount: UInt64 = 0
    /// Frames composed so far (frames with damage).
    public private(set) var frameCount = 0
    /// Called after each composed frame with the damaged output pixels.
    public var framePresented: ((Image, PixelRegion) -> Void)?
    /// A backend's hardware cursor (the DRM cursor plane), asked before each composed frame
    /// whether it shows the adaptive pointer itself; when it does, the frame leaves it out.
    public var pointerPlane: PointerPlane?
    /// See `Options.acceptsBufferBeforeInitialAck`.
    let acceptsBufferBeforeInitialAck: Bool
    /// See `Options.newWindowsAlwaysTakeFocus` and `Options.acceptsAnySelectionSerial`.
    let newWindowsAlwaysTakeFocus: Bool, acceptsAnySelectionSerial: Bool

    public struct Options: Sendable {
        public var width: Int32 = 1280, height: Int32 = 800, scale = OutputScale(1)
        public var refreshHz: Int32 = 60
        public var clock: FrameClock.Mode = .realtime
        public var testControl = false
        /// The pointer over surfaces without adaptive_pointer_v1 regions.
        public var pointerMode = PointerMode.adaptive
        /// With the adaptive pointer: how apps that declare no regions are read.
        public var legacyApps = LegacyApps.adaptive
        /// The adaptive pointer's look and feel (config.toml, flags); `updatePointer` changes them later.
        public var pointerSettings = PointerSettings()
        public var outputName = "HEADLESS-1"
        /// Treats a buffer committed after the initial xdg_surface.configure was
        /// sent, but before it was acknowledged, as acknowledging it. wlcs 1.5's
        /// create_visible_surface does this (fixed in later wlcs); off by default.
        public var acceptsBufferBeforeInitialAck = false
        /// Offer wl_touch and route touch points (the wlcs integration's fake touchscreen).
        public var touch = false
        /// Offer zwlr_screencopy_manager_v1, so clients (grim) can read the screen. The
        /// command line turns it on for the headless and nested backends (`--no-screencopy`).
        public var screencopy = false
        /// Offer zxdg_decoration_manager_v1 (server-side title bars); `--no-server-decorations`
        /// turns it off, so clients draw their own, as under GNOME's mutter.
        public var serverDecorations = true
        /// Every new window takes the keyboard, whichever client has it. Off by default: a
        /// new window takes the keyboard only from its own client, or when no window has
        /// it (`Desktop.windowMapped`). wlcs 1.5 expects every `create_visible_surface`
        /// to get the focus.
        public var newWindowsAlwaysTakeFocus = false
        /// Accepts `wl_data_device.set_selection` whatever its serial. Off by default: the
        /// serial must come from the client's current input (`Seat.isCurrentInputSerial`).
        /// wlcs 1.5's CopyCutPaste sends serial 0 from a client without focus.
        public var acceptsAnySelectionSerial = false
        public init() {}
    }

    public init(display: Display, options: Options, logger: Logger) throws(SystemError) {
        self.display = display
        acceptsBufferBeforeInitialAck = options.acceptsBufferBeforeInitialAck
        newWindowsAlwaysTakeFocus = options.newWindowsAlwaysTakeFocus
        acceptsAnySelectionSerial = options.acceptsAnySelectionSerial
        log = logger
        output = Output(name: options.outputName, description: "Lodestone \(options.outputName)",
                        width: options.width, height: options.height, scale: options.scale,
                        refreshMilliHz: options.refreshHz * 1000)
        clock = try FrameClock(mode: options.clock, refreshHz: options.refreshHz, loop: display.eventLoop)
        scene = Scene(output: output)
        // The default 'us' keymap; without xkb-data there is no keyboard to offer.
        guard let keymap = Keymap() else { throw SystemError("xkbcommon could not compile the default 'us' keymap (is xkb-data installed?)") }
        seat = Seat(compositor: self, keymap: keymap)
        if options.touch { touchscreen = Touchscreen(compositor: self) }
        pointerController = try PointerController(compositor: self, mode: options.pointerMode, legacyApps: options.legacyApps,
                                                  settings: options.pointerSettings)
        selection = DataSelection()
        // Only a client acting on its own current input replaces the clipboard or the
        // primary selection (wlcs 1.5 needs the old, lax rule: `acceptsAnySelectionSerial`).
        let acceptsSerial: (UInt32, Client) -> Bool = { [unowned self] serial, client in
            self.acceptsAnySelectionSerial || self.seat.isCurrentInputSerial(serial, of: client)
        }
        selection.acceptsSerial = acceptsSerial
        primarySelection.acceptsSerial = acceptsSerial
        idleInhibitors = IdleInhibitors(isVisible: { [unowned self] in self.origin(of: $0) != nil },
                                        changed: { [unowned self] in self.pointerController.apply(.idleInhibited($0)) })
        desktop = Desktop(compositor: self)
        gestures = Gestures(compositor: self)
        tablets = Tablets(compositor: self)
        scene.cursorOrigin = { [unowned self] surface in surface === self.seat.cursor.surface ? self.seat.cursor.origin : nil }
        scene.dragIcon = { [unowned self] in (self.seat.grab as? DragGrab)?.iconPlacement }
        scene.onChange = { [unowned self] change in
            self.pointerController.sceneChanged()
            if change == .layout { self.seat.sceneChanged(); self.idleInhibitors.reevaluate() }
        }
        clock.onFrame = { [unowned self] in self.repaint() }

        try display.initShm()
        try addGlobal(Interface.compositor, WlCompositor.version) { [unowned self] in _ = WlCompositor(compositor: self, client: $0, version: $1, id: $2) }
        try addGlobal(Interface.subcompositor, WlSubcompositor.version) { [unowned self] in _ = WlSubcompositor(compositor: self, client: $0, version: $1, id: $2) }
        try addGlobal(Interface.output, WlOutput.version) { [unowned self] in _ = WlOutput(output: self.output, client: $0, version: $1, id: $2) }
        try addGlobal(Interface.xdgWmBase, XdgWmBase.version) { [unowned self] in _ = XdgWmBase(compositor: self, client: $0, version: $1, id: $2) }
        try addGlobal(Interface.seat, WlSeat.version) { [unowned self] in _ = WlSeat(seat: self.seat, client: $0, version: $1, id: $2) }
        try addGlobal(Interface.relativePointerManager, ZwpRelativePointerManager.version) { [unowned self] in
            _ = ZwpRelativePointerManager(seat: self.seat, client: $0, version: $1, id: $2)
        }
        try addGlobal(Interface.pointerConstraints, ZwpPointerConstraints.version) { [unowned self] in
            _ = ZwpPointerConstraints(seat: self.seat, client: $0, version: $1, id: $2)
        }
        try addGlobal(Interface.pointerGestures, ZwpPointerGestures.version) { [unowned self] in
            _ = ZwpPointerGestures(gestures: self.gestures, client: $0, version: $1, id: $2)
        }
        try addGlobal(Interface.tabletManager, ZwpTabletManager.version) { [unowned self] in
            _ = ZwpTabletManager(tablets: self.tablets, client: $0, version: $1, id: $2)
        }
        try addGlobal(Interface.dataDeviceManager, WlDataDeviceManager.version) { [unowned self] in
            _ = WlDataDeviceManager(selection: self.selection, seat: self.seat, client: $0, version: $1, id: $2)
        }
        try addGlobal(Interface.xdgOutputManager, ZxdgOutputManager.version) { _ = ZxdgOutputManager(client: $0, version: $1, id: $2) }
        try addGlobal(Interface.singlePixelBufferManager, WpSinglePixelBufferManager.version) { _ = WpSinglePixelBufferManager(client: $0, version: $1, id: $2) }
        try addGlobal(Interface.viewporter, WpViewporter.version) { _ = WpViewporter(client: $0, version: $1, id: $2) }
        try addGlobal(Interface.primarySelectionDeviceManager, ZwpPrimarySelectionDeviceManager.version) { [unowned self] in
            _ = ZwpPrimarySelectionDeviceManager(selection: self.primarySelection, client: $0, version: $1, id: $2)
        }
        try addGlobal(Interface.idleInhibitManager, ZwpIdleInhibitManager.version) { [unowned self] in
            _ = ZwpIdleInhibitManager(inhibitors: self.idleInhibitors, client: $0, version: $1, id: $2)
        }
        try addGlobal(Interface.xdgActivation, XdgActivation.version) { [unowned self] in
            _ = XdgActivation(tokens: self.activationTokens, client: $0, version: $1, id: $2)
        }
        try addGlobal(Interface.keyboardShortcutsInhibitManager, ZwpKeyboardShortcutsInhibitManager.version) { [unowned self] in
            _ = ZwpKeyboardShortcutsInhibitManager(inhibitors: self.shortcutsInhibitors, client: $0, version: $1, id: $2)
        }
        try addGlobal(Interface.xdgExporter, ZxdgExporter.version) { [unowned self] in
            _ = ZxdgExporter(exports: self.foreignExports, client: $0, version: $1, id: $2)
        }
        try addGlobal(Interface.xdgImporter, ZxdgImporter.version) { [unowned self] in
            _ = ZxdgImporter(exports: self.foreignExports, client: $0, version: $1, id: $2)
        }
        try addGlobal(Interface.fractionalScaleManager, WpFractionalScaleManager.version) { [unowned self] in
            _ = WpFractionalScaleManager(output: self.output, client: $0, version: $1, id: $2)
        }
        if options.serverDecorations {
            try addGlobal(Interface.decorationManager, ZxdgDecorationManager.version) { _ = ZxdgDecorationManager(client: $0, version: $1, id: $2) }
        }
        try addGlobal(Interface.presentation, WpPresentation.version) { _ = WpPresentation(client: $0, version: $1, id: $2) }
        try addGlobal(Interface.cursorShapeManager, WpCursorShapeManager.version) { [unowned self] in
            _ = WpCursorShapeManager(seat: self.seat, client: $0, version: $1, id: $2)
        }
        try addGlobal(Interface.adaptivePointerManager, AdaptivePointerManager.version) { [unowned self] in
            _ = AdaptivePointerManager(compositor: self, client: $0, version: $1, id: $2)
        }
        if options.screencopy {
            // Off unless asked for: whoever binds it reads every window on the screen.
            try addGlobal(Interface.screencopyManager, ZwlrScreencopyManager.version) { [unowned self] in
                _ = ZwlrScreencopyManager(screencopy: self.screencopy, client: $0, version: $1, id: $2)
            }
        }
        if options.testControl {
            // Never offered by default: whoever binds it can inject input and read the screen.
            try addGlobal(Interface.test, LodestoneTest.version) { [unowned self] in _ = LodestoneTest(compositor: self, client: $0, version: $1, id: $2) }
        }
        scheduleFrame()
    }

    /// New pointer settings while running (config.toml was saved): they reach the engine at
    /// once, and the next frame shows them.
    public func updatePointer(settings: PointerSettings, mode: PointerMode, legacyApps: LegacyApps) {
        if mode != pointerController.appCursor.mode || legacyApps != pointerController.appCursor.legacyApps {
            pointerController.appCursor.mode = mode
            pointerController.appCursor.legacyApps = legacyApps
            pointerController.cursorChanged()
        }
        pointerController.updateSettings(settings)
    }

    /// Disconnects every client and withdraws the globals while the display
    /// still exists (a wl_global must go before its wl_display).
    public func shutdown() {
        display.destroyClients()
        globals.removeAll()
    }

    deinit { globals.removeAll() }

    private func addGlobal(_ interface: UnsafePointer<wl_interface>, _ version: Int32, bind: @escaping (Client, UInt32, UInt32) -> Void) throws(SystemError) {
        globals.append(try WaylandGlobal(display: display, interface: interface, version: version, bind: bind))
        // Remembered for harnesses that must list what we offer (wlcs' extension descriptor).
        advertised.append((String(cString: interface.pointee.name), version))
    }

    // MARK: Surfaces

    /// A client made a surface: Xwayland's may be an X window's (WL_SURFACE_ID came first).
    func surfaceCreated(_ surface: WlSurface) { xwm?.surfaceCreated(surface) }

    func surfaceDestroyed(_ surface: WlSurface) {
        scene.damageTree(surface)
        (surface.role as? XwaylandSurface)?.window?.surfaceAssociationEnded()
        if let xdg = surface.role as? XdgSurface {
            xdg.toplevel?.unmap()
            xdg.popup?.dismiss()
        }
        if let sub = surface.role as? WlSubsurface, let parent = sub.parent { parent.unstack(sub) }
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
        if let drag = seat.grab as? DragGrab, surface === drag.icon { drag.iconMoved(dx: dx, dy: dy) }
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

    // MARK: Output

    /// A new output mode (the nested window was resized, or moved to an
    /// output of another scale): maximized and fullscreen windows follow, the
    /// pointer stays on the output, and everything is redrawn.
    public func reconfigureOutput(width: Int32, height: Int32, scale: OutputScale) {
        guard width != output.width || height != output.height || scale != output.scale else { return }
        output.reconfigure(width: width, height: height, scale: scale)
        for window in scene.windows { window.outputResized() }
        if seat.x >= Double(width) || seat.y >= Double(height) { seat.handle(.pointerMotion(.absolute(x: seat.x, y: seat.y)), at: clock.now) }
        seat.cursor.damage()
        screencopy.outputChanged()
        scheduleFrame()
    }

    // MARK: Frames

    public func scheduleFrame() { clock.schedule() }

    /// Composes what changed, then answers frame callbacks.
    func repaint() {
        let now = clock.now
        let time = clock.timestamp
        repaintCount &+= 1
        // Windows the system gestures are sliding move before anything is composed.
        gestures.windowSwitcher.advance(to: now)
        pointerController.prepareFrame()
        if !output.damage.isEmpty {
            // A preview surface under an effect is drawn by the effect (moved, scaled).
            // The cursor plane may show the pointer instead (moving it then needs no compose).
            let onPlane = pointerPlane?.present(pointerController.presentation, adaptive: pointerController.isAdaptive) ?? false
            scene.withRenderElements(skipping: pointerController.activePreview, cursor: seat.cursor.element(output: output),
                                     overlay: onPlane ? nil : pointerController.element) { elements in
                renderer.render(elements, into: output.image, damage: output.damage)
            }
            frameCount += 1
            lastPresented = time
            framePresented?(output.image, output.damage)
            screencopy.framePresented(damage: output.damage)
            output.damage.clear()
        }
        let frame = presentedFrame(at: time)
        scene.forEachMappedSurface { s, _, _ in
            for callback in s.takeFrameCallbacks() { callback.done(now) }
            for feedback in s.takePresentationFeedbacks() { feedback.presented(frame, outputs: s.enteredOutputs) }
        }
        if let cursor = seat.cursor.surface {
            for callback in cursor.takeFrameCallbacks() { callback.done(now) }
            for feedback in cursor.takePresentationFeedbacks() { feedback.presented(frame, outputs: []) }
        }
        if let icon = scene.dragIcon()?.surface {
            for callback in icon.takeFrameCallbacks() { callback.done(now) }
        }
        // Composing sends no input: a motion magnetism caused goes out now, once.
        pointerController.deliverLogicalMotion()
    }

    /// The output's `area` (output pixels) composed again without the pointer (neither the
    /// adaptive pointer with its effects nor a client cursor), in a new image of the
    /// output's size: what a screenshot without the cursor shows.
    func composeWithoutPointer(_ area: PixelRect) -> Image {
        let image = Image(width: output.pixelWidth, height: output.pixelHeight, format: .xrgb8888)
        scene.withRenderElements(skipping: nil, cursor: nil, overlay: nil) { elements in
            renderer.render(elements, into: image, damage: PixelRegion(area))
        }
        return image
    }

    /// What wp_presentation says about the frame composed at `time`.
    private func presentedFrame(at time: Timestamp) -> PresentedFrame {
        switch pacing {
        case .timer: PresentedFrame(time: time, refreshNanoseconds: clock.interval * 1_000_000, sequence: repaintCount, flags: 0)
        case .parent: PresentedFrame(time: time, refreshNanoseconds: 0, sequence: repaintCount, flags: 0)
        case .vsync:
            PresentedFrame(time: time, refreshNanoseconds: UInt32(1_000_000_000_000 / Int64(max(output.refreshMilliHz, 1))), sequence: repaintCount,
                           flags: WP_PRESENTATION_FEEDBACK_KIND_VSYNC.rawValue)
        }
    }

    /// Composes now if anything is damaged (captures must show the latest state).
    public func composeIfNeeded() {
        pointerController.prepareFrame()
        if !output.damage.isEmpty { repaint() } else { pointerController.deliverLogicalMotion() }
    }
}

/// A plane that can show the adaptive pointer without composing it (the DRM cursor plane).
public protocol PointerPlane: AnyObject {
    /// Shows `presentation`'s pointer if the plane can (`adaptive`: the compositor draws the
    /// adaptive pointer, not a client's cursor). True: the frame must not draw the pointer
    /// (the plane shows it, or nothing is to be seen); false: the frame draws it.
    func present(_ presentation: PointerPresentation, adaptive: Bool) -> Bool
}
