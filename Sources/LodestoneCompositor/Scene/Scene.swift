import Rendering

/// What is on the output: the mapped windows and popups in stacking order, each with its
/// surface tree. The scene walks them in paint order, finds the surface under a point,
/// knows where every surface is, damages what changes and hands the renderer its elements.
///
/// Every change to what is where goes out through one notification, `changed(_:)`, that
/// the compositor forwards to the two listeners: the seat (pointer focus) and the adaptive
/// pointer (its regions follow their surfaces).
final class Scene {
    /// What changed: the content (regions were committed or follow a moved subsurface;
    /// focus stays), or the layout
    /// (a surface mapped, moved, resized, restacked or went away: focus is re-evaluated).
    enum Change { case content, layout }

    unowned let output: Output
    /// Mapped windows (xdg toplevels and managed X11 windows), bottom first.
    var windows: [DesktopWindow] = []
    /// Mapped X11 override-redirect windows (menus, tooltips), bottom first; above every
    /// window, where X put them.
    var overrideRedirect: [XwaylandWindow] = []
    /// Mapped popups, bottom first; always above every window and layer surface.
    var popups: [XdgPopup] = []
    /// Mapped layer surfaces (zwlr_layer_shell_v1), one list per `ShellLayer`, each bottom
    /// first: background and bottom under the windows, top and overlay above them
    /// (`LayerShell` keeps them).
    var layers: [[ZwlrLayerSurface]] = [[], [], [], []]
    /// Mapped windows their title bar minimized: off screen until activated (`Desktop.minimize`).
    var minimized: [DesktopWindow] = []
    /// The client cursor surface and where it is drawn (it is not in any window's tree).
    ///
    /// `cursorOrigin`, `dragIcon` and `elements` skip the dynamic exclusivity check (~60
    /// instructions each, several a frame, issue 29): the closures are set once, by the
    /// compositor's init, and `elements` is touched only by `withRenderElements`, which never
    /// re-enters itself.
    @exclusivity(unchecked) var cursorOrigin: (WlSurface) -> (Int32, Int32)? = { _ in nil }
    /// A drag's icon surface and where it is drawn, under the pointer (`DragGrab`).
    @exclusivity(unchecked) var dragIcon: () -> (surface: WlSurface, x: Int32, y: Int32)? = { nil }
    /// The input method's popup and where it is drawn: above every window and popup
    /// (`TextInputs.placePopup`).
    @exclusivity(unchecked) var inputPopup: () -> (surface: WlSurface, x: Int32, y: Int32)? = { nil }
    /// Scribble's ink, drawn over every window and popup while the pen writes.
    weak var ink: ScribbleInk?
    /// While the session is locked, all the scene shows and hits (`LockedScreen`, `SessionLock`).
    var lock: LockedScreen?
    /// The one notification; see `Change`.
    var onChange: (Change) -> Void = { _ in }
    /// The elements of the frame being composed, kept between frames so composing does
    /// not allocate once its capacity has grown to the scene.
    @exclusivity(unchecked) var elements: [RenderElement] = []

    init(output: Output) { self.output = output }

    func changed(_ change: Change) {
        guard batchDepth == 0 else {
            held = held == .layout ? .layout : change  // a layout change covers a content one
            return
        }
        onChange(change)
    }

    /// Changes made in `body` go out once, when it ends: a parent's commit applies every
    /// synchronized child, and each child's change re-placed every region and re-evaluated
    /// focus over the whole scene (2,000 subsurfaces held the loop for 27 s).
    func batchingChanges(_ body: () -> Void) {
        batchDepth += 1
        body()
        batchDepth -= 1
        if batchDepth == 0, let change = held {
            held = nil
            onChange(change)
        }
    }

    private var batchDepth = 0
    private var held: Change?

    // MARK: Where things are

    /// The surface's top-left in global coordinates, or nil when it is not on screen.
    func origin(of surface: WlSurface) -> (Int32, Int32)? {
        if let sub = surface.role as? WlSubsurface {
            // Iterative, not recursive: a deep chain of subsurfaces must not exhaust the stack.
            var x = sub.x, y = sub.y
            var parent = sub.parent
            while let p = parent, p.hasContent {
                guard let psub = p.role as? WlSubsurface else {
                    guard let (px, py) = origin(of: p) else { return nil }
                    return (px.clampedAdding(x), py.clampedAdding(y))
                }
                x = x.clampedAdding(psub.x); y = y.clampedAdding(psub.y)
                parent = psub.parent
            }
            return nil
        }
        if let xdg = surface.role as? XdgSurface, xdg.isMapped { return xdg.surfaceOrigin }
        if let layer = surface.role as? ZwlrLayerSurface, layer.isMapped { return (layer.box.x, layer.box.y) }
        if let x = (surface.role as? XwaylandSurface)?.window, x.isMapped { return x.surfaceOrigin }
        if surface.role is ExtSessionLockSurface { return lockOrigin(of: surface) }
        if let icon = dragIcon(), icon.surface === surface { return (icon.x, icon.y) }
        if let popup = inputPopup(), popup.surface === surface { return (popup.x, popup.y) }
        return cursorOrigin(surface)
    }

    /// The root surface of each mapped window and popup (what `wl_surface.enter` is sent for).
    func forEachMappedRoot(_ body: (WlSurface) -> Void) {
        for layer in layers { for surface in layer { surface.surface.map(body) } }
        for window in windows { window.surface.map(body) }
        for window in overrideRedirect { window.surface.map(body) }
        for popup in popups { popup.xdgSurface.surface.map(body) }
        if let popup = inputPopup() { body(popup.surface) }
        lock?.covers.forEach { $0.surface.map(body) }
    }

    /// Visits every mapped surface bottom to top with its global origin.
    func forEachMappedSurface(_ body: (WlSurface, Int32, Int32) -> Void) {
        if let lock { return forEachLockSurface(lock, body) }
        // Separate loops rather than a concatenated array: this runs every frame.
        visitLayers(.background ... .bottom, body)
        for window in windows { visit(window, body) }
        for window in overrideRedirect { visit(window, body) }
        visitLayers(.top ... .overlay, body)
        for popup in popups { visit(popup.xdgSurface, body) }
        if let popup = inputPopup() { walk(popup.surface, x: popup.x, y: popup.y, body) }
    }

    /// The mapped layer surfaces of `range`, bottom first.
    func visitLayers(_ range: ClosedRange<ShellLayer>, _ body: (WlSurface, Int32, Int32) -> Void) {
        for layer in Int(range.lowerBound.rawValue)...Int(range.upperBound.rawValue) {
            for view in layers[layer] where view.isMapped {
                if let surface = view.surface { walk(surface, x: view.box.x, y: view.box.y, body) }
            }
        }
    }

    func visit(_ window: DesktopWindow, _ body: (WlSurface, Int32, Int32) -> Void) {
        guard let surface = window.surface, window.isMapped else { return }
        let (x, y) = window.surfaceOrigin
        walk(surface, x: x, y: y, body)
    }

    func visit(_ view: XdgSurface, _ body: (WlSurface, Int32, Int32) -> Void) {
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
                if let child = sub.surfaceObject, child.hasContent { walk(child, x: x.clampedAdding(sub.x), y: y.clampedAdding(sub.y), body) }
            }
        }
    }

    /// The topmost surface accepting input at a global point, with local coordinates.
    /// A title bar (`TitleBar`) over the point is the compositor's: no surface is under it.
    func surfaceAt(x: Double, y: Double) -> (surface: WlSurface, sx: Double, sy: Double)? {
        if case .surface(let s, let sx, let sy) = inputTarget(atX: x, y: y) { return (s, sx, sy) }
        return nil
    }

    /// What is on top at a global point: a surface, a window's title bar, or nothing.
    enum InputTarget {
        case surface(WlSurface, Double, Double)
        case titleBar(DesktopWindow)
    }

    func inputTarget(atX x: Double, y: Double) -> InputTarget? {
        if let lock { return lockInputTarget(lock, atX: x, y: y) }
        var hit: InputTarget?
        // A local function, not a closure in a `let`: that one is escaping by its type, so
        // `hit` and its context were boxed on the heap for every motion event.
        func visitor(_ s: WlSurface, _ ox: Int32, _ oy: Int32) {
            let sx = x - Double(ox), sy = y - Double(oy)
            if s.acceptsInput(x: sx, y: sy) { hit = .surface(s, sx, sy) }
        }
        visitLayers(.background ... .bottom, visitor)
        for window in windows {
            if let bar = window.titleBar, bar.frame.contains(x: x, y: y) { hit = .titleBar(window) }
            visit(window, visitor)
        }
        for window in overrideRedirect { visit(window, visitor) }
        visitLayers(.top ... .overlay, visitor)
        for popup in popups { visit(popup.xdgSurface, visitor) }
        return hit
    }

    /// The window whose title bar is on top at a global point.
    func titleBarAt(x: Double, y: Double) -> DesktopWindow? {
        if case .titleBar(let window) = inputTarget(atX: x, y: y) { return window }
        return nil
    }

    /// Bounding box of a surface tree in global coordinates.
    func treeBounds(_ surface: WlSurface) -> PixelRect? {
        guard let (x, y) = origin(of: surface) else { return nil }
        var r = PixelRect(x: x, y: y, width: 0, height: 0)
        walk(surface, x: x, y: y) { s, sx, sy in r = r.union(PixelRect(x: sx, y: sy, width: s.width, height: s.height)) }
        return r
    }

    /// What a window covers on screen: its surface tree and the title bar Lodestone draws
    /// for it (not in `treeBounds`, which the window's geometry defaults to).
    func windowBounds(_ surface: WlSurface) -> PixelRect? {
        guard var r = treeBounds(surface) else { return nil }
        if let bar = titleBar(of: surface) { r = r.union(bar.frame) }
        return r
    }

    /// The title bar drawn for the window whose root surface this is.
    private func titleBar(of surface: WlSurface) -> TitleBar? {
        if let toplevel = (surface.role as? XdgSurface)?.toplevel { return toplevel.titleBar }
        if let window = (surface.role as? XwaylandSurface)?.window, !window.overrideRedirect { return window.titleBar }
        return nil
    }

    /// The window a surface belongs to (through subsurfaces, popups and an X11 menu's
    /// parent window).
    func window(of surface: WlSurface) -> DesktopWindow? {
        var s: WlSurface? = surface
        while let current = s {
            if let sub = current.role as? WlSubsurface { s = sub.parent; continue }
            if let xdg = current.role as? XdgSurface { return xdg.toplevel ?? xdg.popup?.rootToplevel }
            if let x = (current.role as? XwaylandSurface)?.window { return x.managedWindow }
            return nil
        }
        return nil
    }

    /// The layer surface a surface belongs to (through subsurfaces and popups), if any.
    func layerSurface(of surface: WlSurface) -> ZwlrLayerSurface? {
        let root = rootSurface(surface)
        if let layer = root.role as? ZwlrLayerSurface { return layer }
        return (root.role as? XdgSurface)?.popup?.rootLayer
    }

    /// The root of a surface's subsurface tree (its window or popup surface).
    func rootSurface(_ surface: WlSurface) -> WlSurface {
        var s = surface
        while let parent = (s.role as? WlSubsurface)?.parent { s = parent }
        return s
    }

    // MARK: Damage

    /// Repaints `rect` (global logical): where a surface was before it went.
    func damage(logical rect: PixelRect) { output.damage(logical: rect) }

    /// New content in surface-local rects. Pixels alone move no region and no focus, so
    /// nobody is told: a client drawing every frame must not make the pointer re-step
    /// (effects over it redraw through the output damage, `Frames.compose`).
    /// A surface on a plane changes none of the composed frame: its damage is the plane's
    /// (buffer pixels, handed over with the next frame) and the captures' (`planeDamage`).
    func damage(_ surface: WlSurface, _ rects: [PixelRect]) {
        guard let (x, y) = origin(of: surface) else { return }
        if surface.onPlane {
            for r in rects {
                surface.planeDamage.add(surface.surfaceRectToBuffer(r))
                output.damagePlanes(logical: r.offsetBy(dx: x, dy: y))
            }
            return
        }
        for r in rects { output.damage(logical: r.offsetBy(dx: x, dy: y)) }
    }

    /// Damages the surface and everything drawn relative to it, where they are now.
    func damageTree(_ surface: WlSurface) {
        changed(.content)  // regions follow their surfaces
        guard let (x, y) = origin(of: surface) else { return }
        // A surface on a plane is not in the composed frame, where it was or where it goes:
        // the plane moves (or the frame that composes it again damages it then).
        walk(surface, x: x, y: y) { s, sx, sy in
            let rect = PixelRect(x: sx, y: sy, width: s.width, height: s.height)
            if s.onPlane { output.damagePlanes(logical: rect) } else { output.damage(logical: rect) }
        }
        if let bar = titleBar(of: surface) { bar.damage(output) }
    }
}
