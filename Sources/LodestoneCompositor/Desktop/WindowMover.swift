/// Moves windows: each is damaged where it was and where it goes (its popups follow an
/// xdg toplevel), the scene's layout changes, and a frame is scheduled. The desktop moves
/// through it, and so does the window switcher's slide, which must not reach the desktop:
/// it holds only the scene and the clock.
final class WindowMover {
    private let scene: Scene
    private let clock: FrameClock

    init(scene: Scene, clock: FrameClock) {
        self.scene = scene
        self.clock = clock
    }

    /// Moves a window so its geometry starts at (x, y).
    func move(_ window: DesktopWindow, to x: Int32, _ y: Int32) {
        if let xdg = window as? XdgToplevel { return move(xdg.xdgSurface, to: x, y) }
        if let s = window.surface { scene.damageTree(s) }
        window.position = (x, y)
        if let s = window.surface { scene.damageTree(s) }
        scene.changed(.layout)
        clock.schedule()
    }

    /// Moves an xdg surface (a toplevel's or a popup's) so its geometry starts at (x, y);
    /// the toplevel's popups follow.
    func move(_ view: XdgSurface, to x: Int32, _ y: Int32) {
        if let s = view.surface { scene.damageTree(s) }
        view.position = (x, y)
        if let s = view.surface { scene.damageTree(s) }
        for popup in scene.popups where popup.rootToplevel?.xdgSurface === view {
            if let s = popup.xdgSurface.surface { scene.damageTree(s) }
        }
        scene.changed(.layout)
        clock.schedule()
    }
}
