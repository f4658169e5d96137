import CWaylandServer
import Logging
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
    private var globals: [Global] = []
    /// (interface name, version) of each global in `globals`; see Harness.swift.
    private(set) var advertised: [(name: String, version: Int32)] = []

    /// Mapped toplevels, bottom first.
    var windows: [XdgToplevel] = []
    /// Mapped popups, bottom first; always above every window.
    var popups: [XdgPopup] = []
    public private(set) var seat: Seat!
    /// Touch routing; nil unless `Options.touch` (no backend has a touchscreen yet).
    public private(set) var touchscreen: Touchscreen?
    /// The adaptive pointer: regions, engine, drawing.
    private(set) var pointerController: PointerController!
    private(set) var selection: DataSelection!
    /// Frames composed so far (frames with damage).
    public private(set) var frameCount = 0
    /// The scene's elements of the frame being composed, kept between frames so composing
    /// does not allocate once its capacity has grown to the scene.
    private var frameElements: [RenderElement] = []
    /// Called after each composed frame with the damaged output pixels.
    public var framePresented: ((Image, Region) -> Void)?
    /// Where the next new window goes.
    private var cascade = 0
    /// See `Options.acceptsBufferBeforeInitialAck`.
    let acceptsBufferBeforeInitialAck: Bool

    public struct Options: Sendable {
        public var width: Int32 = 1280, height: Int32 = 800, scale: Int32 = 1
        public var refreshHz: Int32 = 60
        public var clock: FrameClock.Mode = .realtime
        public var testControl = false
        /// The pointer over surfaces without adaptive_pointer_v1 regions.
        public var pointerMode = PointerMode.client
        public var outputName = "HEADLESS-1"
        /// Treats a buffer committed after the initial xdg_surface.configure was
        /// sent, but before it was acknowledged, as acknowledging it. wlcs 1.5's
        /// create_visible_surface does this (fixed in later wlcs); off by default.
        public var acceptsBufferBeforeInitialAck = false
        /// Offer wl_touch and route touch points (the wlcs integration's fake touchscreen).
        public var touch = false
        public init() {}
    }

    public init(display: Display, options: Options, logger: Logger) throws(WaylandError) {
        self.display = display
        acceptsBufferBeforeInitialAck = options.acceptsBufferBeforeInitialAck
        log = logger
        output = Output(name: options.outputName, description: "Lodestone \(options.outputName)",
                        width: options.width, height: options.height, scale: options.scale,
                        refreshMilliHz: options.refreshHz * 1000)
        clock = FrameClock(mode: options.clock, refreshHz: options.refreshHz, loop: display.eventLoop)
        // The default 'us' keymap; without xkb-data there is no keyboard to offer.
        guard let keymap = Keymap() else { throw .call("xkbcommon could not compile the default 'us' keymap (is xkb-data installed?)") }
        seat = Seat(compositor: self, keymap: keymap)
        if options.touch { touchscreen = Touchscreen(compositor: self) }
        pointerController = PointerController(compositor: self, mode: options.pointerMode)
        selection = DataSelection(compositor: self)
        clock.onFrame = { [unowned self] in self.repaint() }

        try display.initShm()
        addGlobal(Interface.compositor, WlCompositor.version) { [unowned self] in _ = WlCompositor(compositor: self, client: $0, version: $1, id: $2) }
        addGlobal(Interface.subcompositor, WlSubcompositor.version) { [unowned self] in _ = WlSubcompositor(compositor: self, client: $0, version: $1, id: $2) }
        addGlobal(Interface.output, WlOutput.version) { [unowned self] in _ = WlOutput(output: self.output, client: $0, version: $1, id: $2) }
        addGlobal(Interface.xdgWmBase, XdgWmBase.version) { [unowned self] in _ = XdgWmBase(compositor: self, client: $0, version: $1, id: $2) }
        addGlobal(Interface.seat, WlSeat.version) { [unowned self] in _ = WlSeat(seat: self.seat, client: $0, version: $1, id: $2) }
        addGlobal(Interface.relativePointerManager, ZwpRelativePointerManager.version) { [unowned self] in
            _ = ZwpRelativePointerManager(seat: self.seat, client: $0, version: $1, id: $2)
        }
        addGlobal(Interface.pointerConstraints, ZwpPointerConstraints.version) { [unowned self] in
            _ = ZwpPointerConstraints(seat: self.seat, client: $0, version: $1, id: $2)
        }
        addGlobal(Interface.dataDeviceManager, WlDataDeviceManager.version) { [unowned self] in
            _ = WlDataDeviceManager(selection: self.selection, client: $0, version: $1, id: $2)
        }
        addGlobal(Interface.adaptivePointerManager, AdaptivePointerManager.version) { [unowned self] in
            _ = AdaptivePointerManager(compositor: self, client: $0, version: $1, id: $2)
        }
        if options.testControl {
            // Never offered by default: whoever binds it can inject input and read the screen.
            addGlobal(Interface.test, LodestoneTest.version) { [unowned self] in _ = LodestoneTest(compositor: self, client: $0, version: $1, id: $2) }
        }
        scheduleFrame()
    }

    /// Disconnects every client and withdraws the globals while the display
    /// still exists (a wl_global must go before its wl_display).
    public func shutdown() {
        display.destroyClients()
        globals.removeAll()
    }

    deinit { globals.removeAll() }

    private func addGlobal(_ interface: UnsafePointer<wl_interface>, _ version: Int32, bind: @escaping (Client, UInt32, UInt32) -> Void) {
        globals.append(Global(display: display, interface: interface, version: version, bind: bind))
        // Remembered for harnesses that must list what we offer (wlcs' extension descriptor).
        advertised.append((String(cString: interface.pointee.name), version))
    }

    // MARK: Surfaces

    func surfaceDestroyed(_ surface: WlSurface) {
        damageSurfaceTree(surface)
        if let xdg = surface.role as? XdgSurface {
            xdg.toplevel?.unmap()
            xdg.popup?.dismiss()
        }
        if let sub = surface.role as? WlSubsurface, let parent = sub.parent {
            parent.stack.removeAll { $0 == .child(sub) }
        }
        seat.surfaceDestroyed(surface)
        touchscreen?.surfaceDestroyed(surface)
        scheduleFrame()
    }

    /// New content in surface-local rects.
    func surfaceDamaged(_ surface: WlSurface, _ rects: [Rect]) {
        pointerController.sceneChanged()
        guard let (x, y) = origin(of: surface) else { return }
        for r in rects { output.damage(logical: r.offsetBy(dx: x, dy: y)) }
        if !output.damage.isEmpty { scheduleFrame() }
    }

    /// `wl_surface.offset` / attach offset: only cursors move with it.
    func surfaceMoved(_ surface: WlSurface, dx: Int32, dy: Int32) {
        if surface === seat.cursor.surface { seat.cursor.offset(dx: dx, dy: dy) }
    }

    /// A subsurface may have gained or lost its buffer.
    func surfaceMapStateMayHaveChanged(_ surface: WlSurface) {
        damageSurfaceTree(surface)
        seat.sceneChanged()
    }

    /// Damages the surface and everything drawn relative to it, where they are now.
    func damageSurfaceTree(_ surface: WlSurface) {
        pointerController.sceneChanged()  // regions follow their surfaces
        guard let (x, y) = origin(of: surface) else { return }
        walk(surface, x: x, y: y) { s, sx, sy in output.damage(logical: Rect(x: sx, y: sy, width: s.width, height: s.height)) }
        scheduleFrame()
    }

    /// The surface's top-left in global coordinates, or nil when it is not on screen.
    func origin(of surface: WlSurface) -> (Int32, Int32)? {
        if let sub = surface.role as? WlSubsurface {
            guard let parent = sub.parent, parent.hasContent, let (px, py) = origin(of: parent) else { return nil }
            return (px + sub.x, py + sub.y)
        }
        if let xdg = surface.role as? XdgSurface, xdg.isMapped { return xdg.surfaceOrigin }
        if surface === seat.cursor.surface { return seat.cursor.origin }
        return nil
    }

    /// Visits every mapped surface bottom to top with its global origin.
    func forEachMappedSurface(_ body: (WlSurface, Int32, Int32) -> Void) {
        // Two loops rather than a concatenated array: this runs every frame.
        for window in windows { visit(window.xdgSurface, body) }
        for popup in popups { visit(popup.xdgSurface, body) }
    }

    private func visit(_ view: XdgSurface, _ body: (WlSurface, Int32, Int32) -> Void) {
        guard let surface = view.surface, view.isMapped else { return }
        let (x, y) = view.surfaceOrigin
        walk(surface, x: x, y: y, body)
    }

    /// Visits a surface tree in paint order; a subsurface without content hides its children.
    func walk(_ surface: WlSurface, x: Int32, y: Int32, _ body: (WlSurface, Int32, Int32) -> Void) {
        for entry in surface.stack {
            switch entry {
            case .parent: if surface.hasContent { body(surface, x, y) }
            case .child(let sub):
                if let child = sub.surfaceObject, child.hasContent { walk(child, x: x + sub.x, y: y + sub.y, body) }
            }
        }
    }

    /// The topmost surface accepting input at a global point, with local coordinates.
    func surfaceAt(x: Double, y: Double) -> (surface: WlSurface, sx: Double, sy: Double)? {
        var hit: (WlSurface, Double, Double)?
        forEachMappedSurface { s, ox, oy in
            let sx = x - Double(ox), sy = y - Double(oy)
            if s.acceptsInput(x: sx, y: sy) { hit = (s, sx, sy) }
        }
        return hit
    }

    /// Bounding box of a surface tree in global coordinates.
    func treeBounds(_ surface: WlSurface) -> Rect? {
        guard let (x, y) = origin(of: surface) else { return nil }
        var r = Rect(x: x, y: y, width: 0, height: 0)
        walk(surface, x: x, y: y) { s, sx, sy in r = r.union(Rect(x: sx, y: sy, width: s.width, height: s.height)) }
        return r
    }

    // MARK: Windows

    func toplevelMapped(_ toplevel: XdgToplevel) {
        // A new window takes the focus, so open menus of others close.
        seat.dismissPopupGrabs()
        if !toplevel.placed {
            place(toplevel)
            toplevel.placed = true
            fitToOutput(toplevel)
        }
        windows.append(toplevel)
        toplevel.xdgSurface.surface.map(enterOutput)
        if let s = toplevel.xdgSurface.surface { damageSurfaceTree(s) }
        activate(toplevel)
        // The new window may now be under the pointer.
        seat.sceneChanged()
        log.debug("mapped window '\(toplevel.title)' (\(toplevel.appID)) at \(toplevel.xdgSurface.position)")
    }

    func toplevelUnmapped(_ toplevel: XdgToplevel) {
        guard windows.contains(where: { $0 === toplevel }) else { return }
        if let s = toplevel.xdgSurface.surface, let b = treeBounds(s) { output.damage(logical: b) }
        windows.removeAll { $0 === toplevel }
        pointerController.sceneChanged()
        popups.filter { $0.rootToplevel === toplevel }.reversed().forEach { $0.dismiss() }
        if seat.keyboard.focus === toplevel.xdgSurface.surface || seat.keyboard.focus == nil {
            if let next = windows.last { activate(next) } else { seat.keyboard.setFocus(nil) }
        }
        seat.sceneChanged()
        scheduleFrame()
    }

    /// Cascades new windows from the top-left, keeping them fully on screen when they fit.
    private func place(_ toplevel: XdgToplevel) {
        let g = toplevel.xdgSurface.geometry
        if toplevel.isMaximized || toplevel.isFullscreen {
            toplevel.xdgSurface.position = (0, 0)
            return
        }
        let step: Int32 = 32
        var x = 48 + step * Int32(cascade % 10), y = 48 + step * Int32(cascade % 10)
        cascade += 1
        x = max(0, min(x, output.width - g.width))
        y = max(0, min(y, output.height - g.height))
        toplevel.xdgSurface.position = (x, y)
    }

    /// A window larger than the output (it ignored configure_bounds, or its client is
    /// too old to get them) was placed at the origin; ask it to shrink to fit. A client
    /// whose minimum size is larger keeps its size and stays at the origin.
    private func fitToOutput(_ toplevel: XdgToplevel) {
        guard !toplevel.isMaximized, !toplevel.isFullscreen else { return }
        let g = toplevel.xdgSurface.geometry
        guard g.width > output.width || g.height > output.height else { return }
        toplevel.configure(width: min(g.width, output.width), height: min(g.height, output.height))
        log.debug("window '\(toplevel.title)' is \(g.width)×\(g.height), larger than the output; asked it to fit")
    }

    /// Raises a window and gives it the keyboard.
    func activate(_ toplevel: XdgToplevel) {
        raise(toplevel)
        let previous = windows.first { $0.isActivated && $0 !== toplevel }
        previous?.setActivated(false)
        toplevel.setActivated(true)
        seat.keyboard.setFocus(toplevel.xdgSurface.surface)
    }

    func raise(_ toplevel: XdgToplevel) {
        guard let index = windows.firstIndex(where: { $0 === toplevel }), index != windows.count - 1 else { return }
        windows.remove(at: index)
        windows.append(toplevel)
        if let s = toplevel.xdgSurface.surface { damageSurfaceTree(s) }
        seat.sceneChanged()
    }

    /// Moves a window so its geometry starts at (x, y).
    func move(_ view: XdgSurface, to x: Int32, _ y: Int32) {
        if let s = view.surface { damageSurfaceTree(s) }
        view.position = (x, y)
        if let s = view.surface { damageSurfaceTree(s) }
        for popup in popups where popup.rootToplevel?.xdgSurface === view { if let s = popup.xdgSurface.surface { damageSurfaceTree(s) } }
        seat.sceneChanged()
    }

    func popupMapped(_ popup: XdgPopup) {
        popups.append(popup)
        popup.xdgSurface.surface.map(enterOutput)
        if let s = popup.xdgSurface.surface { damageSurfaceTree(s) }
        seat.sceneChanged()
    }

    func popupUnmapped(_ popup: XdgPopup) {
        guard popups.contains(where: { $0 === popup }) else { return }
        if let s = popup.xdgSurface.surface, let b = treeBounds(s) { output.damage(logical: b) }
        popups.removeAll { $0 === popup }
        pointerController.sceneChanged()
        seat.popupUnmapped(popup)
        seat.sceneChanged()
        scheduleFrame()
    }

    private func enterOutput(_ surface: WlSurface) {
        for resource in output.resources where resource.client == surface.client && !surface.enteredOutputs.contains(where: { $0 === resource }) {
            wl_surface_send_enter(surface.pointer, resource.pointer)
            surface.enteredOutputs.append(resource)
        }
    }

    // MARK: Output

    /// A new output mode (the nested window was resized, or moved to an
    /// output of another scale): maximized and fullscreen windows follow, the
    /// pointer stays on the output, and everything is redrawn.
    public func reconfigureOutput(width: Int32, height: Int32, scale: Int32) {
        guard width != output.width || height != output.height || scale != output.scale else { return }
        output.reconfigure(width: width, height: height, scale: scale)
        for window in windows { window.outputResized() }
        if seat.x >= Double(width) || seat.y >= Double(height) { seat.handle(.pointerMotion(.absolute(x: seat.x, y: seat.y)), at: clock.now) }
        seat.cursor.damage()
        scheduleFrame()
    }

    // MARK: Frames

    public func scheduleFrame() { clock.schedule() }

    /// Composes what changed, then answers frame callbacks.
    func repaint() {
        let now = clock.now
        pointerController.prepareFrame()
        if !output.damage.isEmpty {
            let preview = pointerController.activePreview
            forEachMappedSurface { s, x, y in
                // A preview surface under an effect is drawn by the effect (moved, scaled).
                if s === preview { return }
                if let e = element(for: s, x: x, y: y) { frameElements.append(e) }
            }
            if let cursor = seat.cursor.element(scale: output.scale) { frameElements.append(cursor) }
            renderer.render(frameElements, into: output.image, damage: output.damage)
            // Emptied at once: no surface's pixels are kept alive until the next frame.
            frameElements.removeAll(keepingCapacity: true)
            pointerController.draw(into: output.image, damage: output.damage, scale: output.scale)
            frameCount += 1
            framePresented?(output.image, output.damage)
            output.damage.clear()
        }
        forEachMappedSurface { s, _, _ in for callback in s.takeFrameCallbacks() { callback.done(now) } }
        if let cursor = seat.cursor.surface { for callback in cursor.takeFrameCallbacks() { callback.done(now) } }
        pointerController.deliverLogicalMotion()
    }

    /// Composes now if anything is damaged (captures must show the latest state).
    public func composeIfNeeded() {
        pointerController.prepareFrame()
        if !output.damage.isEmpty { repaint() } else { pointerController.deliverLogicalMotion() }
    }

    private func element(for surface: WlSurface, x: Int32, y: Int32) -> RenderElement? {
        guard let texture = surface.texture else { return nil }
        let s = Double(output.scale)
        let toImage = surface.surfaceToBuffer
            .concatenating(.translation(-Double(x), -Double(y)))
            .concatenating(.scale(1 / s, 1 / s))
        return RenderElement(image: texture, bounds: Rect(x: x, y: y, width: surface.width, height: surface.height).scaled(by: output.scale),
                             outputToImage: toImage, opaque: surface.isOpaque)
    }
}
