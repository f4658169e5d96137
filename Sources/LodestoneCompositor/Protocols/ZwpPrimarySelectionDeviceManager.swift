import CWaylandProtocols
import CWaylandServer
import WaylandServer

/// The primary selection (zwp_primary_selection_device_manager_v1).
typealias PrimarySelection = Selection<PrimarySelectionProtocol>

/// primary-selection-unstable-v1's C names for the shared selection code (`Selection.swift`).
enum PrimarySelectionProtocol: SelectionProtocol {
    static func makeOffer(of source: SelectionSource, for device: SelectionDeviceObject<Self>) -> SelectionOfferObject<Self>? {
        ZwpPrimarySelectionOffer(source: source, device: device)
    }
    static func sendDataOffer(device: OpaquePointer, offer: OpaquePointer) { zwp_primary_selection_device_v1_send_data_offer(device, offer) }
    static func sendOffer(offer: OpaquePointer, mime: String) { zwp_primary_selection_offer_v1_send_offer(offer, mime) }
    static func sendSelection(device: OpaquePointer, offer: OpaquePointer?) { zwp_primary_selection_device_v1_send_selection(device, offer) }
    static func sendSend(source: OpaquePointer, mime: String, fd: Int32) { zwp_primary_selection_source_v1_send_send(source, mime, fd) }
    static func sendCancelled(source: OpaquePointer) { zwp_primary_selection_source_v1_send_cancelled(source) }
}

/// `zwp_primary_selection_device_manager_v1` (primary-selection-unstable-v1): the
/// selection X11 users paste with the middle button. It works like the clipboard
/// (`WlDataDeviceManager.swift`, the same `Selection` with its own protocol): the
/// keyboard-focused client gets offers, and a paste is a pipe the source writes into.
/// The protocol defines no errors.
final class ZwpPrimarySelectionDeviceManager: Resource, ZwpPrimarySelectionDeviceManagerV1Handler {
    static let version: Int32 = 1
    unowned let selection: PrimarySelection

    init?(selection: PrimarySelection, client: Client, version: UInt32, id: UInt32) {
        self.selection = selection
        super.init(client: client, version: version, id: id)
    }

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        case .createSource: _ = ZwpPrimarySelectionSource(selection: selection, client: client, version: version, id: a.newID(0))
        case .getDevice: _ = ZwpPrimarySelectionDevice(selection: selection, client: client, version: version, id: a.newID(0))
        case .destroy: destroy()
        }
    }
}

/// `zwp_primary_selection_device_v1`: a client's primary selection endpoint.
final class ZwpPrimarySelectionDevice: SelectionDeviceObject<PrimarySelectionProtocol>, ZwpPrimarySelectionDeviceV1Handler {

    init?(selection: PrimarySelection, client: Client, version: UInt32, id: UInt32) {
        super.init(selection: selection, client: client, interface: Self.interface, version: version, id: id)
    }

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        case .setSelection: setSelection(a.object(0, as: ZwpPrimarySelectionSource.self), serial: a.uint(1))
        case .destroy: destroy()
        }
    }
}

/// `zwp_primary_selection_source_v1`: what one client offers to middle-click paste.
final class ZwpPrimarySelectionSource: SelectionSourceObject<PrimarySelectionProtocol>, ZwpPrimarySelectionSourceV1Handler {

    init?(selection: PrimarySelection, client: Client, version: UInt32, id: UInt32) {
        super.init(selection: selection, client: client, interface: Self.interface, version: version, id: id)
    }

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        case .offer: offered(a.string(0))
        case .destroy: destroy()
        }
    }
}

/// `zwp_primary_selection_offer_v1`: one client's view of another client's source.
final class ZwpPrimarySelectionOffer: SelectionOfferObject<PrimarySelectionProtocol>, ZwpPrimarySelectionOfferV1Handler {

    init?(source: SelectionSource, device: SelectionDeviceObject<PrimarySelectionProtocol>) {
        super.init(source: source, device: device, interface: Self.interface)
    }

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        case .receive: receive(mime: a.string(0), fd: a.fd(1))
        case .destroy: destroy()
        }
    }
}
