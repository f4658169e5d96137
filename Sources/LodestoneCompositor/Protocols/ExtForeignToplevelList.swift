import CWaylandProtocols
import CWaylandServer
import WaylandServer

/// `ext_foreign_toplevel_list_v1` (version 1): every mapped window's title, app_id and a
/// stable identifier, for tools that only list (no actions: those are wlr's). The state is
/// `ForeignToplevels` (`Desktop/`).
final class ExtForeignToplevelList: Resource, ExtForeignToplevelListV1Handler {
    static let version: Int32 = 1
    unowned let toplevels: ForeignToplevels
    private var stopped = false

    init?(toplevels: ForeignToplevels, client: Client, version: UInt32, id: UInt32) {
        self.toplevels = toplevels
        super.init(client: client, version: version, id: id)
        toplevels.listBound(self)
    }

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        // No toplevel events after `finished`; the client destroys the list.
        case .stop:
            guard !stopped else { return }
            stopped = true
            toplevels.listGone(self)
            send { ext_foreign_toplevel_list_v1_send_finished($0) }
        case .destroy: destroy()
        }
    }

    override func destroyed() { toplevels.listGone(self) }
}

/// `ext_foreign_toplevel_handle_v1`: one mapped window; `closed` when it unmaps, then inert.
final class ExtForeignToplevelHandle: Resource, ExtForeignToplevelHandleV1Handler {
    weak var entry: ForeignToplevelEntry?
    private(set) var isClosed = false
    private var sentTitle: String?, sentAppID: String?
    private var sentDone = false

    /// Announced by `toplevel`, with the window's identifier (sent only now, as the protocol asks).
    init?(list: ExtForeignToplevelList, identifier: String) {
        super.init(client: list.client, version: list.version, id: 0)
        list.send(self) { ext_foreign_toplevel_list_v1_send_toplevel($0, $1) }
        send { ext_foreign_toplevel_handle_v1_send_identifier($0, identifier) }
    }

    func handle(_ request: Request, _ a: Arguments) {
        if request == .destroy { destroy() }
    }

    /// What changed, then `done` (always after the first refresh).
    func refresh(_ window: DesktopWindow) {
        guard !isClosed else { return }
        var changed = !sentDone
        if window.title != sentTitle {
            sentTitle = window.title
            send { ext_foreign_toplevel_handle_v1_send_title($0, window.title) }
            changed = true
        }
        if window.appID != sentAppID {
            sentAppID = window.appID
            send { ext_foreign_toplevel_handle_v1_send_app_id($0, window.appID) }
            changed = true
        }
        sentDone = true
        if changed { send { ext_foreign_toplevel_handle_v1_send_done($0) } }
    }

    func closed() {
        guard !isClosed else { return }
        isClosed = true
        send { ext_foreign_toplevel_handle_v1_send_closed($0) }
    }

    override func destroyed() { entry?.extHandles.removeAll { $0 === self } }
}
