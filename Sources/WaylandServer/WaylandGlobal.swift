import CWaylandServer
import LodestoneSystem

/// A `wl_global`: an interface advertised in every client's registry.
public final class WaylandGlobal {
    private var pointer: OpaquePointer?
    private let bind: (Client, UInt32, UInt32) -> Void

    /// `bind` gets the client, the version it asked for and the new object's id.
    /// Throws when libwayland cannot make the global (no memory, a version the
    /// interface does not have).
    public convenience init(display: Display, interface: UnsafePointer<wl_interface>, version: Int32,
                            bind: @escaping (_ client: Client, _ version: UInt32, _ id: UInt32) -> Void) throws(SystemError) {
        try self.init(display: display.pointer, interface: interface, version: version, bind: bind)
    }

    /// The same on a `wl_display *` somebody else owns (liblodestone-pointer's server helper
    /// on a C compositor's display).
    package init(display: OpaquePointer, interface: UnsafePointer<wl_interface>, version: Int32,
                bind: @escaping (_ client: Client, _ version: UInt32, _ id: UInt32) -> Void) throws(SystemError) {
        self.bind = bind
        let name = String(cString: interface.pointee.name)
        pointer = try call("wl_global_create", what: "cannot offer \(name) version \(version) (wl_global_create failed)") {
            wl_global_create(display, interface, version, nil) { client, data, version, id in
                guard let data, let client else { return }
                Unmanaged<WaylandGlobal>.fromOpaque(data).takeUnretainedValue().bind(Client(pointer: client), version, id)
            }
        }
        wl_global_set_user_data(pointer, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Tells clients the global is gone (`wl_global_remove`) while it stays bindable by a
    /// client that has not yet heard: destroying it at once would make that late bind a
    /// protocol error. The global is destroyed when this object goes.
    public func withdraw() { if let pointer { wl_global_remove(pointer) } }

    deinit { if let pointer { wl_global_destroy(pointer) } }
}
