import CWaylandClient
import CWaylandProtocols
import LodestoneSystem
import Logging
import Rendering
import WaylandClient

/// Lodestone's window in the parent session: a `wl_surface` with the
/// `xdg_toplevel` role, titled "Lodestone", with server-side decorations when
/// the parent offers `zxdg_decoration_manager_v1`, else with a title bar of its own
/// (`ParentTitleBar`) above the output. Its size (logical, less that bar) and the
/// scale of the parent outputs it is on make the nested output's mode: the surface's
/// preferred fractional scale when the parent offers `wp_fractional_scale_v1` (with
/// `wp_viewporter` to show a buffer of that many pixels), else the largest whole
/// `wl_output.scale`.
final class ParentWindow {
    let surface: Proxy
    private let xdgSurface: Proxy
    private let toplevel: Proxy
    private let decoration: Proxy?
    /// The surface's wp_viewport and wp_fractional_scale_v1, when the parent has them.
    let viewport: Proxy?
    private let fractionalScale: Proxy?
    /// The parent's last preferred_scale, in 120ths.
    private var preferredScale: Int32?
    private let outputs: [ParentOutput]
    private let log: Logger
    private let globals: ParentGlobals
    /// The mode the parent chose for our decoration (`zxdg_toplevel_decoration_v1`), if it has the manager.
    private var decorationMode: UInt32?
    /// The bar Lodestone draws itself when the parent draws none.
    private(set) var titleBar: ParentTitleBar?
    /// States from the last configure.
    private(set) var isMaximized = false, isActivated = false
    private var pendingStates: [UInt32] = []

    /// The mode the nested output has: logical size and scale.
    private(set) var width: Int32, height: Int32, scale: OutputScale
    /// The parent acknowledged the window with a first configure: until then
    /// attaching a buffer is a protocol error.
    private(set) var isConfigured = false
    /// Size from the last xdg_toplevel.configure, applied on xdg_surface.configure.
    private var pendingSize: (width: Int32, height: Int32) = (0, 0)
    /// The parent outputs the surface is on (wl_surface.enter/leave).
    private var entered: [ParentOutput] = []

    /// The mode changed: (width, height, scale).
    var resized: (Int32, Int32, OutputScale) -> Void = { _, _, _ in }
    var closed: () -> Void = {}
    /// A configure was acknowledged: the presenter may commit.
    var configured: () -> Void = {}

    /// Throws when the parent gives no surface, role or decoration object
    /// (its connection failed).
    init(globals: ParentGlobals, width: Int32, height: Int32, scale: OutputScale, logger: Logger) throws(SystemError) {
        self.width = width
        self.height = height
        self.scale = scale
        log = logger
        self.globals = globals
        outputs = globals.outputs
        let connection = globals.connection
        let surface = try Proxy(creating: { globals.compositor.request { wl_compositor_create_surface($0) } },
                                on: connection, what: "wl_compositor.create_surface")
        let xdgSurface = try Proxy(creating: { globals.wmBase.request(surface) { xdg_wm_base_get_xdg_surface($0, $1) } },
                                   on: connection, what: "xdg_wm_base.get_xdg_surface")
        let toplevel = try Proxy(creating: { xdgSurface.request { xdg_surface_get_toplevel($0) } }, on: connection, what: "xdg_surface.get_toplevel")
        self.surface = surface
        self.xdgSurface = xdgSurface
        self.toplevel = toplevel
        toplevel.request { xdg_toplevel_set_title($0, "Lodestone") }
        toplevel.request { xdg_toplevel_set_app_id($0, "org.lodestone.Lodestone") }
        // Decorations drawn by the parent: Lodestone's whole surface is the output.
        if let manager = globals.decorationManager {
            let decoration = try Proxy(creating: { manager.request(toplevel) { zxdg_decoration_manager_v1_get_toplevel_decoration($0, $1) } },
                                       on: connection, what: "zxdg_decoration_manager_v1.get_toplevel_decoration")
            decoration.request { zxdg_toplevel_decoration_v1_set_mode($0, ZXDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE.rawValue) }
            self.decoration = decoration
        } else {
            decoration = nil
        }
        if let f = globals.fractionalScale {
            viewport = try Proxy(creating: { f.viewporter.request(surface) { wp_viewporter_get_viewport($0, $1) } }, on: connection, what: "wp_viewporter.get_viewport")
            let fractional = try Proxy(creating: { f.manager.request(surface) { wp_fractional_scale_manager_v1_get_fractional_scale($0, $1) } },
                                       on: connection, what: "wp_fractional_scale_manager_v1.get_fractional_scale")
            fractionalScale = fractional
        } else {
            viewport = nil
            fractionalScale = nil
        }

        // Applied with the next xdg_surface.configure: client side means our own bar.
        decoration?.handleEvents(ToplevelDecorationEvent.self) { [unowned self] event in
            switch event {
            case .configure(let mode): self.decorationMode = mode
            }
        }
        surface.handleEvents(SurfaceEvent.self) { [unowned self] event in
            switch event {
            case .enter(let output): self.surfaceEntered(output)
            case .leave(let output): self.surfaceLeft(output)
            }
        }
        toplevel.handleEvents(ToplevelEvent.self) { [unowned self] event in
            switch event {
            case .configure(let width, let height, let states):  // applied with xdg_surface.configure
                self.pendingSize = (width, height)
                self.pendingStates = states
            case .close: self.closed()
            case .configureBounds, .wmCapabilities: break
            }
        }
        xdgSurface.handleEvents(XdgSurfaceEvent.self) { [unowned self] event in
            switch event {
            case .configure(let serial): self.surfaceConfigured(serial: serial)
            }
        }
        fractionalScale?.handleEvents(FractionalScaleEvent.self) { [unowned self] event in
            switch event {
            case .preferredScale(let v120):
                guard v120 > 0, v120 <= UInt32(OutputScale.maximum.v120) else {
                    self.log.warning("the parent's preferred fractional scale \(v120)/120 is not above 0 and at most \(OutputScale.maximum); ignored")
                    return
                }
                self.preferredScale = Int32(v120)
                self.updateMode()
            }
        }
        for output in outputs {
            output.scaleChanged = { [unowned self] in self.updateMode() }
        }
        // The initial commit without a buffer asks for the first configure.
        surface.request { wl_surface_commit($0) }
    }

    deinit {
        fractionalScale?.destroy { wp_fractional_scale_v1_destroy($0) }
        viewport?.destroy { wp_viewport_destroy($0) }
        titleBar = nil
        decoration?.destroy { zxdg_toplevel_decoration_v1_destroy($0) }
        toplevel.destroy { xdg_toplevel_destroy($0) }
        xdgSurface.destroy { xdg_surface_destroy($0) }
        surface.destroy { wl_surface_destroy($0) }
    }

    // MARK: Configure

    private func surfaceConfigured(serial: UInt32) {
        xdgSurface.request { xdg_surface_ack_configure($0, serial) }
        let first = !isConfigured
        isConfigured = true
        isMaximized = pendingStates.contains(XDG_TOPLEVEL_STATE_MAXIMIZED.rawValue)
        isActivated = pendingStates.contains(XDG_TOPLEVEL_STATE_ACTIVATED.rawValue)
        decideTitleBar()
        // 0×0: the parent leaves the size to us; keep the current one. The size is the
        // window geometry's: with our own bar, the output is that much shorter.
        if pendingSize.width > 0 && pendingSize.height > 0 {
            width = pendingSize.width
            height = max(1, pendingSize.height - barHeight)
        }
        updateMode(force: first)
        configured()
    }

    // MARK: Title bar

    private var barHeight: Int32 { titleBar != nil ? ParentTitleBar.height : 0 }

    /// Our own bar when the parent draws none: it has no decoration manager, or chose
    /// client side. Without wl_subcompositor there is nowhere to draw one.
    private func decideTitleBar() {
        let wanted = decoration == nil || decorationMode == ZXDG_TOPLEVEL_DECORATION_V1_MODE_CLIENT_SIDE.rawValue
        if wanted, titleBar == nil {
            guard let subcompositor = globals.subcompositor else {
                log.notice("the parent draws no title bar and has no wl_subcompositor: Lodestone's window has none")
                return
            }
            do {
                titleBar = try ParentTitleBar(compositor: globals.compositor, subcompositor: subcompositor, shm: globals.shm, window: surface, logger: log)
                // Room for the title bar's buttons and a little output.
                toplevel.request { xdg_toplevel_set_min_size($0, 4 * (TitleBarImage.buttonSide + TitleBarImage.buttonGap) + 80, ParentTitleBar.height + 60) }
                log.info("the parent draws no title bar: Lodestone draws its own")
            } catch {
                log.error("cannot draw Lodestone's own title bar: \(error)")
            }
        } else if !wanted, titleBar != nil {
            titleBar = nil
            // The bar's rows become output rows; the geometry (explicit from now on) is the output.
            toplevel.request { xdg_toplevel_set_min_size($0, 0, 0) }
            height += ParentTitleBar.height
            log.info("the parent draws the title bar now")
        }
    }

    /// Asks the parent for what a press on our title bar means. `seat` and `serial` are
    /// the press's (a move or resize needs them).
    func perform(_ action: ParentTitleBar.Action, seat: Proxy, serial: UInt32) {
        switch action {
        case .move: toplevel.request(seat) { xdg_toplevel_move($0, $1, serial) }
        case .resize(let edge): toplevel.request(seat) { xdg_toplevel_resize($0, $1, serial, edge) }
        case .toggleMaximized: toplevel.request { isMaximized ? xdg_toplevel_unset_maximized($0) : xdg_toplevel_set_maximized($0) }
        case .minimize: toplevel.request { xdg_toplevel_set_minimized($0) }
        case .close:
            log.info("the title bar's close button closed Lodestone's window")
            closed()
            return
        case .windowMenu(let x, let y):
            // Bar-surface coordinates to the window surface's.
            toplevel.request(seat) { xdg_toplevel_show_window_menu($0, $1, serial, x - ParentTitleBar.border, y - ParentTitleBar.border - ParentTitleBar.height) }
        }
        toplevel.connection.flush()
    }

    // MARK: Scale

    private func surfaceEntered(_ output: OpaquePointer?) {
        guard let output = outputs.first(where: { $0.proxy.isObject(output) }), !entered.contains(where: { $0 === output }) else { return }
        entered.append(output)
        updateMode()
    }

    private func surfaceLeft(_ output: OpaquePointer?) {
        entered.removeAll { $0.proxy.isObject(output) }
        updateMode()
    }

    /// The parent's preferred scale for the surface; without one the largest scale of
    /// the outputs we are on, so the window is sharp on the best of them (the parent
    /// scales it down elsewhere).
    private func updateMode(force: Bool = false) {
        for output in entered where output.requestedScale != output.scale && output.requestedScale != warnedScale {
            warnedScale = output.requestedScale
            log.warning("the parent output's scale \(output.requestedScale) is \(output.requestedScale < 1 ? "no scale" : "more than Lodestone draws at (\(ParentOutput.maximumScale))"); using \(output.scale)")
        }
        let newScale = preferredScale.map(OutputScale.init(v120:)) ?? entered.map(\.scale).max().map { OutputScale($0) } ?? scale
        // A parent may ask for any size up to 2³¹-1 (issue 24: the output's image trapped):
        // at most `maximumPixels` output pixels a side.
        let limit = newScale.logical(Self.maximumPixels)
        if width > limit || height > limit {
            if (width, height) != warnedSize ?? (0, 0) { log.warning("the parent asked for a \(width)×\(height) window, larger than Lodestone draws (\(Self.maximumPixels) pixels a side at scale \(newScale)); using at most \(limit)×\(limit)") }
            warnedSize = (width, height)
            width = min(width, limit)
            height = min(height, limit)
        }
        // And at least one output pixel a side: a 1×1 window at a fractional scale of 1/120
        // had none, and the output's image trapped on its precondition.
        let least = max(1, newScale.logical(1))
        width = max(width, least)
        height = max(height, least)
        // Our own bar is a separate whole-scale buffer: at a fractional scale the parent
        // shrinks it from the scale rounded up.
        let barChanged = updateTitleBar(scale: newScale.ceiling)
        guard force || newScale != scale || width != lastWidth || height != lastHeight else {
            // A new bar alone (activation) is applied by a commit of the window.
            if barChanged { surface.request { wl_surface_commit($0) } }
            return
        }
        if newScale != scale { log.info("the parent output scale is \(newScale)") }
        scale = newScale
        lastWidth = width
        lastHeight = height
        // The output's next frame commits the window, and with it the bar and geometry.
        resized(width, height, scale)
    }

    /// Our bar, redrawn for the window's size, scale and state, and the window geometry
    /// that includes it; true when a new bar waits for the window's commit.
    private func updateTitleBar(scale: Int32) -> Bool {
        guard isConfigured else { return false }
        // The geometry is left to the parent (the surface) until we have had a bar.
        let geometry = titleBar != nil ? (y: -ParentTitleBar.height, height: height + ParentTitleBar.height) : (y: 0, height: height)
        if titleBar != nil || sentGeometry != nil, sentGeometry.map({ $0 != (geometry.y, width, geometry.height) }) ?? true {
            xdgSurface.request { xdg_surface_set_window_geometry($0, 0, geometry.y, width, geometry.height) }
            sentGeometry = (geometry.y, width, geometry.height)
        }
        return titleBar?.update(width: width, contentHeight: height, scale: scale, activated: isActivated, maximized: isMaximized) ?? false
    }
    /// The largest side of the nested output in pixels (an 8K monitor's width fits).
    static let maximumPixels: Int32 = 8192
    /// The odd wl_output scale and size last warned about (once, not at every configure).
    private var warnedScale: Int32?
    private var warnedSize: (Int32, Int32)?
    /// The window geometry last sent (y, width, height), if any.
    private var sentGeometry: (Int32, Int32, Int32)?
    private var lastWidth: Int32 = 0, lastHeight: Int32 = 0
}
