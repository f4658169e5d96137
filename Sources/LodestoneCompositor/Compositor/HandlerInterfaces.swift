import PointerAdaptation
import Logging
import LodestoneSystem
import AdaptivePointerEngine
import Rendering
import WaylandServer

// The narrow interfaces protocol handlers reach the core through, as Smithay's `smallvil`
// hands its handlers the state behind small traits: a handler holds only the interface its
// protocol needs, and asks the core what is listed here, never `compositor.seat.x` or
// `compositor.desktop.y`. `Compositor` implements them (below) by forwarding to its scene,
// desktop, seat and output, so what a handler may touch is read in one place.

/// What `wl_compositor`, `wl_surface`, `wl_subsurface` and the adaptive pointer's surface
/// objects ask of the core: surfaces appearing, changing and going, frames, regions.
protocol SurfaceHost: AnyObject {
    func surfaceCreated(_ surface: WlSurface)
    func surfaceDestroyed(_ surface: WlSurface)
    /// The surface committed damage (surface-local rectangles).
    func surfaceDamaged(_ surface: WlSurface, _ rects: [PixelRect])
    /// The surface committed an offset (`wl_surface.offset`).
    func surfaceMoved(_ surface: WlSurface, dx: Int32, dy: Int32)
    /// A subsurface's position or stacking changed.
    func surfaceLayoutChanged(_ surface: WlSurface)
    /// The surface and its subsurfaces are repainted where they are.
    func damageSurfaceTree(_ surface: WlSurface)
    /// What is where changed (a size, an input region, a stack): the scene tells the seat once.
    func sceneLayoutChanged()
    /// Runs `body` (a parent's commit applying its children) with the scene's change
    /// notification sent once, at its end.
    func batchingSceneChanges(_ body: () -> Void)
    func scheduleFrame()
    /// The surface committed adaptive pointer regions.
    func regionsCommitted(_ surface: WlSurface, _ specs: [RegionSpec])
    /// A new adaptive region's id, unique across the scene.
    func allocateRegionID() -> RegionID
    /// Live adaptive regions per client (`ClientLimits.adaptiveRegionsPerClient`).
    var regionTally: RegionTally { get }
}

/// What the xdg-shell handlers (`xdg_wm_base`, `xdg_surface`, `xdg_toplevel`, `xdg_popup`)
/// ask of the core beyond surfaces: the desktop's placement, the seat's grabs and serials,
/// the output's size.
protocol ShellHost: SurfaceHost {
    var log: Logger { get }
    /// See `Compositor.Options.acceptsBufferBeforeInitialAck`.
    var acceptsBufferBeforeInitialAck: Bool { get }
    /// A serial for a configure event.
    func nextSerial() -> UInt32
    /// Walks `surface` and its subsurfaces in paint order, with their offsets from it.
    func walkTree(_ surface: WlSurface, _ body: (WlSurface, Int32, Int32) -> Void)

    /// The output in logical coordinates, and its size (a maximized window's).
    var outputBounds: PixelRect { get }
    /// The head `window` is on (`OutputLayout`): where it maximizes, fills and is bounded.
    func workArea(of window: DesktopWindow) -> PixelRect
    /// Repaints `rect` (logical) of the output: a title bar appearing or going.
    func damageOutput(logical rect: PixelRect)
    /// A title bar for `window`, its buttons placed as regions.
    func makeTitleBar(for window: DesktopWindow) -> TitleBar

    func windowMapped(_ window: DesktopWindow)
    func windowUnmapped(_ window: DesktopWindow)
    func moveWindow(_ window: DesktopWindow, to x: Int32, _ y: Int32)
    func moveWindow(_ view: XdgSurface, to x: Int32, _ y: Int32)
    func raiseWindow(_ window: DesktopWindow)
    func minimizeWindow(_ window: DesktopWindow)
    func toplevelDestroyed(_ toplevel: XdgToplevel)
    /// A window's title, app_id, states or parent changed: task bars hear it.
    func windowChanged(_ window: DesktopWindow)

    /// Mapped popups, oldest first.
    var popups: [XdgPopup] { get }
    func popupMapped(_ popup: XdgPopup)
    func popupUnmapped(_ popup: XdgPopup)
    /// The popup took an explicit grab (`xdg_popup.grab`).
    func popupGrabbed(_ popup: XdgPopup)
    /// `serial` is from `client`'s current input (a press, a key), as a grab needs.
    func isCurrentInputSerial(_ serial: UInt32, of client: Client) -> Bool
    func startMove(_ toplevel: XdgToplevel, serial: UInt32)
    func startResize(_ toplevel: XdgToplevel, serial: UInt32, edges: UInt32)
}

extension Compositor: SurfaceHost {
    func sceneLayoutChanged() { scene.changed(.layout) }
    func batchingSceneChanges(_ body: () -> Void) { scene.batchingChanges(body) }
    func regionsCommitted(_ surface: WlSurface, _ specs: [RegionSpec]) { regions.committed(surface, specs) }
    func allocateRegionID() -> RegionID { regions.allocateRegionID() }
}

extension Compositor: ShellHost {
    func nextSerial() -> UInt32 { display.nextSerial() }
    func walkTree(_ surface: WlSurface, _ body: (WlSurface, Int32, Int32) -> Void) { scene.walk(surface, x: 0, y: 0, body) }
    var outputBounds: PixelRect { output.bounds }
    func damageOutput(logical rect: PixelRect) { output.damage(logical: rect) }
    func makeTitleBar(for window: DesktopWindow) -> TitleBar { TitleBar(window: window, regions: regions) }
    func windowMapped(_ window: DesktopWindow) {
        let focus = desktop.focusOnMapping(window)
        // A new window takes the focus, so open menus of others close.
        if focus.takesFocus { seat.dismissPopupGrabs() }
        seat.apply(desktop.windowMapped(window, focus: focus, pointer: seat.position.logical))
    }
    func windowUnmapped(_ window: DesktopWindow) { seat.apply(desktop.windowUnmapped(window)) }
    func moveWindow(_ window: DesktopWindow, to x: Int32, _ y: Int32) { desktop.move(window, to: x, y) }
    func moveWindow(_ view: XdgSurface, to x: Int32, _ y: Int32) { desktop.move(view, to: x, y) }
    func raiseWindow(_ window: DesktopWindow) { desktop.raise(window) }
    func minimizeWindow(_ window: DesktopWindow) { seat.apply(desktop.minimize(window)) }
    func toplevelDestroyed(_ toplevel: XdgToplevel) { foreignExports.toplevelDestroyed(toplevel) }
    func windowChanged(_ window: DesktopWindow) { foreignToplevels.needsUpdate() }
    var popups: [XdgPopup] { scene.popups }
    func popupMapped(_ popup: XdgPopup) { desktop.popupMapped(popup) }
    func popupUnmapped(_ popup: XdgPopup) { seat.apply(desktop.popupUnmapped(popup)) }
    func popupGrabbed(_ popup: XdgPopup) { seat.popupGrabbed(popup) }
    func isCurrentInputSerial(_ serial: UInt32, of client: Client) -> Bool { seat.isCurrentInputSerial(serial, of: client) }
    func startMove(_ toplevel: XdgToplevel, serial: UInt32) { seat.startMove(toplevel, serial: serial) }
    func startResize(_ toplevel: XdgToplevel, serial: UInt32, edges: UInt32) { seat.startResize(toplevel, serial: serial, edges: edges) }
}

/// What Xwayland (`XwaylandServer`, `XWM`, `XwaylandWindow`) asks of the core beyond a
/// shell's: the event loop and a Wayland client for the X server, override-redirect windows,
/// the seat's grabs on X11 windows, and the cursor theme for the root window.
protocol XwaylandHost: ShellHost, ExternalDragHost {
    var eventLoop: EventLoop { get }
    /// The X server's Wayland connection, made from our end of a socket pair.
    func createClient(fd: Int32) -> Client?
    func overrideRedirectMapped(_ window: XwaylandWindow)
    func overrideRedirectUnmapped(_ window: XwaylandWindow)
    /// _NET_WM_MOVERESIZE: a move, a resize, or its cancellation.
    func startMove(_ window: XwaylandWindow)
    func startResize(_ window: XwaylandWindow, edges: UInt32)
    func cancelMoveResize(of window: XwaylandWindow)
    func standardCursor(_ name: CursorName, scale: Int32) -> CursorThemes.StandardCursor?
    /// The themes whose name and size X's resources carry (`Xcursor.theme`).
    var cursorThemes: CursorThemes { get }
    /// The window manager now running, or nil: the one X connection at a time.
    var xwm: XWM? { get set }
    /// The Wayland selections X's CLIPBOARD and PRIMARY are bridged to.
    var bridgedClipboard: BridgedSelection { get }
    var bridgedPrimary: BridgedSelection { get }
    /// A client's data devices: an X app's drag makes its offers to them.
    func dataDevices(of client: Client) -> [WlDataDevice]
    /// The Wayland surface on top at a global point, in surface coordinates, or nil where an
    /// X window is on top. X's override-redirect windows are looked through: the X app's drag
    /// icon is one, and it is under the pointer throughout (as mutter picks the window, not
    /// the icon).
    func waylandSurface(atX x: Double, y: Double) -> (surface: WlSurface, sx: Double, sy: Double)?
}

extension Compositor: XwaylandHost {
    var eventLoop: EventLoop { display.eventLoop }
    func createClient(fd: Int32) -> Client? { display.createClient(fd: fd) }
    func overrideRedirectMapped(_ window: XwaylandWindow) { desktop.overrideRedirectMapped(window) }
    func overrideRedirectUnmapped(_ window: XwaylandWindow) { desktop.overrideRedirectUnmapped(window) }
    func startMove(_ window: XwaylandWindow) { seat.startMove(window) }
    func startResize(_ window: XwaylandWindow, edges: UInt32) { seat.startResize(window, edges: edges) }
    func cancelMoveResize(of window: XwaylandWindow) { seat.cancelMoveResize(of: window) }
    func standardCursor(_ name: CursorName, scale: Int32) -> CursorThemes.StandardCursor? { cursorThemes.standardCursor(name, scale: scale) }
    var bridgedClipboard: BridgedSelection { selection }
    var bridgedPrimary: BridgedSelection { primarySelection }
    func dataDevices(of client: Client) -> [WlDataDevice] { selection.devices(of: client).compactMap { $0 as? WlDataDevice } }

    func waylandSurface(atX x: Double, y: Double) -> (surface: WlSurface, sx: Double, sy: Double)? {
        var hit: (surface: WlSurface, sx: Double, sy: Double)?
        for window in scene.windows where window.isMapped {
            if let bar = window.titleBar, bar.frame.contains(x: x, y: y) { hit = nil }
            guard let surface = window.surface else { continue }
            let isX = window is XwaylandWindow
            let (ox, oy) = window.surfaceOrigin
            scene.walk(surface, x: ox, y: oy) { s, sx, sy in
                let lx = x - Double(sx), ly = y - Double(sy)
                if s.acceptsInput(x: lx, y: ly) { hit = isX ? nil : (s, lx, ly) }
            }
        }
        return hit
    }
}

/// What `xdg_activation_v1` and the test protocol ask of the core: a window comes forward
/// with the keyboard, as a click on it would (the desktop's activation).
protocol WindowActivation: AnyObject {
    func activateWindow(_ window: DesktopWindow)
}

extension Compositor: WindowActivation {
    func activateWindow(_ window: DesktopWindow) { seat.apply(desktop.activate(window)) }
}

/// What the test protocol (`lodestone_test_v1`, TestControl/) asks of the core: it drives the
/// seat and the manual clock, and reads the stack, the frame count and the output's pixels.
protocol TestControlHost: ShellHost, WindowActivation {
    /// Injected input, as a backend's: through the seat's one entry.
    func inject(_ event: InputEvent, at time: UInt32)
    /// What the test protocol reports of the seat, read at once (`SeatReport`).
    var seatReport: SeatReport { get }
    var clock: FrameClock { get }
    var frameCount: Int { get }
    var output: Output { get }
    /// Windows on screen, bottom first, and the minimized ones.
    var stackedWindows: [DesktopWindow] { get }
    var minimizedWindows: [DesktopWindow] { get }
    func window(of surface: WlSurface) -> DesktopWindow?
    /// The layer surface a surface belongs to: the test protocol reports its namespace.
    func layerSurface(of surface: WlSurface) -> ZwlrLayerSurface?
    /// Composes what is damaged, without stepping the pointer (a capture).
    func composeIfNeeded()
    /// The output as shown (composed if needed), the surfaces on planes drawn in: a capture.
    func capturedImage() -> Image
    /// The pointer's one step at this instant, delivered: what follows injected input.
    @discardableResult func settlePointer() -> PointerPresentation
    /// Lodestone draws its adaptive pointer (not the client's cursor) where the pointer is.
    var adaptivePointerDrawn: Bool { get }
    /// Heads plugged in and unplugged (`add_output`, `remove_output`).
    var layout: OutputLayout { get }
    @discardableResult func addOutput(_ mode: OutputMode) throws(SystemError) -> OutputHead
    @discardableResult func removeOutput(named name: String) -> Bool
}

/// The seat as the test protocol reports it: values, read when asked.
struct SeatReport {
    /// The pointer where clients see it (global logical), the surface under it and the
    /// pointer in that surface's coordinates, and how many buttons are held.
    var position: (x: Double, y: Double)
    var pointerFocus: WlSurface?, surfaceLocal: (x: Double, y: Double)?
    var buttonsHeld: Int
    /// The pointer as the last step left it.
    var pointerSnapshot: PointerSnapshot
    var keyboardFocus: WlSurface?
    var modifiers: (depressed: UInt32, latched: UInt32, locked: UInt32)
    /// The focused client's own cursor: a surface, hidden, or none; and how many it set.
    var cursorSurface: WlSurface?, cursorHidden: Bool, cursorSets: UInt32
    var hasTouchscreen: Bool
}

extension Compositor: TestControlHost {
    func inject(_ event: InputEvent, at time: UInt32) { seat.handle(event, at: time) }
    var seatReport: SeatReport {
        SeatReport(position: (seat.position.logical.x, seat.position.logical.y), pointerFocus: seat.pointerFocus,
                   surfaceLocal: seat.focusedSurfaceLocal, buttonsHeld: seat.buttonsHeld, pointerSnapshot: seat.pointerSnapshot,
                   keyboardFocus: seat.keyboard.focus, modifiers: seat.keyboard.modifierState, cursorSurface: seat.cursor.surface,
                   cursorHidden: seat.cursor.isHidden, cursorSets: seat.cursor.sets, hasTouchscreen: seat.touchscreen != nil)
    }
    var stackedWindows: [DesktopWindow] { scene.windows }
    var minimizedWindows: [DesktopWindow] { scene.minimized }
    func window(of surface: WlSurface) -> DesktopWindow? { scene.window(of: surface) }
}
