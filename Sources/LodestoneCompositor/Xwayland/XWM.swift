import CWaylandServer
import CXCB
import Glibc
import LodestoneSystem
import Logging
import WaylandServer

/// The X11 window manager Lodestone runs inside Xwayland (wlroots' `xwayland/xwm.c`,
/// Smithay's `X11Wm`). It redirects every top-level window (Composite), so X draws none
/// itself: each one's pixels reach Lodestone as a wl_surface of the Xwayland client,
/// paired with its X window by the `WL_SURFACE_ID` message. Managed windows join the
/// desktop like xdg toplevels (XwaylandWindow is a DesktopWindow); override-redirect
/// ones (menus, tooltips) are drawn where X put them.
///
/// Split by concern: this file holds the connection, setup and the event loop; X events about
/// windows are in XWM+WindowEvents.swift, property reads and the desktop's requests in
/// XWM+Requests.swift, the event wrapper and its trace in XEvent.swift.
final class XWM {
    /// The core whole, for the selection and drag bridges (`XSelection`, `XDnd`) that still
    /// take it; the window manager itself asks only what `XwaylandHost` lists.
    unowned let compositor: Compositor
    private var log: Logger { compositor.log }
    let connection: XConnection
    /// Xwayland's Wayland connection while it lasts.
    let xwaylandClient: () -> Client?
    let atoms: Atoms
    let root: XWindowID
    /// The window named in _NET_SUPPORTING_WM_CHECK.
    let checkWindow: XWindowID
    private var watch: EventSource?
    private let closed: () -> Void
    /// Every X window created on the root, by id.
    var windows: [XWindowID: XwaylandWindow] = [:]
    /// WL_SURFACE_ID messages whose wl_surface the compositor has not seen yet.
    var pendingSurfaces: [UInt32: XWindowID] = [:]
    var focused: XWindowID = 0
    private(set) var isShutDown = false
    /// CLIPBOARD and PRIMARY, bridged to the Wayland clipboard and primary selection.
    var selections: [XSelection] = []
    /// Drag and drop with X apps (XDND), when XFixes is there for the selections.
    var dnd: XDnd?
    /// The event code of XFixesSelectionNotify.
    var xfixesSelectionNotify: UInt8?
    /// The names of `atoms`, for the trace of X events (no round trip to name them).
    let atomNames: [XAtom: String]

    /// The events the window manager selects on the root: SubstructureRedirect is what makes
    /// it the window manager (top-level windows' map and configure requests come to it).
    static let rootEvents = XCB_EVENT_MASK_SUBSTRUCTURE_NOTIFY.rawValue | XCB_EVENT_MASK_SUBSTRUCTURE_REDIRECT.rawValue
        | XCB_EVENT_MASK_PROPERTY_CHANGE.rawValue
    /// The events it selects on each top-level window: its properties and its focus.
    static let topLevelEvents = XCB_EVENT_MASK_FOCUS_CHANGE.rawValue | XCB_EVENT_MASK_PROPERTY_CHANGE.rawValue

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
        c.redirectSubwindows(of: root)
        // EWMH: a child of the root names the window manager.
        checkWindow = c.generateID()
        c.createWindow(checkWindow, parent: root)
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
        watch = try compositor.eventLoop.addFileDescriptor(c.fileDescriptor,
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
            // XdndSelection is served as the clipboards are (its window's events routed alike).
            dnd = XDnd(wm: self)
            if let dnd { selections.append(dnd.selection) }
        } else {
            log.notice("Xwayland has no XFixes; the X11 and Wayland clipboards stay apart")
        }
        c.flush()
    }

    /// The theme's arrow on the root window, so windows that set no cursor of their own
    /// (xeyes, menus) show it rather than none: Xwayland attaches it with set_cursor and the
    /// adaptive pointer recognises it as the default cursor, the circle.
    private func setRootCursor() {
        guard let arrow = compositor.standardCursor(.default, scale: 1) else {
            log.notice("no cursor theme has an arrow; X11 windows without a cursor of their own hide the pointer")
            return
        }
        let image = arrow.image, row = Int(image.stride / 4)
        var pixels: [UInt32] = []
        pixels.reserveCapacity(Int(image.width * image.height))
        image.withPixels { data in
            for y in 0..<Int(image.height) { pixels += UnsafeBufferPointer(start: data + y * row, count: Int(image.width)) }
        }
        if !connection.setCursor(root, pixels: pixels, width: Int(image.width), height: Int(image.height),
                                 hotspot: (Int(arrow.hotspot.x), Int(arrow.hotspot.y))) {
            log.notice("Xwayland has no 32-bit Render format; the root window keeps no cursor")
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
        dnd = nil
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
        while let event = connection.nextEvent(queuedOnly: mask == 0) {
            handle(event)
            count += 1
        }
        if connection.hasError || (count == 0 && mask & UInt32(WL_EVENT_HANGUP | WL_EVENT_ERROR) != 0) {
            shutdown()
            closed()
            return
        }
        connection.flush()
    }

    private func handle(_ event: XEvent) {
        log.trace("xwm: \(event.description(naming: atomNames))")
        switch Int32(event.code) {
        case XCB_CREATE_NOTIFY: createNotify(event.load(as: xcb_create_notify_event_t.self))
        case XCB_DESTROY_NOTIFY: destroyNotify(event.load(as: xcb_destroy_notify_event_t.self))
        case XCB_MAP_REQUEST: mapRequest(event.load(as: xcb_map_request_event_t.self))
        case XCB_MAP_NOTIFY: mapNotify(event.load(as: xcb_map_notify_event_t.self))
        case XCB_UNMAP_NOTIFY: unmapNotify(event.load(as: xcb_unmap_notify_event_t.self))
        case XCB_CONFIGURE_REQUEST: configureRequest(event.load(as: xcb_configure_request_event_t.self))
        case XCB_CONFIGURE_NOTIFY: configureNotify(event.load(as: xcb_configure_notify_event_t.self))
        case XCB_PROPERTY_NOTIFY: propertyNotify(event.load(as: xcb_property_notify_event_t.self))
        case XCB_CLIENT_MESSAGE: clientMessage(event.load(as: xcb_client_message_event_t.self), sent: event.sent)
        case XCB_SELECTION_NOTIFY:
            let e = event.load(as: xcb_selection_notify_event_t.self)
            selections.first { $0.window == e.requestor && $0.atom == e.selection }?.selectionNotify(e)
        case XCB_SELECTION_REQUEST:
            let e = event.load(as: xcb_selection_request_event_t.self)
            if let selection = selections.first(where: { $0.window == e.owner && $0.atom == e.selection }) {
                selection.selectionRequest(e)
            } else {
                connection.notifySelection(e, property: 0)
            }
        default:
            if let code = xfixesSelectionNotify, event.code == code {
                let e = event.load(as: xcb_xfixes_selection_notify_event_t.self)
                selections.first { $0.atom == e.selection }?.ownerChanged(to: e.owner)
            }
        }
    }
}
