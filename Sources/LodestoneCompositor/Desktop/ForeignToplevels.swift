import WaylandServer

/// What a task bar's requests ask of the core (`zwlr_foreign_toplevel_handle_v1`'s
/// activate and minimize): `Compositor` implements it with its seat and desktop. Only the
/// handlers hold it (each manager, and the handles it announces); `ForeignToplevels` does not.
protocol TaskBarRequests: AnyObject {
    /// Raises the window and gives it the keyboard, restoring it if minimized.
    func taskBarActivated(_ window: DesktopWindow)
    func minimizeWindow(_ window: DesktopWindow)
}

/// The windows task bars see (`zwlr_foreign_toplevel_manager_v1`,
/// `ext_foreign_toplevel_list_v1`): each mapped window gets a handle per bound manager and
/// list, told its title, app_id, states, heads and parent; a window unmapped or destroyed
/// closes its handles, and mapped again gets new ones with a new identifier, as wlroots does.
///
/// Changes are gathered and sent from an idle source once the current request or input is
/// done (`needsUpdate`): each handle hears what differs from what it last heard, then one
/// `done`. The core calls `needsUpdate` when the scene's layout changes (a window mapped,
/// unmapped, minimized, moved, raised) and when a window's title, app_id or states change.
/// It reads the windows from the scene and their heads from the layout; what a task bar
/// asks of a window goes from its handle to the core (`TaskBarRequests`), not through here.
final class ForeignToplevels {
    private let scene: Scene
    private let layout: OutputLayout
    private let loop: EventLoop
    private var managers: [ZwlrForeignToplevelManager] = []
    private var lists: [ExtForeignToplevelList] = []
    /// Listed windows, in the order they were mapped.
    private var entries: [ForeignToplevelEntry] = []
    private var pending: EventSource?
    /// Makes each identifier new for the compositor's lifetime (ext's `identifier`).
    private var identifiers: UInt64 = 0

    init(scene: Scene, layout: OutputLayout, loop: EventLoop) {
        self.scene = scene
        self.layout = layout
        self.loop = loop
    }

    /// Something a task bar shows may have changed: sent once the loop is idle. Nothing to
    /// do before the first task bar binds; after it, windows keep their entries (and
    /// identifiers) and handles left from stopped managers still hear `closed`.
    func needsUpdate() {
        guard pending == nil, !managers.isEmpty || !lists.isEmpty || !entries.isEmpty else { return }
        pending = try? loop.addIdle { [unowned self] in
            self.pending = nil
            self.update()
        }
    }

    /// Ends the pending idle source while the loop still exists (the compositor shuts down).
    func stop() {
        pending?.remove()
        pending = nil
    }

    // MARK: Managers and lists

    func managerBound(_ manager: ZwlrForeignToplevelManager) {
        update()
        managers.append(manager)
        for entry in entries { createHandle(for: entry, in: manager) }
    }

    func listBound(_ list: ExtForeignToplevelList) {
        update()
        lists.append(list)
        for entry in entries { createHandle(for: entry, in: list) }
    }

    /// Stopped or destroyed: no new toplevels for it. Its handles stay until their windows close.
    func managerGone(_ manager: ZwlrForeignToplevelManager) { managers.removeAll { $0 === manager } }
    func listGone(_ list: ExtForeignToplevelList) { lists.removeAll { $0 === list } }

    // MARK: Diffing

    private func update() {
        // Mapped windows, minimized ones included (xdg toplevels and managed X11 windows).
        let windows = scene.windows + scene.minimized
        // Gone or unmapped: closed.
        for entry in entries where !windows.contains(where: { $0 === entry.window }) { entry.close() }
        entries.removeAll(where: \.isClosed)
        for window in windows where !entries.contains(where: { $0.window === window }) {
            identifiers += 1
            let entry = ForeignToplevelEntry(window: window, identifier: "lodestone-\(identifiers)")
            entries.append(entry)
            for manager in managers { createHandle(for: entry, in: manager) }
            for list in lists { createHandle(for: entry, in: list) }
        }
        // A parent's handle may have come after its child's: every handle catches up.
        for entry in entries { refresh(entry) }
    }

    private func createHandle(for entry: ForeignToplevelEntry, in manager: ZwlrForeignToplevelManager) {
        guard let handle = ZwlrForeignToplevelHandle(manager: manager) else { return }
        entry.wlrHandles.append(handle)
        handle.entry = entry
        refresh(entry)
    }

    private func createHandle(for entry: ForeignToplevelEntry, in list: ExtForeignToplevelList) {
        guard let handle = ExtForeignToplevelHandle(list: list, identifier: entry.identifier) else { return }
        entry.extHandles.append(handle)
        handle.entry = entry
        refresh(entry)
    }

    private func refresh(_ entry: ForeignToplevelEntry) {
        guard let window = entry.window else { return }
        if let heads = heads(of: window) { entry.heads = heads }
        let parentEntry = window.parentWindow.flatMap { p in entries.first { $0.window === p } }
        for handle in entry.wlrHandles {
            let parent = parentEntry?.wlrHandles.first { $0.manager != nil && $0.manager === handle.manager }
            handle.refresh(window, heads: entry.heads, parent: parent)
        }
        for handle in entry.extHandles { handle.refresh(window) }
    }

    /// The heads a window is shown on, as `updateOutputs` decides a surface's: those its
    /// tree's bounds overlap; nil while it is off screen (minimized).
    private func heads(of window: DesktopWindow) -> [OutputHead]? {
        guard !window.isMinimized, let surface = window.surface, let bounds = scene.treeBounds(surface) else { return nil }
        return layout.heads.filter { layout.heads.count == 1 || !bounds.intersection($0.bounds).isEmpty }
    }
}

/// One listed window and the handles task bars hold for it.
final class ForeignToplevelEntry {
    private(set) weak var window: DesktopWindow?
    let identifier: String
    var wlrHandles: [ZwlrForeignToplevelHandle] = []
    var extHandles: [ExtForeignToplevelHandle] = []
    /// Where the window was last shown: kept while it is minimized, so a task bar that
    /// lists a head's windows keeps it there.
    var heads: [OutputHead] = []
    private(set) var isClosed = false

    init(window: DesktopWindow, identifier: String) {
        self.window = window
        self.identifier = identifier
    }

    func close() {
        isClosed = true
        for handle in wlrHandles { handle.closed() }
        for handle in extHandles { handle.closed() }
        wlrHandles = []
        extHandles = []
    }
}

extension Compositor: TaskBarRequests {
    /// As a click on it would: open menus close, and it comes up with the keyboard.
    func taskBarActivated(_ window: DesktopWindow) {
        seat.dismissPopupGrabs()
        seat.apply(desktop.activate(window))
    }
}
