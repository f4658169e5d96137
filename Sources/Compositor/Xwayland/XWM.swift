import CWaylandServer
import CXCB
import Glibc
import LodestoneSystem
import WaylandServer

/// The X11 window manager Lodestone runs inside Xwayland (wlroots' `xwayland/xwm.c`,
/// Smithay's `X11Wm`). It redirects every top-level window (Composite), so X draws none
/// itself: each one's pixels reach Lodestone as a wl_surface of the Xwayland client,
/// paired with its X window by the `WL_SURFACE_ID` message. Managed windows join the
/// desktop like xdg toplevels (XwaylandWindow is a DesktopWindow); override-redirect
/// ones (menus, tooltips) are drawn where X put them.
final class XWM {
    private unowned let compositor: Compositor
    let connection: XConnection
    /// Xwayland's Wayland connection while it lasts.
    private let xwaylandClient: () -> Client?
    let atoms: Atoms
    private let root: XWindowID
    /// The window named in _NET_SUPPORTING_WM_CHECK.
    private let checkWindow: XWindowID
    private var watch: EventSource?
    private let closed: () -> Void
    /// Every X window created on the root, by id.
    private(set) var windows: [XWindowID: XwaylandWindow] = [:]
    /// WL_SURFACE_ID messages whose wl_surface the compositor has not seen yet.
    private var pendingSurfaces: [UInt32: XWindowID] = [:]
    private(set) var focused: XWindowID = 0
    private var isShutDown = false
    /// CLIPBOARD and PRIMARY, bridged to the Wayland clipboard and primary selection.
    private var selections: [XSelection] = []
    /// The event code of XFixesSelectionNotify.
    private var xfixesSelectionNotify: UInt8?
    /// The names of `atoms`, for the trace of X events (no round trip to name them).
    private let atomNames: [XAtom: String]

    /// The events the window manager selects on the root: SubstructureRedirect is what makes
    /// it the window manager (top-level windows' map and configure requests come to it).
    private static let rootEvents = XCB_EVENT_MASK_SUBSTRUCTURE_NOTIFY.rawValue | XCB_EVENT_MASK_SUBSTRUCTURE_REDIRECT.rawValue
        | XCB_EVENT_MASK_PROPERTY_CHANGE.rawValue
    /// The events it selects on each top-level window: its properties and its focus.
    private static let topLevelEvents = XCB_EVENT_MASK_FOCUS_CHANGE.rawValue | XCB_EVENT_MASK_PROPERTY_CHANGE.rawValue

    /// The atoms the window manager reads and writes.
    struct Atoms {
        let wmProtocols, wmDeleteWindow, wmTakeFocus, wmState, wmChangeState, wlSurfaceID, utf8String, motifWmHints: XAtom
        let netWmName, netSupported, netSupportingWmCheck, netActiveWindow, wmS0, netWmCmS0, netWmMoveresize: XAtom
        let netWmState, netWmStateMaximizedVert, netWmStateMaximizedHorz, netWmStateFullscreen, netWmStateHidden: XAtom
        let netFrameExtents, netWmPid: XAtom
        let clipboard, targets, text, incr, timestamp, wlSelection: XAtom
        static let names = ["WM_PROTOCOLS", "WM_DELETE_WINDOW", "WM_TAKE_FOCUS", "WM_STATE", "WM_CHANGE_STATE", "WL_SURFACE_ID",
                            "UTF8_STRING", "_MOTIF_WM_HINTS", "_NET_WM_NAME", "_NET_SUPPORTED", "_NET_SUPPORTING_WM_CHECK",
                            "_NET_ACTIVE_WINDOW", "WM_S0", "_NET_WM_CM_S0", "_NET_WM_MOVERESIZE", "_NET_WM_STATE",
                            "_NET_WM_STATE_MAXIMIZED_VERT", "_NET_WM_STATE_MAXIMIZED_HORZ", "_NET_WM_STATE_FULLSCREEN",
                            "_NET_WM_STATE_HIDDEN", "_NET_FRAME_EXTENTS", "CLIPBOARD", "TARGETS", "TEXT", "INCR", "TIMESTAMP",
                            "_WL_SELECTION", "_NET_WM_PID"]

        init?(_ found: [String: XAtom]) {
            guard Self.names.allSatisfy({ found[$0] != nil }) else { return nil }
            let a = { (name: String) in found[name]! }
            (wmProtocols, wmDeleteWindow, wmTakeFocus, wmState) = (a("WM_PROTOCOLS"), a("WM_DELETE_WINDOW"), a("WM_TAKE_FOCUS"), a("WM_STATE"))
            (wmChangeState, wlSurfaceID, utf8String, motifWmHints) = (a("WM_CHANGE_STATE"), a("WL_SURFACE_ID"), a("UTF8_STRING"), a("_MOTIF_WM_HINTS"))
            (netWmName, netSupported, netSupportingWmCheck) = (a("_NET_WM_NAME"), a("_NET_SUPPORTED"), a("_NET_SUPPORTING_WM_CHECK"))
            (netActiveWindow, wmS0, netWmCmS0, netWmMoveresize) = (a("_NET_ACTIVE_WINDOW"), a("WM_S0"), a("_NET_WM_CM_S0"), a("_NET_WM_MOVERESIZE"))
            (netWmState, netWmStateMaximizedVert, netWmStateMaximizedHorz) = (a("_NET_WM_STATE"), a("_NET_WM_STATE_MAXIMIZED_VERT"), a("_NET_WM_STATE_MAXIMIZED_HORZ"))
            (netWmStateFullscreen, netWmStateHidden, netFrameExtents) = (a("_NET_WM_STATE_FULLSCREEN"), a("_NET_WM_STATE_HIDDEN"), a("_NET_FRAME_EXTENTS"))
            netWmPid = a("_NET_WM_PID")
            (clipboard, targets, text, incr, timestamp, wlSelection) = (a("CLIPBOARD"), a("TARGETS"), a("TEXT"), a("INCR"), a("TIMESTAMP"), a("_WL_SELECTION"))
        }

        /// What _NET_SUPPORTED lists: the EWMH the window manager answers.
        var supported: [XAtom] {
            [netWmName, netSupportingWmCheck, netActiveWindow, netWmMoveresize, netWmState, netWmStateMaximizedVert,
             netWmStateMaximizedHorz, netWmStateFullscreen, netWmStateHidden, netFrameExtents]
        }
        // Predefined in the core protocol.
        static let wmName = XAtom(XCB_ATOM_WM_NAME.rawValue), wmClass = XAtom(XCB_ATOM_WM_CLASS.rawValue)
        static let wmHints = XAtom(XCB_ATOM_WM_HINTS.rawValue), wmNormalHints = XAtom(XCB_ATOM_WM_NORMAL_HINTS.rawValue)
        static let wmTransientFor = XAtom(XCB_ATOM_WM_TRANSIENT_FOR.rawValue)
        static let window = XAtom(XCB_ATOM_WINDOW.rawValue), atom = XAtom(XCB_ATOM_ATOM.rawValue)
        static let string = XAtom(XCB_ATOM_STRING.rawValue), primary = XAtom(XCB_ATOM_PRIMARY.rawValue)
    }

    /// Connects over `fd` and becomes the window manager of Xwayland's root window.
    init(compositor: Compositor, fd: Int32, xwaylandClient: @escaping () -> Client?, closed: @escaping () -> Void) throws(SystemError) {
        self.compositor = compositor
        self.xwaylandClient = xwaylandClient
        self.closed = closed
        connection = try XConnection(fd: fd)
        let interned = connection.internAtoms(Atoms.names)
        guard let atoms = Atoms(interned) else {
            connection.disconnect()
            throw SystemError("Xwayland did not intern the window manager's atoms")
        }
        self.atoms = atoms
        atomNames = Dictionary(interned.map { ($1, $0) }) { a, _ in a }
        root = connection.root
        let c = connection
        // Redirect: map and configure requests of top-level windows come to us.
        c.changeAttributes(root, mask: XCB_CW_EVENT_MASK.rawValue, values: [Self.rootEvents])
        // Rootless: X composes nothing; every window's pixels go to its wl_surface.
        _ = xcb_composite_redirect_subwindows(c.pointer, root, UInt8(XCB_COMPOSITE_REDIRECT_MANUAL.rawValue))
        // EWMH: a child of the root names the window manager.
        checkWindow = c.generateID()
        _ = xcb_create_window(c.pointer, UInt8(XCB_COPY_FROM_PARENT), checkWindow, root, 0, 0, 10, 10, 0,
                              UInt16(XCB_WINDOW_CLASS_INPUT_OUTPUT.rawValue), c.rootVisual, 0, nil)
        c.setProperty(checkWindow, atoms.netSupportingWmCheck, type: Atoms.window, [checkWindow])
        c.setProperty(checkWindow, atoms.netWmName, type: atoms.utf8String, string: "Lodestone")
        c.setProperty(root, atoms.netSupportingWmCheck, type: Atoms.window, [checkWindow])
        c.setProperty(root, atoms.netSupported, type: Atoms.atom, atoms.supported)
        c.setProperty(root, atoms.netActiveWindow, type: Atoms.window, [0])
        setRootCursor()
        setCursorResources()
        c.setSelectionOwner(checkWindow, atoms.wmS0)
        c.setSelectionOwner(checkWindow, atoms.netWmCmS0)
        c.flush()
        watch = try compositor.display.eventLoop.addFileDescriptor(c.fileDescriptor,
                                                                   mask: UInt32(WL_EVENT_READABLE | WL_EVENT_HANGUP | WL_EVENT_ERROR)) { [unowned self] mask in
            self.readEvents(mask)
        }
        // A reply waited for from a Wayland request's handler (a property read, focus) makes
        // xcb read and queue the events that came before it; the fd is then drained and
        // would not wake the loop for them (an X client's WM_CHANGE_STATE waited for the
        // next X event). After every dispatch the loop hands those over (mask 0).
        watch?.check()
        // New wl_surfaces of Xwayland's are offered to us (WL_SURFACE_ID may come first).
        compositor.xwm = self
        // The clipboards, both ways; XFixes says when an X client takes one.
        if let base = c.xfixesEventBase() {
            xfixesSelectionNotify = base &+ UInt8(XCB_XFIXES_SELECTION_NOTIFY)
            selections = [XSelection(wm: self, compositor: compositor, atom: atoms.clipboard, wayland: compositor.selection),
                          XSelection(wm: self, compositor: compositor, atom: Atoms.primary, wayland: compositor.primarySelection)]
            for s in selections {
                _ = c.watchSelectionOwner(s.atom, from: s.window)
                // The first X client may have copied before the window manager watched.
                let owner = c.selectionOwner(s.atom)
                if owner != 0 { s.ownerChanged(to: owner) }
            }
        } else {
            compositor.log.notice("Xwayland has no XFixes; the X11 and Wayland clipboards stay apart")
        }
        c.flush()
    }

    /// The theme's arrow on the root window, so windows that set no cursor of their own
    /// (xeyes, menus) show it rather than none: Xwayland attaches it with set_cursor and the
    /// adaptive pointer recognises it as the default cursor, the circle.
    private func setRootCursor() {
        guard let arrow = compositor.cursorThemes.standardCursor(.default, scale: 1) else {
            compositor.log.notice("no cursor theme has an arrow; X11 windows without a cursor of their own hide the pointer")
            return
        }
        let image = arrow.image, row = Int(image.stride / 4)
        var pixels: [UInt32] = []
        pixels.reserveCapacity(Int(image.width * image.height))
        for y in 0..<Int(image.height) { pixels += UnsafeBufferPointer(start: image.data + y * row, count: Int(image.width)) }
        if !connection.setCursor(root, pixels: pixels, width: Int(image.width), height: Int(image.height),
                                 hotspot: (Int(arrow.hotspot.x), Int(arrow.hotspot.y))) {
            compositor.log.notice("Xwayland has no 32-bit Render format; the root window keeps no cursor")
        }
    }

    /// Xlib apps that ask for a core cursor (xterm's I-beam, XC_xterm) get the theme's image
    /// instead when the resources name a theme, as a desktop session's xrdb does: then the
    /// adaptive pointer recognises them too. (Without it they draw X's 1-bit glyphs.)
    private func setCursorResources() {
        let themes = compositor.cursorThemes
        guard let theme = themes.themes.first else { return }
        connection.setProperty(root, XAtom(XCB_ATOM_RESOURCE_MANAGER.rawValue), type: XAtom(XCB_ATOM_STRING.rawValue),
                               string: "Xcursor.theme:\t\(theme)\nXcursor.size:\t\(themes.baseSize)\n")
    }

    /// Forgets every window (Xwayland went away or the session ends).
    func shutdown() {
        guard !isShutDown else { return }
        isShutDown = true
        // Removed from the loop (this may run in its handler); released with the XWM.
        watch?.remove()
        for selection in selections { selection.shutdown() }
        selections.removeAll()
        for window in windows.values { window.destroyed() }
        windows.removeAll()
        pendingSurfaces.removeAll()
        if compositor.xwm === self { compositor.xwm = nil }
        connection.disconnect()
    }

    // MARK: Events

    private func readEvents(_ mask: UInt32) {
        var count = 0
        // Mask 0: the loop's check after a dispatch; only what xcb has queued, no read.
        while let event = mask == 0 ? connection.pollForQueuedEvent() : connection.pollForEvent() {
            handle(event)
            free(event)
            count += 1
        }
        if connection.hasError || (count == 0 && mask & UInt32(WL_EVENT_HANGUP | WL_EVENT_ERROR) != 0) {
            shutdown()
            closed()
            return
        }
        connection.flush()
    }

    private func handle(_ event: UnsafeMutablePointer<xcb_generic_event_t>) {
        let raw = UnsafeRawPointer(event)
        compositor.log.trace("xwm: \(describe(raw))")
        switch Int32(event.pointee.response_type & 0x7f) {
        case XCB_CREATE_NOTIFY: createNotify(raw.load(as: xcb_create_notify_event_t.self))
        case XCB_DESTROY_NOTIFY: destroyNotify(raw.load(as: xcb_destroy_notify_event_t.self))
        case XCB_MAP_REQUEST: mapRequest(raw.load(as: xcb_map_request_event_t.self))
        case XCB_MAP_NOTIFY: mapNotify(raw.load(as: xcb_map_notify_event_t.self))
        case XCB_UNMAP_NOTIFY: unmapNotify(raw.load(as: xcb_unmap_notify_event_t.self))
        case XCB_CONFIGURE_REQUEST: configureRequest(raw.load(as: xcb_configure_request_event_t.self))
        case XCB_CONFIGURE_NOTIFY: configureNotify(raw.load(as: xcb_configure_notify_event_t.self))
        case XCB_PROPERTY_NOTIFY: propertyNotify(raw.load(as: xcb_property_notify_event_t.self))
        case XCB_CLIENT_MESSAGE: clientMessage(raw.load(as: xcb_client_message_event_t.self), sent: event.pointee.response_type & 0x80 != 0)
        case XCB_SELECTION_NOTIFY:
            let e = raw.load(as: xcb_selection_notify_event_t.self)
            selections.first { $0.window == e.requestor && $0.atom == e.selection }?.selectionNotify(e)
        case XCB_SELECTION_REQUEST:
            let e = raw.load(as: xcb_selection_request_event_t.self)
            if let selection = selections.first(where: { $0.window == e.owner && $0.atom == e.selection }) {
                selection.selectionRequest(e)
            } else {
                connection.notifySelection(e, property: 0)
            }
        default:
            if let code = xfixesSelectionNotify, event.pointee.response_type & 0x7f == code {
                let e = raw.load(as: xcb_xfixes_selection_notify_event_t.self)
                selections.first { $0.atom == e.selection }?.ownerChanged(to: e.owner)
            }
        }
    }

    /// One X event as `--log-level trace` shows it: its code, whether a client sent it
    /// (SendEvent sets the top bit of the code), the window it is about and what it says.
    private func describe(_ raw: UnsafeRawPointer) -> String {
        let code = raw.load(as: UInt8.self)
        let sent = code & 0x80 != 0 ? " sent" : ""
        let atom = { (a: XAtom) in self.atomNames[a] ?? "atom \(a)" }
        switch Int32(code & 0x7f) {
        case 0: return "X error \(raw.load(fromByteOffset: 1, as: UInt8.self)) for request \(raw.load(fromByteOffset: 10, as: UInt8.self))"
        case XCB_CREATE_NOTIFY: return "CreateNotify\(sent) \(raw.load(as: xcb_create_notify_event_t.self).window)"
        case XCB_DESTROY_NOTIFY: return "DestroyNotify\(sent) \(raw.load(as: xcb_destroy_notify_event_t.self).window)"
        case XCB_MAP_REQUEST: return "MapRequest\(sent) \(raw.load(as: xcb_map_request_event_t.self).window)"
        case XCB_MAP_NOTIFY: return "MapNotify\(sent) \(raw.load(as: xcb_map_notify_event_t.self).window)"
        case XCB_UNMAP_NOTIFY: return "UnmapNotify\(sent) \(raw.load(as: xcb_unmap_notify_event_t.self).window)"
        case XCB_CONFIGURE_REQUEST:
            let e = raw.load(as: xcb_configure_request_event_t.self)
            return "ConfigureRequest\(sent) \(e.window) mask \(e.value_mask) \(e.x) \(e.y) \(e.width)x\(e.height)"
        case XCB_CONFIGURE_NOTIFY:
            let e = raw.load(as: xcb_configure_notify_event_t.self)
            return "ConfigureNotify\(sent) \(e.window) \(e.x) \(e.y) \(e.width)x\(e.height)"
        case XCB_PROPERTY_NOTIFY:
            let e = raw.load(as: xcb_property_notify_event_t.self)
            return "PropertyNotify\(sent) \(e.window) \(atom(e.atom)) state \(e.state)"
        case XCB_CLIENT_MESSAGE:
            let e = raw.load(as: xcb_client_message_event_t.self), d = e.data.data32
            return "ClientMessage\(sent) \(e.window) \(atom(e.type)) [\(d.0) \(d.1) \(d.2) \(d.3) \(d.4)]"
        default: return "event \(code & 0x7f)\(sent)"
        }
    }

    private func createNotify(_ e: xcb_create_notify_event_t) {
        guard e.window != checkWindow, e.parent == root else { return }
        let window = XwaylandWindow(wm: self, compositor: compositor, id: e.window, overrideRedirect: e.override_redirect != 0,
                                    x: Int32(e.x), y: Int32(e.y), width: Int32(e.width), height: Int32(e.height))
        windows[e.window] = window
        connection.changeAttributes(e.window, mask: XCB_CW_EVENT_MASK.rawValue, values: [Self.topLevelEvents])
    }

    private func destroyNotify(_ e: xcb_destroy_notify_event_t) {
        for selection in selections { selection.windowDestroyed(e.window) }
        guard let window = windows.removeValue(forKey: e.window) else { return }
        pendingSurfaces = pendingSurfaces.filter { $0.value != e.window }
        window.destroyed()
        if focused == e.window { focused = 0 }
    }

    /// A managed window wants to show: read what it is, mark it normal, map it.
    private func mapRequest(_ e: xcb_map_request_event_t) {
        guard let window = windows[e.window] else { return }
        for property in [Atoms.wmName, atoms.netWmName, Atoms.wmClass, Atoms.wmHints, Atoms.wmNormalHints, Atoms.wmTransientFor,
                         atoms.wmProtocols, atoms.motifWmHints, atoms.netWmPid] {
            read(property, of: window)
        }
        window.updateDecoration()
        writeFrameExtents(window)
        // EWMH: before mapping, a client states what it wants in the property itself.
        if let states = connection.property(e.window, atoms.netWmState)?.bytes.cardinals {
            let maximized = states.contains(atoms.netWmStateMaximizedVert) || states.contains(atoms.netWmStateMaximizedHorz)
            window.setSizeState(maximized: maximized, fullscreen: states.contains(atoms.netWmStateFullscreen))
        }
        // ICCCM WM_STATE: NormalState (1), no icon window.
        connection.setProperty(e.window, atoms.wmState, type: atoms.wmState, [1, 0])
        connection.map(e.window)
    }

    private func mapNotify(_ e: xcb_map_notify_event_t) {
        guard let window = windows[e.window] else { return }
        window.overrideRedirect = e.override_redirect != 0
        if window.overrideRedirect, let g = connection.geometry(e.window) { window.xConfigured(x: g.x, y: g.y, width: g.width, height: g.height) }
        window.updateDecoration()
        window.xMapped = true
    }

    private func unmapNotify(_ e: xcb_unmap_notify_event_t) {
        guard let window = windows[e.window] else { return }
        window.xMapped = false
        // Withdrawn: the window may be mapped again as a new one, and a new surface.
        if !window.overrideRedirect { connection.setProperty(e.window, atoms.wmState, type: atoms.wmState, [0, 0]) }
        window.surfaceAssociationEnded()
    }

    /// A client asks for a position, size or stacking: granted for its size (and, before
    /// Lodestone has placed it, its position); answered with the geometry it has.
    private func configureRequest(_ e: xcb_configure_request_event_t) {
        guard let window = windows[e.window] else { return }
        // A maximized or fullscreen window keeps the output's size: told so again.
        if window.isMaximized || window.isFullscreen { return configure(window) }
        let m = UInt32(e.value_mask)
        let width = m & XCB_CONFIG_WINDOW_WIDTH.rawValue != 0 ? Int32(e.width) : window.width
        let height = m & XCB_CONFIG_WINDOW_HEIGHT.rawValue != 0 ? Int32(e.height) : window.height
        if !window.placed {
            if m & XCB_CONFIG_WINDOW_X.rawValue != 0 { window.x = Int32(e.x) }
            if m & XCB_CONFIG_WINDOW_Y.rawValue != 0 { window.y = Int32(e.y) }
        }
        window.requestSize(width: max(1, width), height: max(1, height))
    }

    /// Where X says a window is. Only override-redirect windows place themselves; a managed
    /// window is where Lodestone put it. X reports each of Lodestone's ConfigureWindows in
    /// turn, so during a move or resize the report of an older one can arrive after a newer
    /// one was sent: taken, it put the window back for a moment (a resize test read the
    /// size of the drag's midpoint after its end, 3 runs in 20).
    private func configureNotify(_ e: xcb_configure_notify_event_t) {
        guard let window = windows[e.window], window.overrideRedirect || e.override_redirect != 0 else { return }
        window.xConfigured(x: Int32(e.x), y: Int32(e.y), width: Int32(e.width), height: Int32(e.height))
    }

    private func propertyNotify(_ e: xcb_property_notify_event_t) {
        // Selection transfers (INCR) first: a requestor may be a managed window.
        if selections.contains(where: { $0.propertyNotify(e) }) { return }
        guard let window = windows[e.window] else { return }
        read(e.atom, of: window)
    }

    /// `sent`: an X client sent it (SendEvent), not the server.
    private func clientMessage(_ e: xcb_client_message_event_t, sent: Bool) {
        guard let window = windows[e.window] else { return }
        // _NET_WM_MOVERESIZE: x_root, y_root, direction, button, source. Dragging a
        // client-side title bar (GTK's header bar) asks for a move (8), its window's edges
        // for a resize (0-7, clockwise from the top-left corner); 11 cancels. The keyboard
        // variants (9, 10) are not offered.
        if e.type == atoms.netWmMoveresize, !window.overrideRedirect {
            let direction = e.data.data32.2
            if direction == 8 {
                compositor.seat.startMove(window)
            } else if direction == 11 {
                compositor.seat.cancelMoveResize(of: window)
            } else if direction < 8 {
                let top = XDG_TOPLEVEL_RESIZE_EDGE_TOP.rawValue, bottom = XDG_TOPLEVEL_RESIZE_EDGE_BOTTOM.rawValue
                let left = XDG_TOPLEVEL_RESIZE_EDGE_LEFT.rawValue, right = XDG_TOPLEVEL_RESIZE_EDGE_RIGHT.rawValue
                let edges = [top | left, top, top | right, right, bottom | right, bottom, bottom | left, left][Int(direction)]
                compositor.seat.startResize(window, edges: edges)
            }
            return
        }
        // _NET_WM_STATE: action (0 remove, 1 add, 2 toggle), two states. Either maximized
        // axis stands for both: Lodestone maximizes whole windows only.
        if e.type == atoms.netWmState {
            let d = e.data.data32
            let named = [d.1, d.2]
            func wanted(_ current: Bool, _ states: [XAtom]) -> Bool {
                guard named.contains(where: states.contains) else { return current }
                switch d.0 {
                case 0: return false
                case 1: return true
                case 2: return !current
                default: return current
                }
            }
            window.setSizeState(maximized: wanted(window.isMaximized, [atoms.netWmStateMaximizedVert, atoms.netWmStateMaximizedHorz]),
                                fullscreen: wanted(window.isFullscreen, [atoms.netWmStateFullscreen]))
            return
        }
        // ICCCM WM_CHANGE_STATE with IconicState (3): the client minimizes itself.
        if e.type == atoms.wmChangeState {
            if e.data.data32.0 == 3, !window.overrideRedirect { compositor.desktop.minimize(window) }
            return
        }
        // WL_SURFACE_ID comes from Xwayland itself, never through SendEvent: one an X client
        // sends (x11_fuzz.py's surface-id-hijack, guessing ids) must not pair its window
        // with another window's wl_surface.
        guard e.type == atoms.wlSurfaceID, !sent else { return }
        let id = e.data.data32.0
        if let client = xwaylandClient(), let resource = wl_client_get_object(client.pointer, id), let surface = WlSurface.from(resource) {
            window.associate(surface)
        } else {
            // Xwayland's wl_surface.create has not reached us yet: pair them when it does.
            pendingSurfaces[id] = e.window
        }
    }

    /// A wl_surface of Xwayland's was created: the X window that named it may be waiting.
    func surfaceCreated(_ surface: WlSurface) {
        guard surface.client == xwaylandClient(), let id = pendingSurfaces.removeValue(forKey: surface.objectID),
              let window = windows[id] else { return }
        window.associate(surface)
    }

    // MARK: Properties

    private func read(_ property: XAtom, of window: XwaylandWindow) {
        guard let value = connection.property(window.id, property) else { return }
        let text = { String(decoding: value.bytes.prefix { $0 != 0 }, as: UTF8.self) }
        switch property {
        case atoms.netWmName: window.netTitle = text(); window.titleChanged()
        case Atoms.wmName: window.icccmTitle = text(); window.titleChanged()
        case atoms.netWmPid:
            // The X client's process, by its own word: how its AT-SPI app is found.
            window.processID = value.bytes.cardinals.first.map { Int32(bitPattern: $0) }.flatMap { $0 > 0 ? $0 : nil }
        case Atoms.wmClass:
            // Two NUL-terminated strings: instance, then class.
            let parts = value.bytes.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
            window.windowClass = parts.count > 1 ? parts[1] : parts.first ?? ""
        case Atoms.wmHints:
            // flags, input, ...: InputHint (1) with input = 0 means "never give me the focus".
            let v = value.bytes.cardinals
            if v.count >= 2, v[0] & 1 != 0 { window.acceptsInput = v[1] != 0 }
        case Atoms.wmNormalHints:
            // flags, x, y, width, height, min, max, ...: USPosition (1) is the user's own
            // choice; PMinSize (16) and PMaxSize (32) bound a resize.
            let v = value.bytes.cardinals.map { Int32(bitPattern: $0) }
            window.userPosition = v.count >= 3 && v[0] & 1 != 0
            window.minSize = v.count >= 7 && v[0] & 16 != 0 ? (max(0, v[5]), max(0, v[6])) : (0, 0)
            window.maxSize = v.count >= 9 && v[0] & 32 != 0 ? (max(0, v[7]), max(0, v[8])) : (0, 0)
        case atoms.motifWmHints:
            // flags, functions, decorations, ...: with MWM_HINTS_DECORATIONS (2), neither
            // MWM_DECOR_ALL (1) nor MWM_DECOR_TITLE (8) means no title bar.
            let v = value.bytes.cardinals
            window.undecorated = v.count >= 3 && v[0] & 2 != 0 && v[2] & (1 | 8) == 0
        case Atoms.wmTransientFor: window.transientFor = value.bytes.cardinals.first
        case atoms.wmProtocols: window.protocols = Set(value.bytes.cardinals)
        default: break
        }
    }

    // MARK: Requests from the desktop

    /// Tells X where a managed window is: ConfigureWindow, and the synthetic
    /// ConfigureNotify ICCCM asks for (a move alone would not produce one).
    func configure(_ window: XwaylandWindow) {
        guard !isShutDown else { return }
        let mask = XCB_CONFIG_WINDOW_X.rawValue | XCB_CONFIG_WINDOW_Y.rawValue | XCB_CONFIG_WINDOW_WIDTH.rawValue
            | XCB_CONFIG_WINDOW_HEIGHT.rawValue | XCB_CONFIG_WINDOW_BORDER_WIDTH.rawValue
        connection.configure(window.id, mask: UInt16(mask),
                             values: [UInt32(bitPattern: window.x), UInt32(bitPattern: window.y), UInt32(window.width), UInt32(window.height), 0])
        var notify = xcb_configure_notify_event_t()
        notify.response_type = UInt8(XCB_CONFIGURE_NOTIFY)
        notify.event = window.id
        notify.window = window.id
        notify.x = Int16(clamping: window.x); notify.y = Int16(clamping: window.y)
        notify.width = UInt16(clamping: window.width); notify.height = UInt16(clamping: window.height)
        connection.send(notify, to: window.id, mask: XCB_EVENT_MASK_STRUCTURE_NOTIFY.rawValue)
        connection.flush()
    }

    /// Tells X the window's _NET_WM_STATE, and WM_STATE Iconic while minimized.
    func writeState(_ window: XwaylandWindow) {
        guard !isShutDown, !window.overrideRedirect else { return }
        var states: [XAtom] = []
        if window.isMaximized { states += [atoms.netWmStateMaximizedVert, atoms.netWmStateMaximizedHorz] }
        if window.isFullscreen { states.append(atoms.netWmStateFullscreen) }
        if window.isMinimized { states.append(atoms.netWmStateHidden) }
        connection.setProperty(window.id, atoms.netWmState, type: Atoms.atom, states)
        // ICCCM: IconicState (3) while minimized, NormalState (1) otherwise.
        if window.xMapped { connection.setProperty(window.id, atoms.wmState, type: atoms.wmState, [window.isMinimized ? 3 : 1, 0]) }
        connection.flush()
    }

    /// _NET_FRAME_EXTENTS (left, right, top, bottom): the title bar above the window.
    func writeFrameExtents(_ window: XwaylandWindow) {
        guard !isShutDown, !window.overrideRedirect else { return }
        connection.setProperty(window.id, atoms.netFrameExtents, type: XAtom(XCB_ATOM_CARDINAL.rawValue),
                               [0, 0, UInt32(window.titleBar == nil ? 0 : TitleBar.height), 0])
        connection.flush()
    }

    /// Gives a managed window the X input focus (ICCCM: SetInputFocus unless it said it
    /// takes no input, WM_TAKE_FOCUS when it asks for it) and raises it among X windows.
    func focus(_ window: XwaylandWindow?) {
        guard !isShutDown else { return }
        guard let window else {
            if focused != 0 { connection.setInputFocus(0); focused = 0 }
            connection.setProperty(root, atoms.netActiveWindow, type: Atoms.window, [0])
            connection.flush()
            return
        }
        if window.acceptsInput { connection.setInputFocus(window.id) }
        if window.protocols.contains(atoms.wmTakeFocus) {
            connection.sendClientMessage(to: window.id, type: atoms.wmProtocols, (atoms.wmTakeFocus, UInt32(XCB_CURRENT_TIME), 0, 0, 0))
        }
        focused = window.id
        connection.setProperty(root, atoms.netActiveWindow, type: Atoms.window, [window.id])
        connection.configure(window.id, mask: UInt16(XCB_CONFIG_WINDOW_STACK_MODE.rawValue), values: [XCB_STACK_MODE_ABOVE.rawValue])
        connection.flush()
    }

    /// WM_DELETE_WINDOW when the window speaks it; otherwise its client is disconnected.
    func close(_ window: XwaylandWindow) {
        guard !isShutDown else { return }
        if window.protocols.contains(atoms.wmDeleteWindow) {
            connection.sendClientMessage(to: window.id, type: atoms.wmProtocols, (atoms.wmDeleteWindow, UInt32(XCB_CURRENT_TIME), 0, 0, 0))
        } else {
            connection.kill(window.id)
        }
        connection.flush()
    }

    /// Adds PropertyNotify to the events the window manager hears from `window` (an INCR
    /// requestor deleting its property asks for the next chunk). ChangeWindowAttributes
    /// replaces the connection's whole event mask on a window, so the mask is set whole, as
    /// the window manager selects it there; known, not asked for: this runs when a Wayland
    /// source's data is in, where no reply is waited for. Any X client may name the root as
    /// its requestor: with the mask set outright, the root lost SubstructureRedirect and no
    /// X window mapped after that was managed or shown.
    func watchProperties(of window: XWindowID) {
        let selected = window == root ? Self.rootEvents : windows[window] != nil ? Self.topLevelEvents : 0
        connection.changeAttributes(window, mask: XCB_CW_EVENT_MASK.rawValue, values: [selected | XCB_EVENT_MASK_PROPERTY_CHANGE.rawValue])
    }

    func window(_ id: XWindowID?) -> XwaylandWindow? { id.flatMap { windows[$0] } }

    /// The windows transient for `id`.
    func transients(of id: XWindowID) -> [XwaylandWindow] { windows.values.filter { $0.transientFor == id && $0.id != id } }
}
