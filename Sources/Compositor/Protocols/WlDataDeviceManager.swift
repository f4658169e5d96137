import Glibc
import CWaylandServer
import WaylandServer

/// `wl_data_device_manager`: makes data sources and per-seat data devices.
final class WlDataDeviceManager: Resource, RequestHandler {
    static let version: Int32 = 3
    static var interface: UnsafePointer<wl_interface> { Interface.dataDeviceManager }
    unowned let selection: DataSelection

    enum Request: UInt32 { case createDataSource, getDataDevice }

    init?(selection: DataSelection, client: Client, version: UInt32, id: UInt32) {
        self.selection = selection
        super.init(client: client, version: version, id: id)
    }

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        case .createDataSource: _ = WlDataSource(selection: selection, client: client, version: version, id: a.newID(0))
        case .getDataDevice:
            if let device = WlDataDevice(selection: selection, client: client, version: version, id: a.newID(0)) {
                selection.deviceBound(device)
            }
        }
    }
}

/// `wl_data_device`: a client's clipboard and drag-and-drop endpoint.
final class WlDataDevice: Resource, RequestHandler, SelectionDevice {
    static var interface: UnsafePointer<wl_interface> { Interface.dataDevice }
    unowned let selection: DataSelection

    enum Request: UInt32 { case startDrag, setSelection, release }

    init?(selection: DataSelection, client: Client, version: UInt32, id: UInt32) {
        self.selection = selection
        super.init(client: client, version: version, id: id)
    }

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        case .startDrag:
            // The icon takes its role even though no drag happens: the role is for
            // life, and a surface with another role is still an error.
            if let icon = a.object(2, as: WlSurface.self) {
                let role = icon.role as? DragIconRole ?? DragIconRole()
                guard icon.assignRole(role, error: (self, WL_DATA_DEVICE_ERROR_ROLE.rawValue)) else { return }
            }
            // Drag-and-drop is not implemented yet: the drag ends at once,
            // so the client cleans up instead of waiting forever.
            a.object(0, as: WlDataSource.self)?.cancelled()
        case .setSelection:
            let source = a.object(0, as: WlDataSource.self)
            let serial = a.uint(1)
            // Only a client acting on its own current input may replace everyone's clipboard.
            guard selection.acceptsSerial(serial, client) else {
                source?.cancelled()
                return
            }
            if let source {
                guard !source.usedForSelection else {
                    return source.postError(WL_DATA_SOURCE_ERROR_INVALID_SOURCE.rawValue, "this wl_data_source was already used for a selection")
                }
                source.usedForSelection = true
            }
            selection.setSelection(source)
        case .release: destroy()
        }
    }

    /// Introduces a new offer for `source` (or clears the selection).
    func sendSelection(_ source: SelectionSource?) {
        guard let source else { return send { wl_data_device_send_selection($0, nil) } }
        guard let offer = WlDataOffer(source: source, device: self) else { return }
        send(offer) { wl_data_device_send_data_offer($0, $1) }
        for mime in source.mimeTypes { offer.send { wl_data_offer_send_offer($0, mime) } }
        send(offer) { wl_data_device_send_selection($0, $1) }
    }

    override func destroyed() { selection.deviceDestroyed(self) }
}

/// `wl_data_source`: what one client offers to paste.
final class WlDataSource: Resource, RequestHandler, SelectionSource {
    static var interface: UnsafePointer<wl_interface> { Interface.dataSource }
    unowned let selection: DataSelection
    private(set) var mimeTypes: [String] = []
    var usedForSelection = false

    enum Request: UInt32 { case offer, destroy, setActions }

    init?(selection: DataSelection, client: Client, version: UInt32, id: UInt32) {
        self.selection = selection
        super.init(client: client, version: version, id: id)
    }

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        case .offer: if let mime = a.string(0), !mimeTypes.contains(mime) { mimeTypes.append(mime) }
        case .destroy: destroy()
        case .setActions: break  // actions only matter for drag-and-drop
        }
    }

    func send(mime: String, fd: Int32) { send { wl_data_source_send_send($0, mime, fd) } }
    func cancelled() { send { wl_data_source_send_cancelled($0) } }

    override func destroyed() { selection.sourceDestroyed(self) }
}

/// `wl_data_offer`: one client's view of another client's source.
final class WlDataOffer: Resource, RequestHandler {
    static var interface: UnsafePointer<wl_interface> { Interface.dataOffer }
    private weak var source: SelectionSource?

    enum Request: UInt32 { case accept, receive, destroy, finish, setActions }

    init?(source: SelectionSource, device: WlDataDevice) {
        self.source = source
        super.init(client: device.client, version: device.version, id: 0)
    }

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        case .receive:
            let fd = a.fd(1)
            // The source writes into the pipe; our copy of the fd is closed here.
            if let source, let mime = a.string(0) { source.send(mime: mime, fd: fd) }
            close(fd)
        case .destroy: destroy()
        case .accept, .finish, .setActions: break
        }
    }
}

/// The role `wl_data_device.start_drag` gives its icon surface. Drags end at once
/// (no drag-and-drop yet), so the icon is never drawn; the role only keeps the
/// surface from taking another.
final class DragIconRole: SurfaceRole {
    let roleName = "wl_data_device icon"
    func surfaceCommitted() {}
}
