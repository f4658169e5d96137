import Logging
import Rendering
import WaylandServer

/// What the layer shell asks of the core: the heads, the scene it adds surfaces to, the
/// keyboard, and the windows that fill what the layers leave (`Compositor+LayerShell.swift`).
protocol LayerShellHost: AnyObject {
    var log: Logger { get }
    var layout: OutputLayout { get }
    var scene: Scene { get }
    func nextSerial() -> UInt32
    /// The head the pointer is on.
    var headUnderPointer: OutputHead? { get }
    var keyboardFocus: WlSurface? { get }
    func setKeyboardFocus(_ surface: WlSurface?)
    /// The keyboard goes back to the active window (or the topmost one).
    func returnKeyboardToWindows()
    /// Maximized and fullscreen windows fill their head's work area anew.
    func workAreasChanged()
    /// The adaptation reads a mapped surface's accessible elements (AT-SPI).
    func layerShown(_ layer: ZwlrLayerSurface)
    func updateOutputs(of surface: WlSurface)
    func scheduleFrame()
}

/// zwlr_layer_shell_v1's state: every layer surface, where each is, what the exclusive
/// zones leave of each head (the work area maximized windows fill) and who holds the
/// keyboard. The scene draws the mapped ones (`Scene.layers`): background and bottom under
/// the windows, top and overlay above them, the pointer above all.
final class LayerShell {
    private unowned let host: any LayerShellHost
    /// Every live layer surface, oldest first (the order sway arranges them in).
    private var surfaces: [ZwlrLayerSurface] = []
    /// Each head's area left by the exclusive zones of its mapped surfaces.
    private var workAreas: [ObjectIdentifier: PixelRect] = [:]

    init(host: any LayerShellHost) { self.host = host }

    var currentHead: OutputHead? { host.headUnderPointer }
    func nextSerial() -> UInt32 { host.nextSerial() }

    /// What maximized windows fill on `head`: the head less the layers' exclusive zones.
    func workArea(of head: OutputHead) -> PixelRect { workAreas[ObjectIdentifier(head)] ?? head.bounds }

    // MARK: Surfaces coming and going

    func added(_ surface: ZwlrLayerSurface) { surfaces.append(surface) }

    func forget(_ surface: ZwlrLayerSurface) {
        guard surfaces.contains(where: { $0 === surface }) else { return }
        surfaces.removeAll { $0 === surface }
        arrange()
    }

    func mapped(_ layer: ZwlrLayerSurface) {
        host.scene.layers[Int(layer.current.layer.rawValue)].append(layer)
        arrange()
        guard let surface = layer.surface else { return }
        host.updateOutputs(of: surface)
        host.scene.damageTree(surface)
        host.scene.changed(.layout)
        // A launcher above the windows takes the keyboard as it opens (sway does the same
        // for on_demand there); on the lower layers only a click gives it.
        if layer.current.layer.isAboveWindows, layer.current.keyboard != .none { host.setKeyboardFocus(surface) }
        // Its accessible elements are read now, before the pointer comes, as a window's are.
        host.layerShown(layer)
        host.scheduleFrame()
        host.log.debug("mapped layer surface '\(layer.namespace)' on \(layer.head?.name ?? "no head") (\(layer.current.layer)) at \(layer.box)")
    }

    func unmapped(_ layer: ZwlrLayerSurface) {
        let scene = host.scene
        if let surface = layer.surface, let b = scene.treeBounds(surface) { scene.damage(logical: b) }
        for i in scene.layers.indices { scene.layers[i].removeAll { $0 === layer } }
        scene.popups.filter { $0.rootLayer === layer }.reversed().forEach { $0.dismiss() }
        arrange()
        if let surface = layer.surface, holdsKeyboard(surface) { host.returnKeyboardToWindows() }
        scene.changed(.layout)
        host.scheduleFrame()
    }

    /// A mapped or initialized surface committed a new placement: another layer, size,
    /// anchor, zone, margin or keyboard interactivity.
    func placementChanged(_ layer: ZwlrLayerSurface, from before: LayerPlacement) {
        let scene = host.scene
        if layer.isMapped, before.layer != layer.current.layer {
            for i in scene.layers.indices { scene.layers[i].removeAll { $0 === layer } }
            scene.layers[Int(layer.current.layer.rawValue)].append(layer)
        }
        arrange()
        guard layer.isMapped, let surface = layer.surface else { return }
        if layer.current.keyboard == .none, holdsKeyboard(surface) { host.returnKeyboardToWindows() }
        scene.damageTree(surface)
        scene.changed(.layout)
        host.scheduleFrame()
    }

    private func holdsKeyboard(_ surface: WlSurface) -> Bool {
        guard let focus = host.keyboardFocus else { return false }
        return focus === surface || host.scene.layerSurface(of: focus)?.surface === surface
    }

    // MARK: Arranging

    /// Places every surface on every head as sway does: surfaces with an exclusive zone
    /// first, overlay down to background, each taking its zone off the work area; then the
    /// rest within what is left. Surfaces whose head went are closed. Configures go to
    /// those whose size changed; maximized windows follow a changed work area.
    func arrange() {
        // Closing a surface unmaps it, which arranges again: that pass runs after this one.
        guard !arranging else { return arrangeAgain = true }
        arranging = true
        repeat {
            arrangeAgain = false
            arrangeOnce()
        } while arrangeAgain
        arranging = false
    }

    private var arranging = false, arrangeAgain = false

    private func arrangeOnce() {
        let heads = host.layout.heads
        for layer in surfaces where !layer.isClosed && layer.initialized {
            if layer.head.map({ head in !heads.contains { $0 === head } }) ?? true { layer.close() }
        }
        var changed = false
        var areas: [ObjectIdentifier: PixelRect] = [:]
        for head in heads {
            let on = surfaces.filter { $0.head === head && $0.initialized && !$0.isClosed }
            var usable = head.bounds
            for exclusive in [true, false] {
                for layer in ShellLayer.allCases.reversed() {
                    for surface in on where surface.current.layer == layer && (surface.current.exclusiveZone > 0) == exclusive {
                        // Only a mapped surface reserves space: an unmapped panel leaves none empty.
                        guard let box = surface.current.place(in: head.bounds, usable: &usable, reserves: surface.isMapped) else {
                            host.log.info("layer surface '\(surface.namespace)' has no room on \(head.name); closed")
                            surface.close()
                            continue
                        }
                        move(surface, to: box)
                        surface.configure(width: box.width, height: box.height)
                    }
                }
            }
            areas[ObjectIdentifier(head)] = usable
            if workAreas[ObjectIdentifier(head)] != usable { changed = true }
        }
        if areas.count != workAreas.count { changed = true }
        workAreas = areas
        if changed { host.workAreasChanged() }
    }

    private func move(_ layer: ZwlrLayerSurface, to box: PixelRect) {
        guard box != layer.box else { return }
        guard layer.isMapped, let surface = layer.surface else { layer.box = box; return }
        host.scene.damageTree(surface)
        layer.box = box
        host.scene.damageTree(surface)
        host.updateOutputs(of: surface)
        for popup in host.scene.popups where popup.rootLayer === layer { popup.parentMoved() }
        host.scene.changed(.layout)
        host.scheduleFrame()
    }

    // MARK: Keyboard

    /// The surface on the overlay or top layer holding the keyboard exclusively (the
    /// topmost one that asked), or nil.
    var exclusiveKeyboard: WlSurface? {
        for layer in [ShellLayer.overlay, .top] {
            if let holder = host.scene.layers[Int(layer.rawValue)].last(where: { $0.current.keyboard == .exclusive }) { return holder.surface }
        }
        return nil
    }

    /// Where the keyboard goes when `surface` asks for it: an exclusive holder keeps it
    /// from every other surface but its own popups.
    func keyboardTarget(_ surface: WlSurface?) -> WlSurface? {
        guard let holder = exclusiveKeyboard, let surface else { return surface }
        return host.scene.layerSurface(of: surface)?.surface === holder ? surface : holder
    }

    /// A press on a layer surface: one that takes the keyboard gets it (on_demand, or
    /// exclusive on a lower layer). True when the press was on a layer surface.
    func pressed(on surface: WlSurface) -> Bool {
        guard let layer = host.scene.layerSurface(of: surface), let root = layer.surface else { return false }
        // A press in one of its popups leaves the keyboard where the popup's grab put it.
        if layer.current.keyboard != .none, host.scene.rootSurface(surface) === root { host.setKeyboardFocus(root) }
        return true
    }
}
