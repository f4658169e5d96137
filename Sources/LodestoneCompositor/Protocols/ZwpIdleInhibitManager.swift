import CWaylandProtocols
import CWaylandServer
import WaylandServer

/// `zwp_idle_inhibit_manager_v1` (idle-inhibit-unstable-v1): a surface that is being
/// watched (a video, a presentation) keeps the session from going idle while it is
/// visible. Lodestone has no screen blanking or locking; its one idle behaviour is the
/// adaptive pointer's auto-hide, which an inhibitor suspends.
final class ZwpIdleInhibitManager: Resource, ZwpIdleInhibitManagerV1Handler {
    static let version: Int32 = 1
    unowned let inhibitors: IdleInhibitors

    init?(inhibitors: IdleInhibitors, client: Client, version: UInt32, id: UInt32) {
        self.inhibitors = inhibitors
        super.init(client: client, version: version, id: id)
    }

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        case .destroy: destroy()
        case .createInhibitor:
            guard let surface = a.object(1, as: WlSurface.self),
                  let inhibitor = ZwpIdleInhibitor(surface: surface, inhibitors: inhibitors, client: client, version: version, id: a.newID(0))
            else { return }
            inhibitors.add(inhibitor)
        }
    }
}

/// `zwp_idle_inhibitor_v1`: inhibits idle while its surface is on screen; destroying it
/// (or the surface) ends that.
final class ZwpIdleInhibitor: Resource, ZwpIdleInhibitorV1Handler {
    private(set) weak var surface: WlSurface?
    unowned let inhibitors: IdleInhibitors

    init?(surface: WlSurface, inhibitors: IdleInhibitors, client: Client, version: UInt32, id: UInt32) {
        self.surface = surface
        self.inhibitors = inhibitors
        super.init(client: client, version: version, id: id)
    }

    func handle(_ request: Request, _ arguments: Arguments) {
        if request == .destroy { destroy() }
    }

    override func destroyed() { inhibitors.remove(self) }
}
