import CWaylandServer
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
///
/// A managed window gets Lodestone's title bar above it (drawn by the compositor, not
/// reparented in X) unless `_MOTIF_WM_HINTS` asks for no decorations, as GTK's
/// client-side decorated windows do. Maximized, fullscreen and minimized are Lodestone's
/// decisions, reflected to X in `_NET_WM_STATE` (`XWM.writeState`).
final class XwaylandWindow: DesktopWindow {
    private unowned let wm: XWM
    private unowned let host: any XwaylandHost
    let id: XWindowID
    var overrideRedirect: Bool
    /// The X geometry: position on the root window and size.
    var x: Int32, y: Int32, width: Int32, height: Int32
    /// _NET_WM_NAME wins over WM_NAME.
    var netTitle: String?, icccmTitle = ""
    /// WM_CLASS's class (e.g. "XTerm").
    var windowClass = "" { didSet { host.windowChanged(self) } }
    var transientFor: XWindowID?
    /// WM_PROTOCOLS atoms.
    var protocols: Set<XAtom> = []
    /// WM_HINTS input: false only when the window says it never takes the focus.
    var acceptsInput = true
    /// WM_NORMAL_HINTS USPosition: the user asked for the position.
    var userPosition = false
    /// WM_NORMAL_HINTS minimum and maximum sizes (0: none).
    var minSize = (width: Int32(0), height: Int32(0)), maxSize = (width: Int32(0), height: Int32(0))
    /// `_MOTIF_WM_HINTS` asked for no title (GTK's client-side decorations).
    var undecorated = false { didSet { if undecorated != oldValue { updateDecoration() } } }
    /// The bar Lodestone draws above the window, or nil.
    private(set) var titleBar: TitleBar?
    private(set) var isMaximized = false
    private(set) var isFullscreen = false
    /// The geometry to go back to when leaving maximized or fullscreen.
    private var restoreGeometry: (x: Int32, y: Int32, width: Int32, height: Int32)?
    var isMinimized = false { didSet { if isMinimized != oldValue { wm.writeState(self) } } }
    /// X has the window mapped.
    var xMapped = false { didSet { updateMapped() } }
    private var role: XwaylandSurface?
    private(set) weak var surface: WlSurface?
    private(set) var isMapped = false
    private(set) var isActivated = false
    var placed = false
    var demandsAttention = false

    init(wm: XWM, host: any XwaylandHost, id: XWindowID, overrideRedirect: Bool, x: Int32, y: Int32, width: Int32, height: Int32) {
        self.wm = wm
        self.host = host
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
            host.log.warning("X window 0x\(String(id, radix: 16)) names wl_surface@\(surface.objectID), which already has the role \(surface.roleName ?? "?")")
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
    /// so it is placed over the parent and stacked above it. Not when the parent is, through
    /// its own WM_TRANSIENT_FOR, transient for this window: two windows transient for each
    /// other (x11_fuzz.py's transient-cycle) waited for each other and neither ever showed.
    private var waitsForParent: Bool {
        guard !overrideRedirect, let parent = wm.window(transientFor), parent !== self else { return false }
        return parent.xMapped && !parent.isMapped && !parent.isTransient(for: self)
    }

    /// Whether `window` is among this window's transient ancestors (WM_TRANSIENT_FOR,
    /// followed until it ends or repeats).
    private func isTransient(for window: XwaylandWindow) -> Bool {
        var seen: Set<XWindowID> = [id]
        var next = wm.window(transientFor)
        while let ancestor = next, seen.insert(ancestor.id).inserted {
            if ancestor === window { return true }
            next = wm.window(ancestor.transientFor)
        }
        return false
    }

    func updateMapped() {
        let shows = xMapped && surface?.hasContent == true && !waitsForParent
        if shows && !isMapped {
            isMapped = true
            if overrideRedirect {
                host.overrideRedirectMapped(self)
            } else {
                host.windowMapped(self)
                wm.transients(of: id).forEach { $0.updateMapped() }
            }
        } else if !shows && isMapped {
            unmap()
        }
    }

    private func unmap() {
        guard isMapped else { return }
        if overrideRedirect { host.overrideRedirectUnmapped(self) } else { host.windowUnmapped(self) }
        isMapped = false
        isActivated = false
        isMinimized = false
    }

    // MARK: Decoration

    /// A managed window has a title bar unless it asked for none; an override-redirect
    /// one never has.
    func updateDecoration() {
        let wants = !overrideRedirect && !undecorated
        guard wants != (titleBar != nil) else { return }
        if let bar = titleBar, isMapped { host.damageOutput(logical: bar.frame) }
        titleBar = wants ? host.makeTitleBar(for: self) : nil
        if let bar = titleBar, isMapped { host.damageOutput(logical: bar.frame) }
        wm.writeFrameExtents(self)
        // A maximized window makes room for its bar, or takes the room back.
        if isMaximized && !isFullscreen { applySizeState() }
        if isMapped {
            host.sceneLayoutChanged()
            host.scheduleFrame()
        }
    }

    /// WM_NAME or _NET_WM_NAME changed: the bar shows the new title.
    func titleChanged() {
        host.windowChanged(self)
        guard isMapped, let bar = titleBar else { return }
        host.damageOutput(logical: bar.frame)
        host.scheduleFrame()
    }

    // MARK: Maximized and fullscreen

    func toggleMaximized() { setSizeState(maximized: !isMaximized, fullscreen: isFullscreen) }

    /// Maximized and fullscreen windows fill the output (a maximized one below its bar);
    /// leaving both restores the geometry the window had before.
    func setSizeState(maximized: Bool, fullscreen: Bool) {
        guard !overrideRedirect, (maximized, fullscreen) != (isMaximized, isFullscreen) else { return }
        if !isMaximized && !isFullscreen { restoreGeometry = (x, y, width, height) }
        isMaximized = maximized
        isFullscreen = fullscreen
        host.windowChanged(self)
        applySizeState()
        wm.writeState(self)
    }

    private func applySizeState() {
        let area = host.workArea(of: self)
        if isFullscreen {
            setGeometry(x: area.x, y: area.y, width: area.width, height: area.height)
        } else if isMaximized {
            let bar = decorationHeight
            setGeometry(x: area.x, y: area.y &+ bar, width: area.width, height: max(1, area.height - bar))
        } else if let r = restoreGeometry {
            restoreGeometry = nil
            // A window maximized before it was placed may come back where X created it:
            // its bar stays on screen.
            setGeometry(x: r.x, y: max(r.y, decorationHeight), width: r.width, height: r.height)
        }
    }

    // MARK: Interactive resize

    /// While resizing from the left or top, the right or bottom edge stays put.
    private var resizeAnchor: (edges: UInt32, right: Int32, bottom: Int32)?

    func resizeStarted(edges: UInt32) { resizeAnchor = (edges, x.clampedAdding(width), y.clampedAdding(height)) }

    func resize(width: Int32, height: Int32) {
        guard let anchor = resizeAnchor else { return }
        let left = anchor.edges & XDG_TOPLEVEL_RESIZE_EDGE_LEFT.rawValue != 0, top = anchor.edges & XDG_TOPLEVEL_RESIZE_EDGE_TOP.rawValue != 0
        setGeometry(x: left ? anchor.right.clampedSubtracting(width) : x, y: top ? anchor.bottom.clampedSubtracting(height) : y,
                    width: width, height: height)
    }

    func resizeEnded() { resizeAnchor = nil }

    /// Lodestone's choice of geometry: drawn there at once and told to X.
    func setGeometry(x: Int32, y: Int32, width: Int32, height: Int32) {
        if let s = surface, isMapped { host.damageSurfaceTree(s) }
        (self.x, self.y, self.width, self.height) = (x, y, max(1, width), max(1, height))
        wm.configure(self)
        if let s = surface, isMapped {
            host.surfaceLayoutChanged(s)
        }
    }

    // MARK: Geometry from X

    /// X moved or resized the window (ConfigureNotify): what is drawn follows.
    func xConfigured(x: Int32, y: Int32, width: Int32, height: Int32) {
        guard (x, y, width, height) != (self.x, self.y, self.width, self.height) else { return }
        if let s = surface, isMapped { host.damageSurfaceTree(s) }
        (self.x, self.y, self.width, self.height) = (x, y, width, height)
        if let s = surface, isMapped {
            host.surfaceLayoutChanged(s)
        }
    }

    // MARK: DesktopWindow

    var title: String { netTitle ?? icccmTitle }
    /// _NET_WM_PID: the X client's process, for its accessibility geometry.
    var processID: Int32?
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
    var decorationHeight: Int32 { titleBar != nil && !isFullscreen ? TitleBar.height : 0 }
    var maximizedOrigin: (x: Int32, y: Int32) {
        let area = host.workArea(of: self)
        return (area.x, area.y &+ (isFullscreen ? 0 : decorationHeight))
    }

    /// A transient (a dialog) is centred over its parent; a window whose user chose its
    /// position keeps it (moved down if its title bar would be off screen); others are
    /// cascaded.
    var preferredPosition: (x: Int32, y: Int32)? {
        if let parent = wm.window(transientFor), parent.isMapped {
            return (parent.x + (parent.width - width) / 2, max(decorationHeight, parent.y + (parent.height - height) / 2))
        }
        return userPosition ? (x, max(y, decorationHeight)) : nil
    }

    func setActivated(_ on: Bool) {
        guard on != isActivated else { return }
        isActivated = on
        host.windowChanged(self)
        // X keeps its own focus: it follows ours, and leaves when a Wayland window takes it.
        if on { wm.focus(self) } else if wm.focused == id { wm.focus(nil) }
    }

    func requestSize(width: Int32, height: Int32) {
        if width > 0 { self.width = width }
        if height > 0 { self.height = height }
        wm.configure(self)
    }

    /// The output changed size: maximized and fullscreen windows follow.
    func outputResized() { if isMaximized || isFullscreen { applySizeState() } }

    func sendClose() { wm.close(self) }
}
