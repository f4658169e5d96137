import CWaylandProtocols
import CWaylandServer
import WaylandServer

/// `zxdg_decoration_manager_v1` (xdg-decoration-unstable-v1): a client asks whether its
/// window's title bar is drawn by itself or by Lodestone. Lodestone draws one (a
/// `TitleBar`) for every client that asks for server-side decorations or has no
/// preference; a client that asks for client-side gets its wish.
final class ZxdgDecorationManager: Resource, ZxdgDecorationManagerV1Handler {
    static let version: Int32 = 1

    override init?(client: Client, version: UInt32, id: UInt32) {
        super.init(client: client, version: version, id: id)
    }

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        case .destroy: destroy()
        case .getToplevelDecoration:
            guard let toplevel = a.object(1, as: XdgToplevel.self) else { return }
            guard toplevel.decoration == nil else {
                return postError(ZXDG_TOPLEVEL_DECORATION_V1_ERROR_ALREADY_CONSTRUCTED.rawValue,
                                 "xdg_toplevel@\(toplevel.objectID) already has a zxdg_toplevel_decoration_v1")
            }
            guard !(toplevel.xdgSurface.surface?.hasContent ?? false) else {
                return postError(ZXDG_TOPLEVEL_DECORATION_V1_ERROR_UNCONFIGURED_BUFFER.rawValue,
                                 "xdg_toplevel@\(toplevel.objectID) already has a buffer; decorations are chosen before it")
            }
            guard let decoration = ZxdgToplevelDecoration(toplevel: toplevel, client: client, version: version, id: a.newID(0)) else { return }
            toplevel.decoration = decoration
            // No preference yet: Lodestone's is server-side.
            decoration.choose(server: true)
        }
    }
}

/// `zxdg_toplevel_decoration_v1`: the decoration mode of one window.
final class ZxdgToplevelDecoration: Resource, ZxdgToplevelDecorationV1Handler {
    private(set) weak var toplevel: XdgToplevel?

    init?(toplevel: XdgToplevel, client: Client, version: UInt32, id: UInt32) {
        self.toplevel = toplevel
        super.init(client: client, version: version, id: id)
    }

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        case .destroy: destroy()
        case .setMode:
            switch a.uint(0) {
            // Version 1 has no error for an unknown mode: it counts as no preference.
            case ZXDG_TOPLEVEL_DECORATION_V1_MODE_CLIENT_SIDE.rawValue: choose(server: false)
            default: choose(server: true)
            }
        case .unsetMode: choose(server: true)
        }
    }

    /// Tells the client the mode (a decoration configure, then an xdg_surface configure,
    /// which the initial commit sends if it has not happened yet) and shows or hides the bar.
    func choose(server: Bool) {
        guard let toplevel else {
            return postError(ZXDG_TOPLEVEL_DECORATION_V1_ERROR_ORPHANED.rawValue, "its xdg_toplevel was destroyed first")
        }
        let mode = server ? ZXDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE : ZXDG_TOPLEVEL_DECORATION_V1_MODE_CLIENT_SIDE
        send { zxdg_toplevel_decoration_v1_send_configure($0, mode.rawValue) }
        toplevel.setServerSideDecorated(server)
        // The mode takes effect with an xdg_surface.configure (the initial one, if still to come).
        toplevel.reconfigureIfStarted()
    }

    override func destroyed() {
        // Back to no server-side decoration (the protocol's destroy).
        toplevel?.setServerSideDecorated(false)
        if toplevel?.decoration === self { toplevel?.decoration = nil }
    }
}
