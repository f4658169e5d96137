import CWaylandServer
import CXCB
import WaylandServer

/// The X events about windows: their creation, mapping, configuration, properties and the
/// client messages (EWMH state, move/resize, WL_SURFACE_ID), and the wl_surface pairing.
extension XWM {
    func createNotify(_ e: xcb_create_notify_event_t) {
        guard e.window != checkWindow, e.window != dnd?.proxy, e.parent == root else { return }
        let window = XwaylandWindow(wm: self, host: compositor, id: e.window, overrideRedirect: e.override_redirect != 0,
                                    x: Int32(e.x), y: Int32(e.y), width: Int32(e.width), height: Int32(e.height))
        windows[e.window] = window
        connection.changeAttributes(e.window, mask: XCB_CW_EVENT_MASK.rawValue, values: [Self.topLevelEvents])
    }

    func destroyNotify(_ e: xcb_destroy_notify_event_t) {
        for selection in selections { selection.windowDestroyed(e.window) }
        dnd?.windowDestroyed(e.window)
        guard let window = windows.removeValue(forKey: e.window) else { return }
        pendingSurfaces = pendingSurfaces.filter { $0.value != e.window }
        window.destroyed()
        if focused == e.window { focused = 0 }
    }

    /// A managed window wants to show: read what it is, mark it normal, map it.
    func mapRequest(_ e: xcb_map_request_event_t) {
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

    func mapNotify(_ e: xcb_map_notify_event_t) {
        guard let window = windows[e.window] else { return }
        window.overrideRedirect = e.override_redirect != 0
        if window.overrideRedirect, let g = connection.geometry(e.window) { window.xConfigured(x: g.x, y: g.y, width: g.width, height: g.height) }
        window.updateDecoration()
        window.xMapped = true
    }

    func unmapNotify(_ e: xcb_unmap_notify_event_t) {
        guard let window = windows[e.window] else { return }
        window.xMapped = false
        // Withdrawn: the window may be mapped again as a new one, and a new surface.
        if !window.overrideRedirect { connection.setProperty(e.window, atoms.wmState, type: atoms.wmState, [0, 0]) }
        window.surfaceAssociationEnded()
    }

    /// A client asks for a position, size or stacking: granted for its size (and, before
    /// Lodestone has placed it, its position); answered with the geometry it has.
    func configureRequest(_ e: xcb_configure_request_event_t) {
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
    func configureNotify(_ e: xcb_configure_notify_event_t) {
        guard let window = windows[e.window], window.overrideRedirect || e.override_redirect != 0 else { return }
        window.xConfigured(x: Int32(e.x), y: Int32(e.y), width: Int32(e.width), height: Int32(e.height))
    }

    func propertyNotify(_ e: xcb_property_notify_event_t) {
        // Selection transfers (INCR) first: a requestor may be a managed window.
        if selections.contains(where: { $0.propertyNotify(e) }) { return }
        guard let window = windows[e.window] else { return }
        read(e.atom, of: window)
    }

    /// `sent`: an X client sent it (SendEvent), not the server.
    func clientMessage(_ e: xcb_client_message_event_t, sent: Bool) {
        if let dnd, dnd.clientMessage(e) { return }
        guard let window = windows[e.window] else { return }
        // _NET_WM_MOVERESIZE: x_root, y_root, direction, button, source. Dragging a
        // client-side title bar (GTK's header bar) asks for a move (8), its window's edges
        // for a resize (0-7, clockwise from the top-left corner); 11 cancels. The keyboard
        // variants (9, 10) are not offered.
        if e.type == atoms.netWmMoveresize, !window.overrideRedirect {
            let direction = e.data.data32.2
            if direction == 8 {
                compositor.startMove(window)
            } else if direction == 11 {
                compositor.cancelMoveResize(of: window)
            } else if direction < 8 {
                let top = XDG_TOPLEVEL_RESIZE_EDGE_TOP.rawValue, bottom = XDG_TOPLEVEL_RESIZE_EDGE_BOTTOM.rawValue
                let left = XDG_TOPLEVEL_RESIZE_EDGE_LEFT.rawValue, right = XDG_TOPLEVEL_RESIZE_EDGE_RIGHT.rawValue
                let edges = [top | left, top, top | right, right, bottom | right, bottom, bottom | left, left][Int(direction)]
                compositor.startResize(window, edges: edges)
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
            if e.data.data32.0 == 3, !window.overrideRedirect { compositor.minimizeWindow(window) }
            return
        }
        // WL_SURFACE_ID comes from Xwayland itself, never through SendEvent: one an X client
        // sends (x11_fuzz.py's surface-id-hijack, guessing ids) must not pair its window
        // with another window's wl_surface.
        guard e.type == atoms.wlSurfaceID, !sent else { return }
        let id = e.data.data32.0
        if let surface = xwaylandClient()?.object(id: id, as: WlSurface.self) {
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
}
