import Glibc
import CWaylandProtocols
import CWaylandServer
import WaylandServer

extension Interface {
    static var primarySelectionDeviceManager: UnsafePointer<wl_interface> { cwp_zwp_primary_selection_device_manager_v1_interface() }
    static var primarySelectionDevice: UnsafePointer<wl_interface> { cwp_zwp_primary_selection_device_v1_interface() }
    static var primarySelectionSource: UnsafePointer<wl_interface> { cwp_zwp_primary_selection_source_v1_interface() }
    static var primarySelectionOffer: UnsafePointer<wl_interface> { cwp_zwp_primary_selection_offer_v1_interface() }
}

/// `zwp_primary_selection_device_manager_v1` (primary-selection-unstable-v1): the
/// selection X11 users paste with the middle button. It works like the clipboard
/// (`WlDataDeviceManager.swift`, the same `Selection` with its own source): the
/// keyboard-focused client gets offers, and a paste is a pipe the source writes into.
/// The protocol defines no errors.
final class ZwpPrimarySelectionDeviceManager: Resource, RequestHandler {
    static let version: Int32 = 1
    static var interface: UnsafePointer<wl_interface> { Interface.primarySelectionDeviceManager }
    unowned let selection: PrimarySelection

    enum Request: UInt32 { case createSource, getDevice, destroy }

    init?(selection: PrimarySelection, client: Client, version: UInt32, id: UInt32) {
        self.selection = selection
        super.init(client: client, version: version, id: id)
    }

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        case .createSource: _ = ZwpPrimarySelectionSource(selection: selection, client: client, version: version, id: a.newID(0))
        case .getDevice:
            if let device = ZwpPrimarySelectionDevice(selection: selection, client: client, version: version, id: a.newID(0)) {
                selection.deviceBound(device)
            }
        case .destroy: destroy()
        }
    }
}

/// `zwp_primary_selection_device_v1`: a client's primary selection endpoint.
final class ZwpPrimarySelectionDevice: Resource, RequestHandler, SelectionDevice {
    static var interface: UnsafePointer<wl_interface> { Interface.primarySelectionDevice }
    unowned let selection: PrimarySelection

    enum Request: UInt32 { case setSelection, destroy }

    init?(selection: PrimarySelection, client: Client, version: UInt32, id: UInt32) {
        self.selection = selection
        super.init(client: client, version: version, id: id)
    }

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        case .setSelection:
            let source = a.object(0, as: ZwpPrimarySelectionSource.self)
            // As the clipboard: only from the client's own current input.
            guard selection.acceptsSerial(a.uint(1), client) else { source?.cancelled(); return }
            selection.setSelection(source)
        case .destroy: destroy()
        }
    }

    func sendSelection(_ source: SelectionSource?) {
        guard let source else { return send { zwp_primary_selection_device_v1_send_selection($0, nil) } }
        guard let offer = ZwpPrimarySelectionOffer(source: source, device: self) else { return }
        send(offer) { zwp_primary_selection_device_v1_send_data_offer($0, $1) }
        for mime in source.mimeTypes { offer.send { zwp_primary_selection_offer_v1_send_offer($0, mime) } }
        send(offer) { zwp_primary_selection_device_v1_send_selection($0, $1) }
    }

    override func destroyed() { selection.deviceDestroyed(self) }
}

/// `zwp_primary_selection_source_v1`: what one client offers to middle-click paste.
final class ZwpPrimarySelectionSource: Resource, RequestHandler, SelectionSource {
    static var interface: UnsafePointer<wl_interface> { Interface.primarySelectionSource }
    unowned let selection: PrimarySelection
    private(set) var mimeTypes: [String] = []

    enum Request: UInt32 { case offer, destroy }

    init?(selection: PrimarySelection, client: Client, version: UInt32, id: UInt32) {
        self.selection = selection
        super.init(client: client, version: version, id: id)
    }

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        case .offer: if let mime = a.string(0), !mimeTypes.contains(mime) { mimeTypes.append(mime) }
        case .destroy: destroy()
        }
    }

    func send(mime: String, fd: Int32) { send { zwp_primary_selection_source_v1_send_send($0, mime, fd) } }
    func cancelled() { send { zwp_primary_selection_source_v1_send_cancelled($0) } }

    override func destroyed() { selection.sourceDestroyed(self) }
}

/// `zwp_primary_selection_offer_v1`: one client's view of another client's source.
final class ZwpPrimarySelectionOffer: Resource, RequestHandler {
    static var interface: UnsafePointer<wl_interface> { Interface.primarySelectionOffer }
    private weak var source: SelectionSource?

    enum Request: UInt32 { case receive, destroy }

    init?(source: SelectionSource, device: ZwpPrimarySelectionDevice) {
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
        }
    }
}
