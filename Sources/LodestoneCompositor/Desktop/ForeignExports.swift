import CWaylandProtocols
import CWaylandServer
import WaylandServer

/// The live exports and the imports that refer to them.
final class ForeignExports {
    private var exports: [ZxdgExported] = []
    var importers: [ZxdgImported] = []

    func add(_ exported: ZxdgExported) { exports.append(exported) }

    func export(named handle: String) -> ZxdgExported? { exports.first { $0.handle == handle && $0.toplevel != nil } }

    /// An export was destroyed: every import of it hears `destroyed`.
    func remove(_ exported: ZxdgExported) {
        exports.removeAll { $0 === exported }
        for imported in importers where imported.exported === exported { imported.exportDestroyed() }
        importers.removeAll { $0.exported == nil }
    }

    /// A window went away: its exports are withdrawn as if destroyed (their objects stay, inert).
    func toplevelDestroyed(_ toplevel: XdgToplevel) {
        for exported in exports where exported.toplevel === toplevel || exported.toplevel == nil { remove(exported) }
    }
}
