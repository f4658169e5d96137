import LodestoneSystem
import Rendering

/// Heads coming and going, and modes changing: the composed frame follows the layout's
/// bounding box, the pointer stays on a head, windows stay visible.
extension Compositor {
    /// A new mode for a single head (the nested window was resized, or moved to an
    /// output of another scale): maximized and fullscreen windows follow, the
    /// pointer stays on the output, and everything is redrawn.
    public func reconfigureOutput(width: Int32, height: Int32, scale: OutputScale) {
        guard width != output.width || height != output.height || scale != output.scale else { return }
        if layout.heads.count == 1 { layout.heads[0].bounds = PixelRect(x: 0, y: 0, width: width, height: height) }
        output.reconfigure(width: width, height: height, scale: scale)
        layoutChanged()
    }

    /// A head was plugged in: it goes to the right of the others and gets its wl_output.
    @discardableResult
    public func addOutput(_ mode: OutputMode) throws(SystemError) -> OutputHead {
        let head = OutputHead(mode)
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
        let windows = (scene.windows + scene.minimized).map { ($0, layout.head(for: frame(of: $0)), $0.position) }
        let before = Dictionary(uniqueKeysWithValues: layout.heads.map { (ObjectIdentifier($0), $0.bounds) })
        layout.remove(head)
        if let global = head.global { global.withdraw(); globals.append(global) }
        head.global = nil
        output.reconfigure(width: layout.size.width, height: layout.size.height, scale: output.scale)
        for (window, old, position) in windows {
            guard let old, let was = before[ObjectIdentifier(old)] else { continue }
            let now = old === head ? layout.heads[0].bounds : old.bounds
            var x = position.x &- was.x &+ now.x, y = position.y &- was.y &+ now.y
            if old === head {
                let g = window.geometry
                x = max(now.x, min(x, now.maxX &- g.width))
                y = max(now.y &+ window.decorationHeight, min(y, now.maxY &- g.height))
            }
            guard (x, y) != position else { continue }
            if window.isMapped && !window.isMinimized { desktop.move(window, to: x, y) } else { window.position = (x, y) }
        }
        layoutChanged()
        log.info("output \(name) removed; \(layout.heads.count) left")
        return true
    }

    /// Where a window's head is, for maximizing and filling it: the head it overlaps most.
    func workArea(of window: DesktopWindow) -> PixelRect {
        layout.head(for: frame(of: window))?.bounds ?? output.bounds
    }

    /// A window's geometry in global coordinates.
    private func frame(of window: DesktopWindow) -> PixelRect {
        let g = window.geometry
        return PixelRect(x: window.position.x, y: window.position.y, width: g.width, height: g.height)
    }

    /// After the layout or the mode changed: windows filling a head follow it, the pointer
    /// stays on a head, clients hear the new geometry, and everything is redrawn.
    private func layoutChanged() {
        output.damageAll()
        for window in scene.windows { window.outputResized() }
        seat.outputChanged(bounds: output.logicalBounds, areas: layout.areas)
        screencopy.outputChanged()
        for head in layout.heads { for resource in head.resources { resource.sendAll() } }
        scheduleFrame()
    }
}
