import AdaptivePointerEngine
import CWaylandServer
import Logging
import PointerAdaptation
import Rendering

/// Window management policy: where new windows go, which window is active, stacking,
/// moves, and popups joining and leaving the scene. The scene holds what is where; this
/// decides it.
///
/// It holds the scene, the output, the layout's work areas, the clock, accessibility and the
/// keyboard focus (read), not the seat: what the seat must do (the keyboard's focus, a
/// popup's grab) is returned as
/// `Effect`s, and whoever asked applies them in order (`Seat.apply`), the scene's layout
/// change after them, as when the desktop called the seat itself.
final class Desktop {
    private let scene: Scene
    private let output: Output
    private let workAreas: WorkAreas
    private let layout: OutputLayout
    private let clock: FrameClock
    private let accessibility: Accessibility
    private let keyboard: KeyboardFocus
    private let log: Logger
    /// Where the next new window goes.
    private var cascade = 0

    /// Whether a new window takes the keyboard (focus-stealing prevention).
    private let newWindowFocus: NewWindowFocus
    /// Moves windows (the window switcher's slides move through it too).
    let mover: WindowMover

    init(scene: Scene, output: Output, layout: OutputLayout, workAreas: WorkAreas, clock: FrameClock, accessibility: Accessibility,
         keyboard: KeyboardFocus, log: Logger, newWindowFocus: NewWindowFocus) {
        self.scene = scene
        self.output = output
        self.layout = layout
        self.workAreas = workAreas
        self.clock = clock
        self.accessibility = accessibility
        self.keyboard = keyboard
        self.log = log
        self.newWindowFocus = newWindowFocus
        mover = WindowMover(scene: scene, clock: clock)
    }

    /// What the desktop asks of the seat, and what follows it, in order (`Seat.apply`).
    enum Effect {
        /// The keyboard goes to the surface, or to none (`Seat.setKeyboardFocus`).
        case keyboardFocus(WlSurface?)
        /// A popup went: the seat's popup grab lets go of it (`Seat.popupUnmapped`).
        case popupUnmapped(XdgPopup)
        /// The scene's layout changed (`Scene.changed(.layout)`), told after the seat's part,
        /// and a frame.
        case layoutChanged
        /// A window being minimized is deactivated and set aside (`minimized(_:)`), once the
        /// keyboard has gone to the window below.
        case minimized(DesktopWindow)
    }

    // MARK: Windows

    /// Whether a window mapping now takes the keyboard, and why (for the log): a new window
    /// takes it unless a program the user neither started nor uses mapped it
    /// (`NewWindowFocus`): it must not grab what the user types elsewhere. Asked before
    /// `windowMapped`: a window that takes the focus closes the open menus of others first.
    func focusOnMapping(_ toplevel: DesktopWindow) -> (takesFocus: Bool, reason: String) {
        newWindowFocus.takesFocus(toplevel)
    }

    /// `pointer`: where new windows cascade (the head the pointer is on).
    func windowMapped(_ toplevel: DesktopWindow, focus: (takesFocus: Bool, reason: String), pointer: Point<Global>) -> [Effect] {
        let (takesFocus, reason) = focus
        if !toplevel.placed {
            place(toplevel, pointer: pointer)
            toplevel.placed = true
            fitToOutput(toplevel)
        }
        // On top either way (the user sees it open); without the keyboard it is not
        // activated and waits for the user, marked urgent. Its children go back above it.
        scene.windows.append(toplevel)
        raise(toplevel)
        if !takesFocus { toplevel.demandsAttention = true }
        toplevel.surface.map { layout.updateOutputs(of: $0, in: scene) }
        if let s = toplevel.surface { scene.damageTree(s) }
        var effects: [Effect] = []
        if takesFocus { effects = activate(toplevel) } else { accessibility.windowShown(toplevel) }
        log.debug("mapped window '\(toplevel.title)' (\(toplevel.appID)) at \(toplevel.position)\(takesFocus ? "" : ", urgent"): \(reason)")
        // The new window may now be under the pointer.
        return effects + [.layoutChanged]
    }

    /// The window below takes the keyboard from the window going.
    func windowUnmapped(_ toplevel: DesktopWindow) -> [Effect] {
        scene.minimized.removeAll { $0 === toplevel }
        guard scene.windows.contains(where: { $0 === toplevel }) else { return [] }
        if let s = toplevel.surface, let b = scene.windowBounds(s) { output.damage(logical: b) }
        scene.windows.removeAll { $0 === toplevel }
        scene.popups.filter { $0.rootToplevel === toplevel }.reversed().forEach { $0.dismiss() }
        var effects: [Effect] = []
        if keyboard.focus === toplevel.surface || keyboard.focus == nil {
            if let next = scene.windows.last { effects = activate(next) } else { effects = [.keyboardFocus(nil)] }
        }
        return effects + [.layoutChanged]
    }

    /// The scene's layout changed (`Effect.layoutChanged`): told now, and a frame.
    func layoutChanged() {
        scene.changed(.layout)
        clock.schedule()
    }

    /// Cascades new windows from the top-left, keeping them fully on screen when they fit.
    private func place(_ toplevel: DesktopWindow, pointer: Point<Global>) {
        let g = toplevel.geometry
        if toplevel.isMaximized || toplevel.isFullscreen {
            toplevel.position = toplevel.maximizedOrigin
            return
        }
        if let (x, y) = toplevel.preferredPosition {
            toplevel.position = (x, y)
            return
        }
        // A child window opens centred over its parent.
        if let parent = toplevel.parentWindow, parent.isMapped {
            let p = parent.position, pg = parent.geometry
            toplevel.position = (max(0, p.x + (pg.width - g.width) / 2), max(toplevel.decorationHeight, p.y + (pg.height - g.height) / 2))
            return
        }
        // New windows cascade on the head the pointer is on, within what the panels leave
        // (the layer shell's exclusive zones).
        let area = workAreas.workArea(at: Int32(pointer.x), Int32(pointer.y))
        let step: Int32 = 32
        var x = area.x &+ 48 &+ step * Int32(cascade % 10), y = area.y &+ 48 &+ step * Int32(cascade % 10)
        cascade += 1
        // A title bar Lodestone draws sits above the geometry and stays on screen too.
        let bar = toplevel.decorationHeight
        x = max(area.x, min(x, area.maxX &- g.width))
        y = max(area.y &+ bar, min(y, area.maxY &- g.height))
        toplevel.position = (x, y)
    }

    /// A window larger than the output (it ignored configure_bounds, or its client is
    /// too old to get them) was placed at the origin; ask it to shrink to fit. A client
    /// whose minimum size is larger keeps its size and stays at the origin.
    private func fitToOutput(_ toplevel: DesktopWindow) {
        guard !toplevel.isMaximized, !toplevel.isFullscreen else { return }
        let g = toplevel.geometry
        let area = workAreas.workArea(of: toplevel)
        guard g.width > area.width || g.height > area.height else { return }
        toplevel.requestSize(width: min(g.width, area.width), height: min(g.height, area.height))
        log.debug("window '\(toplevel.title)' is \(g.width)×\(g.height), larger than the output; asked it to fit")
    }

    /// Hides a window (its title bar's minimize button) until it is activated again:
    /// off the scene, its popups closed, the keyboard to the window below, then
    /// deactivated and set aside (`Effect.minimized`).
    func minimize(_ toplevel: DesktopWindow) -> [Effect] {
        guard toplevel.isMapped, !toplevel.isMinimized else { return [] }
        return windowUnmapped(toplevel) + [.minimized(toplevel)]
    }

    /// The rest of `minimize`, after the keyboard moved (`Effect.minimized`).
    func minimized(_ toplevel: DesktopWindow) {
        toplevel.setActivated(false)
        toplevel.isMinimized = true
        scene.minimized.append(toplevel)
    }

    /// Raises a window and gives it the keyboard (the effect returned); a minimized one
    /// comes back first.
    func activate(_ toplevel: DesktopWindow) -> [Effect] {
        if toplevel.isMinimized {
            toplevel.isMinimized = false
            scene.minimized.removeAll { $0 === toplevel }
            scene.windows.append(toplevel)
            if let s = toplevel.surface { scene.damageTree(s) }
            scene.changed(.layout)
            clock.schedule()
        }
        toplevel.demandsAttention = false
        raise(toplevel)
        let previous = scene.windows.first { $0.isActivated && $0 !== toplevel }
        if let previous { setActivated(previous, false) }
        setActivated(toplevel, true)
        // Its accessible elements are read now, before the pointer comes (issue 27).
        accessibility.windowShown(toplevel)
        return [.keyboardFocus(toplevel.surface)]
    }

    /// A window's activation, and with it its title bar's look: the bar is drawn again. (It
    /// was not: a bar stayed as it was until something else composed it, the way a window
    /// raised with it did, and a window on the parent's planes never did: issue 37.)
    private func setActivated(_ window: DesktopWindow, _ on: Bool) {
        guard window.isActivated != on else { return }
        window.setActivated(on)
        guard let bar = window.titleBar, window.isMapped else { return }
        bar.damage(output)
        clock.schedule()
    }

    /// Puts a window on top, with its children (and theirs) above it, oldest first.
    func raise(_ toplevel: DesktopWindow) {
        var family: [DesktopWindow] = [toplevel]
        var i = 0
        while i < family.count {
            let p = family[i]
            family += scene.windows.filter { w in w.parentWindow === p && !family.contains { $0 === w } }
            i += 1
        }
        let order = scene.windows.filter { w in !family.contains { $0 === w } } + family.filter { w in scene.windows.contains { $0 === w } }
        guard !order.elementsEqual(scene.windows, by: ===) else { return }
        scene.windows = order
        for w in family { if let s = w.surface { scene.damageTree(s) } }
        scene.changed(.layout)
        clock.schedule()
    }

    /// Moves a window so its geometry starts at (x, y) (`WindowMover`).
    func move(_ window: DesktopWindow, to x: Int32, _ y: Int32) { mover.move(window, to: x, y) }

    /// Moves an xdg surface (a toplevel's or a popup's) so its geometry starts at (x, y);
    /// the toplevel's popups follow.
    func move(_ view: XdgSurface, to x: Int32, _ y: Int32) { mover.move(view, to: x, y) }

    // MARK: X11 override-redirect windows

    /// An X11 menu or tooltip: drawn above every window where X put it; it takes no
    /// keyboard focus (X keeps its grab inside Xwayland).
    func overrideRedirectMapped(_ window: XwaylandWindow) {
        guard !scene.overrideRedirect.contains(where: { $0 === window }) else { return }
        scene.overrideRedirect.append(window)
        window.surface.map { layout.updateOutputs(of: $0, in: scene) }
        if let s = window.surface { scene.damageTree(s) }
        scene.changed(.layout)
        clock.schedule()
    }

    func overrideRedirectUnmapped(_ window: XwaylandWindow) {
        guard scene.overrideRedirect.contains(where: { $0 === window }) else { return }
        if let s = window.surface, let b = scene.treeBounds(s) { output.damage(logical: b) }
        scene.overrideRedirect.removeAll { $0 === window }
        scene.changed(.layout)
        clock.schedule()
    }

    // MARK: Popups

    func popupMapped(_ popup: XdgPopup) {
        scene.popups.append(popup)
        popup.xdgSurface.surface.map { layout.updateOutputs(of: $0, in: scene) }
        if let s = popup.xdgSurface.surface { scene.damageTree(s) }
        scene.changed(.layout)
        clock.schedule()
    }

    func popupUnmapped(_ popup: XdgPopup) -> [Effect] {
        guard scene.popups.contains(where: { $0 === popup }) else { return [] }
        if let s = popup.xdgSurface.surface, let b = scene.treeBounds(s) { output.damage(logical: b) }
        scene.popups.removeAll { $0 === popup }
        return [.popupUnmapped(popup), .layoutChanged]
    }
}
