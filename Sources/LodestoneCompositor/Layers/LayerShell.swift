import AdaptivePointerEngine
import Logging
import PointerAdaptation
import Rendering
import WaylandServer

/// zwlr_layer_shell_v1's state: every layer surface, where each is, what the exclusive
/// zones leave of each head (the work area maximized windows fill) and who holds the
/// keyboard. The scene draws the mapped ones (`Scene.layers`): background and bottom under
/// the windows, top and overlay above them, the pointer above all.
///
/// It holds its peers, not the compositor or the seat (either would be a reference back up,
/// SubsystemReferenceTests): it reads the keyboard's focus, and what the seat must do (the
/// keyboard to a surface, or back to the windows through the desktop's activation) it returns
/// as `Desktop.Effect`s, which the layer surface's handler and the seat apply (`Seat.apply`).
final class LayerShell {
    private unowned let scene: Scene, layout: OutputLayout, keyboard: KeyboardFocus, desktop: Desktop
    private unowned let accessibility: Accessibility, clock: FrameClock
    private let display: Display
    private let log: Logger
    /// Every live layer surface, oldest first (the order sway arranges them in).
    private var surfaces: [ZwlrLayerSurface] = []
    /// Each head's area left by the exclusive zones of its mapped surfaces.
    private let workAreas: WorkAreas

    /// `Compositor.Options.acceptsBufferBeforeInitialAck`: wlcs 1.5's layer-shell popup tests
    /// commit a buffer without an initial commit or an acknowledged configure.
    let acceptsBufferBeforeInitialAck: Bool

    init(scene: Scene, layout: OutputLayout, workAreas: WorkAreas, keyboard: KeyboardFocus, desktop: Desktop, accessibility: Accessibility,
         clock: FrameClock, display: Display, log: Logger, acceptsBufferBeforeInitialAck: Bool = false) {
        self.scene = scene; self.layout = layout; self.workAreas = workAreas; self.keyboard = keyboard; self.desktop = desktop
        self.accessibility = accessibility; self.clock = clock; self.display = display; self.log = log
        self.acceptsBufferBeforeInitialAck = acceptsBufferBeforeInitialAck
    }

    /// The head at `p` (the pointer): where a surface goes that names no output.
    func head(at p: Point<Global>) -> OutputHead? {
        layout.head(for: PixelRect(x: Int32(clamping: Int64(p.x)), y: Int32(clamping: Int64(p.y)), width: 1, height: 1))
    }
    func nextSerial() -> UInt32 { display.nextSerial() }

    /// What maximized windows fill on `head`: the head less the layers' exclusive zones.
    func workArea(of head: OutputHead) -> PixelRect { workAreas.workArea(of: head) }

    // MARK: Surfaces coming and going

    func added(_ surface: ZwlrLayerSurface) { surfaces.append(surface) }

    func forget(_ surface: ZwlrLayerSurface) {
        guard surfaces.contains(where: { $0 === surface }) else { return }
        surfaces.removeAll { $0 === surface }
        arrange()
    }

    func mapped(_ layer: ZwlrLayerSurface) -> [Desktop.Effect] {
        scene.layers[Int(layer.current.layer.rawValue)].append(layer)
        arrange()
        guard let surface = layer.surface else { return [] }
        scene.damageTree(surface)
        // Also tells the client which heads it is on (wl_surface.enter, `Compositor.updateOutputs`).
        scene.changed(.layout)
        // A launcher above the windows takes the keyboard as it opens (sway does the same
        // for on_demand there); on the lower layers only a click gives it (the effect returned).
        let takesKeyboard = layer.current.layer.isAboveWindows && layer.current.keyboard != .none
        // Its accessible elements are read now, before the pointer comes, as a window's are.
        accessibility.windowShown(layer)
        clock.schedule()
        log.debug("mapped layer surface '\(layer.namespace)' on \(layer.head?.name ?? "no head") (\(layer.current.layer)) at \(layer.box)")
        return takesKeyboard ? [.keyboardFocus(surface)] : []
    }

    func unmapped(_ layer: ZwlrLayerSurface) -> [Desktop.Effect] {
                if let surface = layer.surface, let b = scene.treeBounds(surface) { scene.damage(logical: b) }
        for i in scene.layers.indices { scene.layers[i].removeAll { $0 === layer } }
        scene.popups.filter { $0.rootLayer === layer }.reversed().forEach { $0.dismiss() }
        arrange()
        var effects: [Desktop.Effect] = []
        if let surface = layer.surface, holdsKeyboard(surface) { effects = returnKeyboardToWindows() }
        return effects + [.layoutChanged]
    }

    /// A mapped or initialized surface committed a new placement: another layer, size,
    /// anchor, zone, margin or keyboard interactivity.
    func placementChanged(_ layer: ZwlrLayerSurface, from before: LayerPlacement) -> [Desktop.Effect] {
                if layer.isMapped, before.layer != layer.current.layer {
            for i in scene.layers.indices { scene.layers[i].removeAll { $0 === layer } }
            scene.layers[Int(layer.current.layer.rawValue)].append(layer)
        }
        arrange()
        guard layer.isMapped, let surface = layer.surface else { return [] }
        var effects: [Desktop.Effect] = []
        if layer.current.keyboard == .none, holdsKeyboard(surface) { effects = returnKeyboardToWindows() }
        scene.damageTree(surface)
        return effects + [.layoutChanged]
    }

    /// The keyboard goes back to the active window (or the topmost one), or to none.
    private func returnKeyboardToWindows() -> [Desktop.Effect] {
        if let next = scene.windows.last(where: \.isActivated) ?? scene.windows.last { return desktop.activate(next) }
        return [.keyboardFocus(nil)]
    }

    private func holdsKeyboard(_ surface: WlSurface) -> Bool {
        guard let focus = keyboard.focus else { return false }
        return focus === surface || scene.layerSurface(of: focus)?.surface === surface
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
        let heads = layout.heads
        for layer in surfaces where !layer.isClosed && layer.initialized {
            if layer.head.map({ head in !heads.contains { $0 === head } }) ?? true { layer.close() }
        }
        var areas: [ObjectIdentifier: PixelRect] = [:]
        for head in heads {
            let on = surfaces.filter { $0.head === head && $0.initialized && !$0.isClosed }
            var usable = head.bounds
            for exclusive in [true, false] {
                for layer in ShellLayer.allCases.reversed() {
                    for surface in on where surface.current.layer == layer && (surface.current.exclusiveZone > 0) == exclusive {
                        // Only a mapped surface reserves space: an unmapped panel leaves none empty.
                        guard let box = surface.current.place(in: head.bounds, usable: &usable, reserves: surface.isMapped) else {
                            log.info("layer surface '\(surface.namespace)' has no room on \(head.name); closed")
                            surface.close()
                            continue
                        }
                        move(surface, to: box)
                        surface.configure(width: box.width, height: box.height)
                    }
                }
            }
            areas[ObjectIdentifier(head)] = usable
        }
        // Maximized and fullscreen windows fill their head's work area anew.
        if workAreas.replace(with: areas) { for window in scene.windows { window.outputResized() } }
    }

    private func move(_ layer: ZwlrLayerSurface, to box: PixelRect) {
        guard box != layer.box else { return }
        guard layer.isMapped, let surface = layer.surface else { layer.box = box; return }
        scene.damageTree(surface)
        layer.box = box
        scene.damageTree(surface)
        for popup in scene.popups where popup.rootLayer === layer { popup.parentMoved() }
        scene.changed(.layout)
        clock.schedule()
    }

    // MARK: Keyboard

    /// The surface on the overlay or top layer holding the keyboard exclusively (the
    /// topmost one that asked), or nil.
    var exclusiveKeyboard: WlSurface? {
        for layer in [ShellLayer.overlay, .top] {
            if let holder = scene.layers[Int(layer.rawValue)].last(where: { $0.current.keyboard == .exclusive }) { return holder.surface }
        }
        return nil
    }

    /// Where the keyboard goes when `surface` asks for it: an exclusive holder keeps it
    /// from every other surface but its own popups.
    func keyboardTarget(_ surface: WlSurface?) -> WlSurface? {
        guard let holder = exclusiveKeyboard, let surface else { return surface }
        return scene.layerSurface(of: surface)?.surface === holder ? surface : holder
    }

    /// A press on a layer surface: one that takes the keyboard gets it (on_demand, or
    /// exclusive on a lower layer), the seat gives it. `onLayer`: the press was on a layer
    /// surface; `keyboard`: the surface to give the keyboard to, if any.
    func pressed(on surface: WlSurface) -> (onLayer: Bool, keyboard: WlSurface?) {
        guard let layer = scene.layerSurface(of: surface), let root = layer.surface else { return (false, nil) }
        // A press in one of its popups leaves the keyboard where the popup's grab put it.
        return (true, layer.current.keyboard != .none && scene.rootSurface(surface) === root ? root : nil)
    }
}
