// Over 300 lines: one protocol, one file (requests, then configure, states and the version-gated events).
import CWaylandServer
import Rendering
import WaylandServer

/// `xdg_toplevel`: an application window.
final class XdgToplevel: Resource, XdgToplevelHandler, DesktopWindow {
    unowned let host: any ShellHost
    let xdgSurface: XdgSurface
    private(set) var title = ""
    private(set) var appID = ""
    private(set) var minSize = (width: Int32(0), height: Int32(0))
    private(set) var maxSize = (width: Int32(0), height: Int32(0))
    private(set) var isActivated = false
    private(set) var isMaximized = false
    private(set) var isFullscreen = false
    private(set) var isResizing = false
    /// Size asked for in the last configure (0: client decides).
    private var configuredSize = (width: Int32(0), height: Int32(0))
    /// Size to go back to when leaving maximized/fullscreen.
    private var restoreGeometry: (x: Int32, y: Int32, width: Int32, height: Int32)?
    var placed = false
    /// Mapped while another client had the keyboard: not activated, waiting for the user.
    var demandsAttention = false
    /// Placed by a harness (wlcs position_window_absolute): stays put across unmap and remap.
    var keepsPlacement = false
    private var sentInitialConfigure = false
    /// The window this one belongs to (xdg_toplevel.set_parent, or another client's window
    /// through xdg-foreign's set_parent_of): it stays above it and opens centred over it.
    private(set) weak var parent: XdgToplevel?
    /// The client's zxdg_toplevel_decoration_v1, if it made one.
    weak var decoration: ZxdgToplevelDecoration?
    /// The bar Lodestone draws above the window (server-side decorations), or nil.
    private(set) var titleBar: TitleBar?
    /// Hidden by its title bar's minimize button until activated again (`Desktop.minimize`).
    var isMinimized = false
    /// While resizing from the left or top, the opposite edge stays put.
    var resizeAnchor: (edges: UInt32, right: Int32, bottom: Int32)?

    init?(xdgSurface: XdgSurface, id: UInt32) {
        host = xdgSurface.host
        self.xdgSurface = xdgSurface
        super.init(client: xdgSurface.client, version: xdgSurface.version, id: id)
    }

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        case .destroy: destroy()
        case .setParent:
            let parent = a.object(0, as: XdgToplevel.self)
            if parent === self {
                return postError(XDG_WM_BASE_ERROR_INVALID_SURFACE_STATE.rawValue, "a toplevel cannot be its own parent")
            }
            setParent(parent)
        case .setTitle:
            title = a.string(0) ?? ""
            host.windowChanged(self)
            if xdgSurface.isMapped { if let bar = titleBar { host.damageOutput(logical: bar.frame) }; host.scheduleFrame() }
        case .setAppId:
            appID = a.string(0) ?? ""
            host.windowChanged(self)
        case .showWindowMenu: break  // no window menu in Lodestone
        case .move: host.startMove(self, serial: a.uint(1))
        case .resize:
            guard a.uint(2) <= 10, a.uint(2) != 3, a.uint(2) != 7 else {
                return postError(XDG_TOPLEVEL_ERROR_INVALID_RESIZE_EDGE.rawValue, "resize edge \(a.uint(2)) is not an xdg_toplevel.resize_edge value")
            }
            host.startResize(self, serial: a.uint(1), edges: a.uint(2))
        case .setMaxSize:
            guard a.int(0) >= 0, a.int(1) >= 0 else { return postError(XDG_TOPLEVEL_ERROR_INVALID_SIZE.rawValue, "max size \(a.int(0))×\(a.int(1)) is negative") }
            maxSize = (a.int(0), a.int(1))
        case .setMinSize:
            guard a.int(0) >= 0, a.int(1) >= 0 else { return postError(XDG_TOPLEVEL_ERROR_INVALID_SIZE.rawValue, "min size \(a.int(0))×\(a.int(1)) is negative") }
            minSize = (a.int(0), a.int(1))
        case .setMaximized: setMaximized(true)
        case .unsetMaximized: setMaximized(false)
        case .setFullscreen: setFullscreen(true)
        case .unsetFullscreen: setFullscreen(false)
        case .setMinimized:  // as its title bar's minimize button: hidden until activated again
            host.minimizeWindow(self)
            host.scheduleFrame()
        }
    }

    // MARK: Configure

    /// Sends configure with the current states and a size (0×0: client picks); returns its serial.
    @discardableResult
    func configure(width: Int32, height: Int32) -> UInt32 {
        configuredSize = (width, height)
        var states: [UInt32] = []
        if isMaximized { states.append(XDG_TOPLEVEL_STATE_MAXIMIZED.rawValue) }
        if isFullscreen { states.append(XDG_TOPLEVEL_STATE_FULLSCREEN.rawValue) }
        if isResizing { states.append(XDG_TOPLEVEL_STATE_RESIZING.rawValue) }
        if isActivated { states.append(XDG_TOPLEVEL_STATE_ACTIVATED.rawValue) }
        if isMaximized {
            // Since 2: a maximized window has no free edges.
            if has(2) {
                states += [XDG_TOPLEVEL_STATE_TILED_LEFT, XDG_TOPLEVEL_STATE_TILED_RIGHT,
                           XDG_TOPLEVEL_STATE_TILED_TOP, XDG_TOPLEVEL_STATE_TILED_BOTTOM].map(\.rawValue)
            }
        }
        withArray(states) { states in send { xdg_toplevel_send_configure($0, width, height, states) } }
        // Task bars hear the states (activated, maximized, fullscreen).
        host.windowChanged(self)
        return xdgSurface.sendConfigure()
    }

    /// Re-sends the current configure (state change only).
    @discardableResult
    func reconfigure() -> UInt32 { configure(width: configuredSize.width, height: configuredSize.height) }

    /// Re-sends the current configure once the initial one went out (before it, the initial
    /// commit's configure carries the news).
    func reconfigureIfStarted() { if sentInitialConfigure { reconfigure() } }

    func resizeStarted(edges: UInt32) {
        let g = xdgSurface.geometry, p = xdgSurface.position
        resizeAnchor = (edges, p.x.clampedAdding(g.width), p.y.clampedAdding(g.height))
        setResizing(true)
    }

    func resize(width: Int32, height: Int32) { configure(width: width, height: height) }

    /// A resize ended: the anchor holds until the client has answered the configure that
    /// ended it (its last resized commit may still come), then the window is free again.
    func resizeEnded() {
        setResizing(false)
        resizeAnchorUntil = reconfigure()
    }

    /// The serial whose acknowledgement releases `resizeAnchor`.
    private var resizeAnchorUntil: UInt32?

    func configureAcknowledged(_ serial: UInt32) {}

    func setActivated(_ on: Bool) {
        guard on != isActivated else { return }
        isActivated = on
        if sentInitialConfigure { reconfigure() }
    }

    func setResizing(_ on: Bool) { isResizing = on }

    /// A new parent (nil: none). A parent that is (through its own parents) this window
    /// would make a loop: it is refused by keeping no parent.
    func setParent(_ newParent: XdgToplevel?) {
        var ancestor = newParent
        while let a = ancestor {
            if a === self { parent = nil; return }
            ancestor = a.parent
        }
        parent = newParent
        host.windowChanged(self)
        if newParent != nil, xdgSurface.isMapped { host.raiseWindow(self) }
    }

    /// The title bar's maximize button and double click.
    func toggleMaximized() { setMaximized(!isMaximized) }

    /// A task bar asks: as if the client had asked (one configure per state that changes).
    func setSizeState(maximized: Bool, fullscreen: Bool) {
        if maximized != isMaximized { setMaximized(maximized) }
        if fullscreen != isFullscreen { setFullscreen(fullscreen) }
    }

    /// Server-side decorations on or off (zxdg_toplevel_decoration_v1's mode): the bar
    /// appears above the window, or goes.
    func setServerSideDecorated(_ on: Bool) {
        guard on != (titleBar != nil) else { return }
        if let bar = titleBar, xdgSurface.isMapped { host.damageOutput(logical: bar.frame) }
        titleBar = on ? host.makeTitleBar(for: self) : nil
        if let bar = titleBar, xdgSurface.isMapped { host.damageOutput(logical: bar.frame) }
        // A maximized window makes room for its bar, or takes the room back.
        if isMaximized && sentInitialConfigure { applySizeState() }
        host.sceneLayoutChanged()
        host.scheduleFrame()
    }

    /// Height of Lodestone's bar above the window (0 without one, or fullscreen).
    var decorationHeight: Int32 { titleBar != nil && !isFullscreen ? TitleBar.height : 0 }
    /// Where a maximized or fullscreen window's geometry goes: below its bar, if it has one.
    var maximizedOrigin: (x: Int32, y: Int32) {
        let area = host.workArea(of: self)
        return (area.x, area.y &+ (isFullscreen ? 0 : decorationHeight))
    }

    private func setMaximized(_ on: Bool) {
        guard sentInitialConfigure else { isMaximized = on; return }
        if on && !isMaximized && !isFullscreen { rememberGeometry() }
        isMaximized = on
        applySizeState()
    }

    private func setFullscreen(_ on: Bool) {
        guard sentInitialConfigure else { isFullscreen = on; return }
        if on && !isFullscreen && !isMaximized { rememberGeometry() }
        isFullscreen = on
        applySizeState()
    }

    private func rememberGeometry() {
        let g = xdgSurface.geometry
        restoreGeometry = (xdgSurface.position.x, xdgSurface.position.y, g.width, g.height)
    }

    /// Maximized and fullscreen windows fill the output; leaving restores the old size.
    private func applySizeState() {
        let area = host.workArea(of: self)
        if isFullscreen {
            configure(width: area.width, height: area.height)
        } else if isMaximized {
            configure(width: area.width, height: max(1, area.height - decorationHeight))
        } else if let r = restoreGeometry {
            restoreGeometry = nil
            configure(width: r.width, height: r.height)
            pendingMoveTo = (r.x, r.y)
        } else {
            configure(width: 0, height: 0)
        }
    }

    /// The output changed size: maximized and fullscreen windows follow.
    func outputResized() {
        if isMaximized || isFullscreen { applySizeState() }
    }

    /// Position to take once the client commits the restored size.
    private var pendingMoveTo: (Int32, Int32)?

    // MARK: Commit

    func committed() {
        guard let surface = xdgSurface.surface else { return }
        if !sentInitialConfigure {
            // The initial commit carries no buffer; answer with the first configure.
            sendInitialConfigure()
            return
        }
        if surface.hasContent && !xdgSurface.isMapped {
            xdgSurface.isMapped = true
            if isMaximized || isFullscreen { xdgSurface.position = maximizedOrigin; placed = true }
            host.windowMapped(self)
        } else if !surface.hasContent && xdgSurface.isMapped {
            unmap()
            // A null buffer resets the window to its pre-initial-commit state.
            sentInitialConfigure = false
            placed = keepsPlacement
        } else if xdgSurface.isMapped {
            if isMaximized || isFullscreen, xdgSurface.position != maximizedOrigin {
                host.moveWindow(self, to: maximizedOrigin.x, maximizedOrigin.y)
            } else if let (x, y) = pendingMoveTo {
                pendingMoveTo = nil
                host.moveWindow(self, to: x, y)
            } else if let anchor = resizeAnchor {
                let g = xdgSurface.geometry
                var (x, y) = xdgSurface.position
                if anchor.edges & XDG_TOPLEVEL_RESIZE_EDGE_LEFT.rawValue != 0 { x = anchor.right.clampedSubtracting(g.width) }
                if anchor.edges & XDG_TOPLEVEL_RESIZE_EDGE_TOP.rawValue != 0 { y = anchor.bottom.clampedSubtracting(g.height) }
                if (x, y) != xdgSurface.position { host.moveWindow(self, to: x, y) }
                if let until = resizeAnchorUntil, let acked = xdgSurface.ackedSerial, acked &- until < 1 << 31 {
                    resizeAnchor = nil
                    resizeAnchorUntil = nil
                }
            }
        }
    }

    /// The answer to the initial commit; also sent when a buffer comes without
    /// one under `Options.acceptsBufferBeforeInitialAck`.
    func sendInitialConfigure() {
        guard !sentInitialConfigure else { return }
        sentInitialConfigure = true
        // Since 4 / 5
        let area = host.workArea(of: self)
        if has(4) { send { xdg_toplevel_send_configure_bounds($0, area.width, area.height) } }
        if has(5) {
            let caps = [XDG_TOPLEVEL_WM_CAPABILITIES_MAXIMIZE, XDG_TOPLEVEL_WM_CAPABILITIES_FULLSCREEN].map(\.rawValue)
            withArray(caps) { caps in send { xdg_toplevel_send_wm_capabilities($0, caps) } }
        }
        if isMaximized || isFullscreen { applySizeState() } else { configure(width: 0, height: 0) }
    }

    func unmap() {
        guard xdgSurface.isMapped else { return }
        xdgSurface.isMapped = false
        isActivated = false
        isMinimized = false
        host.windowUnmapped(self)
    }

    /// Asks the client to close (used when the session ends or a test asks).
    func sendClose() { send { xdg_toplevel_send_close($0) } }

    // MARK: DesktopWindow

    var surface: WlSurface? { xdgSurface.surface }
    var position: (x: Int32, y: Int32) {
        get { xdgSurface.position }
        set { xdgSurface.position = newValue }
    }
    var geometry: PixelRect { xdgSurface.geometry }
    var surfaceOrigin: (Int32, Int32) { xdgSurface.surfaceOrigin }
    var isMapped: Bool { xdgSurface.isMapped }
    var parentWindow: DesktopWindow? { parent }
    var preferredPosition: (x: Int32, y: Int32)? { nil }
    func requestSize(width: Int32, height: Int32) { configure(width: width, height: height) }

    override func destroyed() {
        if let decoration {
            decoration.postError(ZXDG_TOPLEVEL_DECORATION_V1_ERROR_ORPHANED.rawValue,
                                 "xdg_toplevel@\(objectID) was destroyed before its zxdg_toplevel_decoration_v1")
        }
        unmap()
        host.toplevelDestroyed(self)
        xdgSurface.toplevel = nil
    }
}
