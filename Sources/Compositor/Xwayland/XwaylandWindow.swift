import Rendering
import WaylandServer

/// An X11 top-level window in Xwayland. A managed one is a DesktopWindow like an xdg
/// toplevel: placed, stacked and activated by Desktop. An override-redirect one (a menu,
/// a tooltip) is drawn above the windows where X put it. Either shows once X has mapped
/// it and its wl_surface (paired by WL_SURFACE_ID) has a buffer.
///
/// X and Lodestone share one coordinate space (the root window is the output, scale 1),
/// so a window's X position is where it is drawn, and menus X places relative to their
/// window land where they belong.
final class XwaylandWindow: DesktopWindow {
    private unowned let wm: XWM
    private unowned let compositor: Compositor
    let id: XWindowID
    var overrideRedirect: Bool
    /// The X geometry: position on the root window and size.
    var x: Int32, y: Int32, width: Int32, height: Int32
    /// _NET_WM_NAME wins over WM_NAME.
    var netTitle: String?, icccmTitle = ""
    /// WM_CLASS's class (e.g. "XTerm").
    var windowClass = ""
    var transientFor: XWindowID?
    /// WM_PROTOCOLS atoms.
    var protocols: Set<XAtom> = []
    /// WM_HINTS input: false only when the window says it never takes the focus.
    var acceptsInput = true
    /// WM_NORMAL_HINTS USPosition: the user asked for the position.
    var userPosition = false
    /// X has the window mapped.
    var xMapped = false { didSet { updateMapped() } }
    private var role: XwaylandSurface?
    private(set) weak var surface: WlSurface?
    private(set) var isMapped = false
    private(set) var isActivated = false
    var placed = false
    var demandsAttention = false

    init(wm: XWM, compositor: Compositor, id: XWindowID, overrideRedirect: Bool, x: Int32, y: Int32, width: Int32, height: Int32) {
        self.wm = wm
        self.compositor = compositor
        self.id = id
        self.overrideRedirect = overrideRedirect
        (self.x, self.y, self.width, self.height) = (x, y, width, height)
    }

    /// The window itself when it is managed; a menu's is its parent's (or none).
    var managedWindow: DesktopWindow? { overrideRedirect ? wm.window(transientFor) : self }

    // MARK: The surface

    /// Pairs the window with its wl_surface (WL_SURFACE_ID).
    func associate(_ surface: WlSurface) {
        guard surface !== self.surface else { return }
        surfaceAssociationEnded()
        // Only a surface with no role can be a window's; Xwayland gives none of its own.
        guard surface.role == nil, surface.roleName == nil || surface.roleName == XwaylandSurface.name else {
            compositor.log.warning("X window 0x\(String(id, radix: 16)) names wl_surface@\(surface.objectID), which already has the role \(surface.roleName ?? "?")")
            return
        }
        let role = XwaylandSurface(window: self)
        guard surface.assignRole(role, error: (surface, 0)) else { return }
        self.role = role
        self.surface = surface
        updateMapped()
    }

    /// The surface was unmapped by X or destroyed.
    func surfaceAssociationEnded() {
        unmap()
        role?.window = nil
        role = nil
        surface = nil
    }

    func surfaceCommitted() { updateMapped() }

    /// The X window is gone.
    func destroyed() {
        surfaceAssociationEnded()
        xMapped = false
    }

    /// A transient whose parent X has mapped but Lodestone does not show yet waits for it,
    /// so it is placed over the parent and stacked above it.
    private var waitsForParent: Bool {
        guard !overrideRedirect, let parent = wm.window(transientFor), parent !== self else { return false }
        return parent.xMapped && !parent.isMapped
    }

    func updateMapped() {
        let shows = xMapped && surface?.hasContent == true && !waitsForParent
        if shows && !isMapped {
            isMapped = true
            if overrideRedirect {
                compositor.desktop.overrideRedirectMapped(self)
            } else {
                compositor.desktop.windowMapped(self)
                wm.transients(of: id).forEach { $0.updateMapped() }
            }
        } else if !shows && isMapped {
            unmap()
        }
    }

    private func unmap() {
        guard isMapped else { return }
        if overrideRedirect { compositor.desktop.overrideRedirectUnmapped(self) } else { compositor.desktop.windowUnmapped(self) }
        isMapped = false
        isActivated = false
    }

    // MARK: Geometry from X

    /// X moved or resized the window (ConfigureNotify): what is drawn follows.
    func xConfigured(x: Int32, y: Int32, width: Int32, height: Int32) {
        guard (x, y, width, height) != (self.x, self.y, self.width, self.height) else { return }
        if let s = surface, isMapped { compositor.scene.damageTree(s) }
        (self.x, self.y, self.width, self.height) = (x, y, width, height)
        if let s = surface, isMapped {
            compositor.scene.damageTree(s)
            compositor.scene.changed(.layout)
            compositor.scheduleFrame()
        }
    }

    // MARK: DesktopWindow

    var title: String { netTitle ?? icccmTitle }
    var appID: String { windowClass }
    var position: (x: Int32, y: Int32) {
        get { (x, y) }
        set {
            (x, y) = newValue
            if !overrideRedirect { wm.configure(self) }
        }
    }
    var geometry: PixelRect { PixelRect(x: 0, y: 0, width: width, height: height) }
    var surfaceOrigin: (Int32, Int32) { (x, y) }
    var isMaximized: Bool { false }
    var isFullscreen: Bool { false }

    /// A transient (a dialog) is centred over its parent; a window whose user chose its
    /// position keeps it; others are cascaded.
    var preferredPosition: (x: Int32, y: Int32)? {
        if let parent = wm.window(transientFor), parent.isMapped {
            return (parent.x + (parent.width - width) / 2, parent.y + (parent.height - height) / 2)
        }
        return userPosition ? (x, y) : nil
    }

    func setActivated(_ on: Bool) {
        guard on != isActivated else { return }
        isActivated = on
        // X keeps its own focus: it follows ours, and leaves when a Wayland window takes it.
        if on { wm.focus(self) } else if wm.focused == id { wm.focus(nil) }
    }

    func requestSize(width: Int32, height: Int32) {
        if width > 0 { self.width = width }
        if height > 0 { self.height = height }
        wm.configure(self)
    }

    func outputResized() {}

    func sendClose() { wm.close(self) }
}

/// The role of a wl_surface that shows an X11 window.
final class XwaylandSurface: SurfaceRole {
    static let name = "xwayland_surface"
    var roleName: String { Self.name }
    weak var window: XwaylandWindow?

    init(window: XwaylandWindow) { self.window = window }

    func surfaceCommitted() { window?.surfaceCommitted() }
}
