import CWaylandServer
import LodestoneSystem
import Rendering
import WaylandServer

/// Heads coming and going, and modes changing: the composed frame follows the layout's
/// bounding box, the pointer stays on a head, windows stay visible.
extension Compositor {
    /// A new mode for a single head (the nested window was resized, or moved to an
    /// output of another scale): maximized and fullscreen windows follow, the
    /// pointer stays on the output, and everything is redrawn.
    public func reconfigureOutput(width: Int32, height: Int32, scale: OutputScale) {
        guard width != output.width || height != output.height || scale != output.scale else { return }
        if layout.heads.count == 1 {
            let head = layout.heads[0]
            head.bounds = PixelRect(x: 0, y: 0, width: width, height: height)
            // The window is the head: its one mode is the window's size in pixels.
            head.mode = HeadMode(width: scale.pixels(width), height: scale.pixels(height), refreshMilliHz: head.refreshMilliHz, isPreferred: true)
            head.modes = [head.mode]
            head.scale = scale
        }
        output.reconfigure(width: width, height: height, scale: scale)
        layoutChanged()
    }

    /// A head was plugged in: it goes to the right of the others and gets its wl_output.
    @discardableResult
    public func addOutput(_ mode: OutputMode) throws(SystemError) -> OutputHead {
        let head = OutputHead(mode, scale: output.scale)
        layout.append(head)
        try offer(head)
        output.reconfigure(width: layout.size.width, height: layout.size.height, scale: output.scale)
        layoutChanged()
        log.info("output \(mode.name) added: \(mode.width)×\(mode.height) at \(head.bounds.x),\(head.bounds.y)")
        return head
    }

    /// A head was unplugged: its wl_output is withdrawn, the heads to its right move left
    /// into its place, and their windows with them; its own windows move onto the first
    /// remaining head at the same place within it (pulled in to stay on it), so none is
    /// lost off screen. The last head is never removed (false, as for an unknown name).
    @discardableResult
    public func removeOutput(named name: String) -> Bool {
        guard layout.heads.count > 1, let head = layout.head(named: name) else { return false }
        let windows = windowPlaces()
        layout.remove(head)
        if let global = head.global { retire(global) }
        head.global = nil
        output.reconfigure(width: layout.size.width, height: layout.size.height, scale: output.scale)
        relocate(windows)
        layoutChanged()
        log.info("output \(name) removed; \(layout.heads.count) left")
        return true
    }

    /// A removed head's global: clients are told at once (`wl_global_remove`), and it is
    /// destroyed `withdrawnGlobalLinger` later, when no client can still be binding it on
    /// the strength of an announcement it had not yet read (a bind to a destroyed global
    /// would be a protocol error, `invalid global`). The head goes with it (its global's
    /// bind holds it); a wl_output bound late describes it, and enters no surface.
    func retire(_ global: WaylandGlobal) {
        global.withdraw()
        let id = ObjectIdentifier(global)
        guard let timer = try? display.eventLoop.addTimer({ [unowned self] in
            self.withdrawnGlobals.removeAll { ObjectIdentifier($0.global) == id }
        }) else {
            globals.append(global)  // no timer (out of file descriptors): kept until exit
            return
        }
        timer.arm(milliseconds: max(1, withdrawnGlobalLinger))
        withdrawnGlobals.append((global, timer))
    }

    /// Tells a surface's client which heads the surface is on (`OutputLayout.updateOutputs`).
    func updateOutputs(of surface: WlSurface) { layout.updateOutputs(of: surface, in: scene) }

    /// Where a window maximizes and fills: the head it overlaps most, less what the layer
    /// shell's exclusive zones (a panel) reserve on it.
    func workArea(of window: DesktopWindow) -> PixelRect { workAreas.workArea(of: window) }

    /// Every window with the head it is on and its place, before the layout changes
    /// (`relocate`).
    func windowPlaces() -> [WindowPlace] {
        (scene.windows + scene.minimized).map { window in
            let head = layout.head(for: frame(of: window))
            return WindowPlace(window: window, head: head, was: head?.bounds ?? PixelRect(x: 0, y: 0, width: 0, height: 0), position: window.position)
        }
    }

    /// After the layout changed: each window keeps its place within its head, wherever the
    /// head went; one whose head went or was switched off goes to the first head, and one
    /// whose head changed size is pulled in to stay on it, so none is lost off screen.
    func relocate(_ places: [WindowPlace]) {
        guard let first = layout.heads.first else { return }
        for place in places {
            guard let old = place.head else { continue }
            let stays = layout.heads.contains { $0 === old }
            let now = stays ? old.bounds : first.bounds, was = place.was
            var x = place.position.x &- was.x &+ now.x, y = place.position.y &- was.y &+ now.y
            if !stays || now.width != was.width || now.height != was.height {
                let g = place.window.geometry
                x = max(now.x, min(x, now.maxX &- g.width))
                y = max(now.y &+ place.window.decorationHeight, min(y, now.maxY &- g.height))
            }
            guard (x, y) != place.position else { continue }
            if place.window.isMapped && !place.window.isMinimized { desktop.move(place.window, to: x, y) } else { place.window.position = (x, y) }
        }
    }

    /// A window's geometry in global coordinates.
    private func frame(of window: DesktopWindow) -> PixelRect {
        let g = window.geometry
        return PixelRect(x: window.position.x, y: window.position.y, width: g.width, height: g.height)
    }

    /// After the layout or the mode changed: windows filling a head follow it, the pointer
    /// stays on a head, clients hear the new geometry (wl_output, xdg_output,
    /// zwlr_output_manager_v1), screen copies the new frame, and everything is redrawn.
    func layoutChanged() {
        // The clock ticks at the fastest head's rate (each head takes its frames at its own).
        if let fastest = layout.heads.map(\.refreshMilliHz).max() { clock.retune(refreshHz: fastest / 1000) }
        output.damageAll()
        // Layer surfaces follow their heads (and close with a head that went) first, so
        // maximized windows fill what the panels leave.
        layerShell.arrange()
        for window in scene.windows { window.outputResized() }
        seat.outputChanged(bounds: output.logicalBounds, areas: layout.areas)
        scene.forEachMappedRoot(updateOutputs)
        screencopy.outputChanged()
        for head in layout.heads { for resource in head.resources { resource.sendAll() } }
        outputManagement.headsChanged()
        if scene.lock != nil { apply(sessionLock.layoutChanged()) }
        scheduleFrame()
    }
}

/// A window, the head it was on (its rectangle then) and its place, while the layout changes.
struct WindowPlace {
    let window: DesktopWindow
    let head: OutputHead?
    let was: PixelRect
    let position: (x: Int32, y: Int32)
}
