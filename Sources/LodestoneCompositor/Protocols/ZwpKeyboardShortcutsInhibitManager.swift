import CWaylandProtocols
import CWaylandServer
import WaylandServer

/// `zwp_keyboard_shortcuts_inhibit_manager_v1` (keyboard-shortcuts-inhibit-unstable-v1):
/// a client that wants every key (a remote desktop, a VM viewer, Lodestone nested in
/// Lodestone) asks that the compositor's shortcuts (`Shortcuts`) pass to it while its
/// surface has the keyboard. Lodestone grants it at once (there is no prompt to ask the
/// user); the inhibitor is `active` exactly while its surface has the keyboard focus.
final class ZwpKeyboardShortcutsInhibitManager: Resource, ZwpKeyboardShortcutsInhibitManagerV1Handler {
    static let version: Int32 = 1
    unowned let inhibitors: ShortcutsInhibitors

    init?(inhibitors: ShortcutsInhibitors, client: Client, version: UInt32, id: UInt32) {
        self.inhibitors = inhibitors
        super.init(client: client, version: version, id: id)
    }

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        case .destroy: destroy()
        case .inhibitShortcuts:
            // One seat in Lodestone: every wl_seat names it.
            guard let surface = a.object(1, as: WlSurface.self) else { return }
            guard !inhibitors.has(surface) else {
                return postError(ZWP_KEYBOARD_SHORTCUTS_INHIBIT_MANAGER_V1_ERROR_ALREADY_INHIBITED.rawValue,
                                 "wl_surface@\(surface.objectID) already has a shortcuts inhibitor for this seat")
            }
            guard let inhibitor = ZwpKeyboardShortcutsInhibitor(surface: surface, inhibitors: inhibitors, client: client,
                                                                version: version, id: a.newID(0)) else { return }
            inhibitors.add(inhibitor)
        }
    }
}

/// `zwp_keyboard_shortcuts_inhibitor_v1`: shortcuts pass to its surface while it is active.
final class ZwpKeyboardShortcutsInhibitor: Resource, ZwpKeyboardShortcutsInhibitorV1Handler {
    private(set) weak var surface: WlSurface?
    unowned let inhibitors: ShortcutsInhibitors
    private(set) var isActive = false

    init?(surface: WlSurface, inhibitors: ShortcutsInhibitors, client: Client, version: UInt32, id: UInt32) {
        self.surface = surface
        self.inhibitors = inhibitors
        super.init(client: client, version: version, id: id)
    }

    func handle(_ request: Request, _ arguments: Arguments) {
        if request == .destroy { destroy() }
    }

    func setActive(_ on: Bool) {
        guard on != isActive else { return }
        isActive = on
        if on { send { zwp_keyboard_shortcuts_inhibitor_v1_send_active($0) } } else { send { zwp_keyboard_shortcuts_inhibitor_v1_send_inactive($0) } }
    }

    override func destroyed() { inhibitors.remove(self) }
}
