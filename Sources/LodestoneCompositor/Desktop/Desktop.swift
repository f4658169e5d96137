import CWaylandServer
import Rendering

/// Window management policy: where new windows go, which window is active, stacking,
/// moves, and popups joining and leaving the scene. The scene holds what is where; this
/// decides it.
final class Desktop {
    private unowned let compositor: Compositor
    /// Where the next new window goes.
    private var cascade = 0

    /// Whether a new window takes the keyboard (focus-stealing prevention).
    private let newWindowFocus: NewWindowFocus
    /// Moves windows (the window switcher's slides move through it too).
    let mover: WindowMover

    init(compositor: Compositor) {
        self.compositor = compositor
        newWindowFocus = NewWindowFocus(display: compositor.display, keyboard: compositor.seat.keyboard, scene: compositor.scene,
                                        alwaysTakesFocus: compositor.newWindowsAlwaysTakeFocus)
        mover = WindowMover(scene: compositor.scene, clock: compositor.clock)
    }

    private var scene: Scene { compositor.scene }
    private var seat: Seat { compositor.seat }
    private var output: Output { compositor.output }

    // MARK: Windows

    func windowMapped(_ toplevel: DesktopWindow) {
        // A new window takes the keyboard unless a program the user neither started nor
        // uses mapped it (`NewWindowFocus`): it must not grab what the user types elsewhere.
        let (takesFocus, reason) = newWindowFocus.takesFocus(toplevel)
        // A new window takes the focus, so open menus of others close.
        if takesFocus { seat.dismissPopupGrabs() }
        if !toplevel.placed {
            place(toplevel)
            toplevel.placed = true
            fitToOutput(toplevel)
        }
        // On top either way (the user sees it open); without the keyboard it is not
        // activated and waits for the user, marked urgent. Its children go back above it.
        scene.windows.append(toplevel)
        raise(toplevel)
        if !takesFocus { toplevel.demandsAttention = true }
        toplevel.surface.map(compositor.updateOutputs)
        if let s = toplevel.surface { scene.damageTree(s) }
        if takesFocus { activate(toplevel) } else { compositor.accessibility.windowShown(toplevel) }
        // The new window may now be under the pointer.
        scene.changed(.layout)
        compositor.scheduleFrame()
        compositor.log.debug("mapped window '\(toplevel.title)' (\(toplevel.appID)) at \(toplevel.position)\(takesFocus ? "" : ", urgent"): \(reason)")
    }

    func windowUnmapped(_ toplevel: DesktopWindow) {
        scene.minimized.removeAll { $0 === toplevel }
        guard scene.windows.contains(where: { $0 === toplevel }) else { return }
        if let s = toplevel.surface, let b = scene.windowBounds(s) { output.damage(logical: b) }
        scene.windows.removeAll { $0 === toplevel }
        scene.popups.filter { $0.rootToplevel === toplevel }.reversed().forEach { $0.dismiss() }
        if seat.keyboard.focus === toplevel.surface || seat.keyboard.focus == nil {
            if let next = scene.windows.last { activate(next) } else { seat.setKeyboardFocus(nil) }
        }
        scene.changed(.layout)
        compositor.scheduleFrame()
    }

    /// Cascades new windows from the top-left, keeping them fully on screen when they fit.
    private func place(_ toplevel: DesktopWindow) {
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
        // New windows cascade on the head the pointer is on.
        let p = seat.position.logical
        // Within what the panels leave (the layer shell's exclusive zones).
        let area = compositor.layout.head(for: PixelRect(x: Int32(p.x), y: Int32(p.y), width: 1, height: 1)).map(compositor.layerShell.workArea) ?? output.bounds
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
        let area = compositor.workArea(of: toplevel)
        guard g.width > area.width || g.height > area.height else { return }
        toplevel.requestSize(width: min(g.width, area.width), height: min(g.height, area.height))
        compositor.log.debug("window '\(toplevel.title)' is \(g.width)×\(g.height), larger than the output; asked it to fit")
    }

    /// Hides a window (its title bar's minimize button) until it is activated again:
    /// off the scene, its popups closed, the keyboard to the window below.
    func minimize(_ toplevel: DesktopWindow) {
        guard toplevel.isMapped, !toplevel.isMinimized else { return }
        windowUnmapped(toplevel)
        toplevel.setActivated(false)
        toplevel.isMinimized = true
        scene.minimized.append(toplevel)
    }

    /// Raises a window and gives it the keyboard; a minimized one comes back first.
    func activate(_ toplevel: DesktopWindow) {
        if toplevel.isMinimized {
            toplevel.isMinimized = false
            scene.minimized.removeAll { $0 === toplevel }
            scene.windows.append(toplevel)
            if let s = toplevel.surface { scene.damageTree(s) }
            scene.changed(.layout)
            compositor.scheduleFrame()
        }
        toplevel.demandsAttention = false
        raise(toplevel)
        let previous = scene.windows.first { $0.isActivated && $0 !== toplevel }
        previous?.setActivated(false)
        toplevel.setActivated(true)
        seat.setKeyboardFocus(toplevel.surface)
        // Its accessible elements are read now, before the pointer comes (issue 27).
        compositor.accessibility.windowShown(toplevel)
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
        compositor.scheduleFrame()
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
        window.surface.map(compositor.updateOutputs)
        if let s = window.surface { scene.damageTree(s) }
        scene.changed(.layout)
        compositor.scheduleFrame()
    }

    func overrideRedirectUnmapped(_ window: XwaylandWindow) {
        guard scene.overrideRedirect.contains(where: { $0 === window }) else { return }
        if let s = window.surface, let b = scene.treeBounds(s) { output.damage(logical: b) }
        scene.overrideRedirect.removeAll { $0 === window }
        scene.changed(.layout)
        compositor.scheduleFrame()
    }

    // MARK: Popups

    func popupMapped(_ popup: XdgPopup) {
        scene.popups.append(popup)
        popup.xdgSurface.surface.map(compositor.updateOutputs)
        if let s = popup.xdgSurface.surface { scene.damageTree(s) }
        scene.changed(.layout)
        compositor.scheduleFrame()
    }

    func popupUnmapped(_ popup: XdgPopup) {
        guard scene.popups.contains(where: { $0 === popup }) else { return }
        if let s = popup.xdgSurface.surface, let b = scene.treeBounds(s) { output.damage(logical: b) }
        scene.popups.removeAll { $0 === popup }
        seat.popupUnmapped(popup)
        scene.changed(.layout)
        compositor.scheduleFrame()
    }
}
