import CWaylandProtocols
import CWaylandServer
import WaylandServer

/// `zwlr_foreign_toplevel_manager_v1` (wlr-foreign-toplevel-management-unstable-v1,
/// version 3): a task bar (waybar's wlr/taskbar) lists every window, whoever made it,
/// and activates, closes, minimizes, maximizes and fullscreens them. The state is
/// `ForeignToplevels` (`Desktop/`).
final class ZwlrForeignToplevelManager: Resource, ZwlrForeignToplevelManagerV1Handler {
    static let version: Int32 = 3
    unowned let toplevels: ForeignToplevels
    /// What the handles it announces ask of the core (activate, minimize).
    unowned let taskBar: any TaskBarRequests

    init?(toplevels: ForeignToplevels, taskBar: any TaskBarRequests, client: Client, version: UInt32, id: UInt32) {
        self.toplevels = toplevels
        self.taskBar = taskBar
        super.init(client: client, version: version, id: id)
        toplevels.managerBound(self)
    }

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        // `finished`, then the server destroys the manager, as the protocol says.
        case .stop:
            toplevels.managerGone(self)
            send { zwlr_foreign_toplevel_manager_v1_send_finished($0) }
            destroy()
        }
    }

    override func destroyed() { toplevels.managerGone(self) }
}

/// `zwlr_foreign_toplevel_handle_v1`: one window as one task bar sees it. Each refresh
/// sends what changed since the last, then `done`; once `closed`, it is inert.
final class ZwlrForeignToplevelHandle: Resource, ZwlrForeignToplevelHandleV1Handler {
    /// Its manager's: the handle outlives a stopped manager and still answers.
    private unowned let taskBar: any TaskBarRequests
    /// The manager that announced it: a parent is named by the same manager's handle.
    private(set) weak var manager: ZwlrForeignToplevelManager?
    weak var entry: ForeignToplevelEntry?
    private(set) var isClosed = false
    // What the client last heard.
    private var sentTitle: String?, sentAppID: String?, sentStates: [UInt32]?
    private var sentOutputs: [WlOutput] = []
    private weak var sentParent: ZwlrForeignToplevelHandle?

    init?(manager: ZwlrForeignToplevelManager) {
        taskBar = manager.taskBar
        self.manager = manager
        super.init(client: manager.client, version: manager.version, id: 0)
        manager.send(self) { zwlr_foreign_toplevel_manager_v1_send_toplevel($0, $1) }
    }

    func handle(_ request: Request, _ a: Arguments) {
        if request == .destroy { return destroy() }
        if request == .setRectangle {
            // Only a hint (where a minimized window would fly to): checked, not used.
            guard a.int(3) >= 0, a.int(4) >= 0 else {
                return postError(ZWLR_FOREIGN_TOPLEVEL_HANDLE_V1_ERROR_INVALID_RECTANGLE.rawValue,
                                 "set_rectangle with a negative size \(a.int(3))×\(a.int(4))")
            }
            return
        }
        // A closed handle's requests are ignored.
        guard !isClosed, let window = entry?.window else { return }
        switch request {
        case .setMaximized: window.setSizeState(maximized: true, fullscreen: window.isFullscreen)
        case .unsetMaximized: window.setSizeState(maximized: false, fullscreen: window.isFullscreen)
        case .setMinimized: taskBar.minimizeWindow(window)
        case .unsetMinimized: if window.isMinimized { taskBar.taskBarActivated(window) }
        // The seat argument names Lodestone's only seat.
        case .activate: taskBar.taskBarActivated(window)
        case .close: window.sendClose()
        // The output is a hint: the window fills the head it is on.
        case .setFullscreen: window.setSizeState(maximized: window.isMaximized, fullscreen: true)
        case .unsetFullscreen: window.setSizeState(maximized: window.isMaximized, fullscreen: false)
        case .setRectangle, .destroy: break
        }
    }

    /// Sends what differs from what the client last heard, then `done` (always after the
    /// first refresh, which follows `toplevel`).
    func refresh(_ window: DesktopWindow, heads: [OutputHead], parent: ZwlrForeignToplevelHandle?) {
        guard !isClosed else { return }
        var changed = sentStates == nil
        if window.title != sentTitle {
            sentTitle = window.title
            send { zwlr_foreign_toplevel_handle_v1_send_title($0, window.title) }
            changed = true
        }
        if window.appID != sentAppID {
            sentAppID = window.appID
            send { zwlr_foreign_toplevel_handle_v1_send_app_id($0, window.appID) }
            changed = true
        }
        // The client's wl_outputs for the heads the window is on (one may have bound several).
        let outputs = heads.flatMap(\.resources).filter { $0.client == client && !$0.isDestroyed }
        sentOutputs.removeAll(where: \.isDestroyed)
        for output in sentOutputs where !outputs.contains(where: { $0 === output }) {
            send(output) { zwlr_foreign_toplevel_handle_v1_send_output_leave($0, $1) }
            changed = true
        }
        for output in outputs where !sentOutputs.contains(where: { $0 === output }) {
            send(output) { zwlr_foreign_toplevel_handle_v1_send_output_enter($0, $1) }
            changed = true
        }
        sentOutputs = outputs
        let states = states(of: window)
        if states != sentStates {
            sentStates = states
            withArray(states) { array in send { zwlr_foreign_toplevel_handle_v1_send_state($0, array) } }
            changed = true
        }
        // Since 3
        if has(3), parent !== sentParent {
            sentParent = parent
            if let parent { send(parent) { zwlr_foreign_toplevel_handle_v1_send_parent($0, $1) } } else { send { zwlr_foreign_toplevel_handle_v1_send_parent($0, nil) } }
            changed = true
        }
        if changed { send { zwlr_foreign_toplevel_handle_v1_send_done($0) } }
    }

    /// The `state` enum's values that hold; fullscreen since version 2.
    private func states(of window: DesktopWindow) -> [UInt32] {
        var states: [UInt32] = []
        if window.isMaximized { states.append(ZWLR_FOREIGN_TOPLEVEL_HANDLE_V1_STATE_MAXIMIZED.rawValue) }
        if window.isMinimized { states.append(ZWLR_FOREIGN_TOPLEVEL_HANDLE_V1_STATE_MINIMIZED.rawValue) }
        if window.isActivated { states.append(ZWLR_FOREIGN_TOPLEVEL_HANDLE_V1_STATE_ACTIVATED.rawValue) }
        if has(2), window.isFullscreen { states.append(ZWLR_FOREIGN_TOPLEVEL_HANDLE_V1_STATE_FULLSCREEN.rawValue) }
        return states
    }

    /// The window was unmapped or destroyed.
    func closed() {
        guard !isClosed else { return }
        isClosed = true
        send { zwlr_foreign_toplevel_handle_v1_send_closed($0) }
    }

    override func destroyed() { entry?.wlrHandles.removeAll { $0 === self } }
}
