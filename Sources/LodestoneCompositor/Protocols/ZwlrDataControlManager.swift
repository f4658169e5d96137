import Glibc
import CWaylandProtocols
import CWaylandServer
import WaylandServer

/// `zwlr_data_control_manager_v1` (wlr-data-control-unstable-v1, version 2): clipboard
/// managers and `wl-copy`/`wl-paste` read and set the clipboard and the primary selection
/// without a window or keyboard focus. The state is `DataControl` (`Selection/`). Lodestone
/// has one seat, for as long as it runs, so a device never outlives its seat and `finished`
/// is never sent.
final class ZwlrDataControlManager: Resource, ZwlrDataControlManagerV1Handler {
    static let version: Int32 = 2
    unowned let dataControl: DataControl

    init?(dataControl: DataControl, client: Client, version: UInt32, id: UInt32) {
        self.dataControl = dataControl
        super.init(client: client, version: version, id: id)
    }

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        case .createDataSource: _ = ZwlrDataControlSource(client: client, version: version, id: a.newID(0))
        // The seat argument names Lodestone's only seat.
        case .getDataDevice: _ = ZwlrDataControlDevice(dataControl: dataControl, client: client, version: version, id: a.newID(0))
        case .destroy: destroy()
        }
    }
}

/// `zwlr_data_control_device_v1`: one client's view of the seat's clipboard and primary
/// selection, told of every change.
final class ZwlrDataControlDevice: Resource, ZwlrDataControlDeviceV1Handler {
    unowned let dataControl: DataControl

    init?(dataControl: DataControl, client: Client, version: UInt32, id: UInt32) {
        self.dataControl = dataControl
        super.init(client: client, version: version, id: id)
        dataControl.deviceBound(self)
    }

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        case .setSelection: set(a.object(0, as: ZwlrDataControlSource.self), into: dataControl.clipboard)
        case .setPrimarySelection: set(a.object(0, as: ZwlrDataControlSource.self), into: dataControl.primary)
        case .destroy: destroy()
        }
    }

    /// `set_selection`, `set_primary_selection`: the source (or nothing) replaces the
    /// selection, with no serial to check: clipboard managers act without input.
    private func set<P>(_ source: ZwlrDataControlSource?, into selection: Selection<P>) {
        if let source {
            guard !source.used else {
                return postError(ZWLR_DATA_CONTROL_DEVICE_V1_ERROR_USED_SOURCE.rawValue,
                                 "this zwlr_data_control_source_v1 was already used for a selection")
            }
            source.used = true
            source.whenDestroyed = { [weak selection] in selection?.sourceDestroyed($0) }
        }
        selection.setSelection(source)
    }

    /// `data_offer`, its MIME types (`offer`), then `selection` or `primary_selection`
    /// (nil: the selection is empty). A version 1 device has no primary selection.
    func sendSelection(_ source: SelectionSource?, primary: Bool) {
        if primary, !has(2) { return }
        let select: (OpaquePointer, OpaquePointer?) -> Void = primary
            ? { zwlr_data_control_device_v1_send_primary_selection($0, $1) }
            : { zwlr_data_control_device_v1_send_selection($0, $1) }
        guard let source, let offer = ZwlrDataControlOffer(source: source, device: self) else { return send { select($0, nil) } }
        send(offer) { zwlr_data_control_device_v1_send_data_offer($0, $1) }
        for mime in source.mimeTypes { offer.send { zwlr_data_control_offer_v1_send_offer($0, mime) } }
        send(offer) { select($0, $1) }
    }

    override func destroyed() { dataControl.deviceDestroyed(self) }
}

/// `zwlr_data_control_source_v1`: what a clipboard manager offers; once set, it is the
/// seat's clipboard or primary selection like any client's source.
final class ZwlrDataControlSource: Resource, SelectionSource, ZwlrDataControlSourceV1Handler {
    private(set) var mimeTypes: [String] = []
    /// Given to set_selection or set_primary_selection: it may not be again, nor gain types.
    var used = false
    /// Empties the selection it was set into when the client destroys it.
    var whenDestroyed: ((SelectionSource) -> Void)?

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        case .offer:
            guard !used else {
                return postError(ZWLR_DATA_CONTROL_SOURCE_V1_ERROR_INVALID_OFFER.rawValue,
                                 "offer after the zwlr_data_control_source_v1 was used for a selection")
            }
            if let mime = a.string(0), !mimeTypes.contains(mime) { mimeTypes.append(mime) }
        case .destroy: destroy()
        }
    }

    func send(mime: String, fd: Int32) { send { zwlr_data_control_source_v1_send_send($0, mime, fd) } }
    func cancelled() { send { zwlr_data_control_source_v1_send_cancelled($0) } }

    override func destroyed() { whenDestroyed?(self) }
}

/// `zwlr_data_control_offer_v1`: a clipboard manager's view of the current source, whoever
/// made it (a Wayland client, an X11 app through the bridge, another data-control client).
final class ZwlrDataControlOffer: Resource, ZwlrDataControlOfferV1Handler {
    private weak var source: SelectionSource?

    init?(source: SelectionSource, device: ZwlrDataControlDevice) {
        self.source = source
        super.init(client: device.client, interface: Self.interface, version: device.version, id: 0)
    }

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        // The source writes into the pipe; our copy of the fd is closed here. A replaced
        // source's offer reads nothing (the client sees the pipe close).
        case .receive:
            let fd = a.fd(1)
            if let source, let mime = a.string(0) { source.send(mime: mime, fd: fd) }
            close(fd)
        case .destroy: destroy()
        }
    }
}
