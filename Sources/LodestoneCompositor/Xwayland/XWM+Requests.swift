import CWaylandServer
import CXCB
import WaylandServer

/// Reading a window's properties, and what the desktop asks of X windows (configure, state,
/// frame extents, focus, close).
extension XWM {
    // MARK: Properties

    func read(_ property: XAtom, of window: XwaylandWindow) {
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
            log.debug("close: WM_DELETE_WINDOW to X window 0x\(String(window.id, radix: 16))")
            connection.sendClientMessage(to: window.id, type: atoms.wmProtocols, (atoms.wmDeleteWindow, UInt32(XCB_CURRENT_TIME), 0, 0, 0))
        } else {
            log.debug("close: X window 0x\(String(window.id, radix: 16)) speaks no WM_DELETE_WINDOW; its client is disconnected")
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
