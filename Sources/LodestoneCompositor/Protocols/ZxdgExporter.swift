import CWaylandProtocols
import CWaylandServer
import WaylandServer

/// `zxdg_exporter_v2` and `zxdg_importer_v2` (xdg-foreign-unstable-v2): one client exports
/// a window as a handle (a string it passes on, e.g. through a portal), another imports the
/// handle and makes its own toplevel a child of that window (`set_parent_of`): a file
/// chooser of a sandboxed app's portal over the app. Lodestone then keeps the child above
/// its parent and places it centred over it (`XdgToplevel.parent`, as `set_parent`).
/// Every xdg-foreign object reaches the one table of exports: the globals to add and look
/// up handles, the exported and imported objects to leave it when they go.
class ForeignObject: Resource {
    unowned let exports: ForeignExports

    init?(exports: ForeignExports, client: Client, version: UInt32, id: UInt32) {
        self.exports = exports
        super.init(client: client, version: version, id: id)
    }
}

final class ZxdgExporter: ForeignObject, ZxdgExporterV2Handler {
    static let version: Int32 = 1

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        case .destroy: destroy()
        case .exportToplevel:
            guard let surface = a.object(1, as: WlSurface.self) else { return }
            guard let toplevel = (surface.role as? XdgSurface)?.toplevel else {
                return postError(ZXDG_EXPORTER_V2_ERROR_INVALID_SURFACE.rawValue,
                                 "wl_surface@\(surface.objectID) is not an xdg_toplevel")
            }
            guard let exported = ZxdgExported(toplevel: toplevel, exports: exports, client: client, version: version, id: a.newID(0)) else { return }
            exports.add(exported)
            exported.send { zxdg_exported_v2_send_handle($0, exported.handle) }
        }
    }
}

/// `zxdg_exported_v2`: a window's handle, valid until this object (or the window) goes.
final class ZxdgExported: ForeignObject, ZxdgExportedV2Handler {
    private(set) weak var toplevel: XdgToplevel?
    /// 128 random bits: another client cannot guess it.
    let handle = (0..<2).map { _ in String(UInt64.random(in: .min ... .max), radix: 16).leftPadded(to: 16) }.joined()

    init?(toplevel: XdgToplevel, exports: ForeignExports, client: Client, version: UInt32, id: UInt32) {
        self.toplevel = toplevel
        super.init(exports: exports, client: client, version: version, id: id)
    }

    func handle(_ request: Request, _ arguments: Arguments) {
        if request == .destroy { destroy() }
    }

    override func destroyed() { exports.remove(self) }
}

final class ZxdgImporter: ForeignObject, ZxdgImporterV2Handler {
    static let version: Int32 = 1

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        case .destroy: destroy()
        case .importToplevel:
            let handle = a.string(1) ?? ""
            guard let imported = ZxdgImported(handle: handle, exports: exports, client: client, version: version, id: a.newID(0)) else { return }
            if let exported = exports.export(named: handle) {
                exports.importers.append(imported)
                imported.exported = exported
            } else {
                // An unknown or withdrawn handle: the import is dead at once.
                imported.send { zxdg_imported_v2_send_destroyed($0) }
            }
        }
    }
}

/// `zxdg_imported_v2`: another client's window, to parent this client's toplevels to.
final class ZxdgImported: ForeignObject, ZxdgImportedV2Handler {
    let handle: String
    weak var exported: ZxdgExported?
    /// The toplevels made children through this import: they are let go when it goes.
    private var children: [Weak<XdgToplevel>] = []

    init?(handle: String, exports: ForeignExports, client: Client, version: UInt32, id: UInt32) {
        self.handle = handle
        super.init(exports: exports, client: client, version: version, id: id)
    }

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        case .destroy: destroy()
        case .setParentOf:
            guard let surface = a.object(0, as: WlSurface.self) else { return }
            guard let child = (surface.role as? XdgSurface)?.toplevel else {
                return postError(ZXDG_IMPORTED_V2_ERROR_INVALID_SURFACE.rawValue,
                                 "wl_surface@\(surface.objectID) is not an xdg_toplevel")
            }
            // Inert once the export is gone.
            guard let parent = exported?.toplevel, parent !== child else { return }
            child.setParent(parent)
            children.append(Weak(child))
        }
    }

    /// The export went away: its window is no one's parent through this import any more.
    func exportDestroyed() {
        exported = nil
        send { zxdg_imported_v2_send_destroyed($0) }
        releaseChildren()
    }

    private func releaseChildren() {
        for case let child? in children.map(\.value) where child.parent != nil { child.setParent(nil) }
        children = []
    }

    override func destroyed() {
        exports.importers.removeAll { $0 === self }
        releaseChildren()
    }
}
