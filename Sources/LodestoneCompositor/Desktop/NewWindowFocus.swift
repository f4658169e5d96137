import Glibc
import WaylandServer

/// Whether a new window takes the keyboard (docs/desktop-apps.md, "Focus"). As in sway, a
/// new window does, unless focus-stealing prevention holds it back: it takes the keyboard
/// when no window has it, when its client already has it, or when its program was started
/// by the program the user is using (the process holding the keyboard) or by Lodestone.
/// Anything else maps behind without the keyboard, marked urgent; an xdg-activation token
/// the user's input gave (`ActivationTokens`) still brings it forward afterwards.
///
/// Each client's lineage is read when it connects (`Display.onClientCreated`), not when
/// its window maps: `wl-copy` forks and its parent, the process that connected, exits
/// before the child maps its window.
///
/// It reads the keyboard's focus and the scene's windows, and decides: the desktop acts on
/// the answer (`Desktop.windowMapped`).
final class NewWindowFocus {
    private let keyboard: KeyboardFocus
    private let scene: Scene
    /// `Compositor.Options.newWindowsAlwaysTakeFocus`.
    private let alwaysTakesFocus: Bool
    private var lineages: [Client: (lineage: ProcessLineage, gone: Listener?)] = [:]
    /// Listeners of clients that went, freed at the next connection rather than inside
    /// the signal that called them.
    private var retired: [Listener] = []
    private var created: Listener?
    private let ownPID = getpid()

    init(display: Display, keyboard: KeyboardFocus, scene: Scene, alwaysTakesFocus: Bool) {
        self.keyboard = keyboard
        self.scene = scene
        self.alwaysTakesFocus = alwaysTakesFocus
        created = display.onClientCreated { [unowned self] in self.connected($0) }
    }

    private func connected(_ client: Client) {
        retired.removeAll()
        let gone = client.onDestroy { [unowned self] in
            if let listener = self.lineages.removeValue(forKey: client)?.gone { self.retired.append(listener) }
        }
        lineages[client] = (ProcessLineage(of: client.pid), gone)
    }

    /// Whether `window`, mapping now, takes the keyboard; `reason` says why (for the log).
    func takesFocus(_ window: DesktopWindow) -> (Bool, reason: String) {
        if alwaysTakesFocus { return (true, "every new window takes the keyboard") }
        guard let focus = keyboard.focus else { return (true, "no window had the keyboard") }
        if focus.client == window.client { return (true, "its client has the keyboard") }
        let lineage = self.lineage(of: window)
        if lineage.descends(from: ownPID) { return (true, "Lodestone started it") }
        let holder = scene.windows.first { $0.surface === focus }
        if lineage.descends(from: holder.flatMap(processID(of:)) ?? focus.client.pid) {
            return (true, "the window with the keyboard started it")
        }
        return (false, "another program has the keyboard and did not start it")
    }

    /// The process that owns the window: an X11 window's _NET_WM_PID (its wl_client is
    /// Xwayland, which Lodestone started), else its client's.
    private func processID(of window: DesktopWindow) -> Int32? {
        if let x = window as? XwaylandWindow { return x.processID }
        return window.client?.pid
    }

    private func lineage(of window: DesktopWindow) -> ProcessLineage {
        if let x = window as? XwaylandWindow {
            // Read at map: an X client's process is not the connection Lodestone sees.
            return x.processID.map(ProcessLineage.init(of:)) ?? ProcessLineage(pids: [])
        }
        guard let client = window.client else { return ProcessLineage(pids: []) }
        return lineages[client]?.lineage ?? ProcessLineage(of: client.pid)
    }
}
