import CWaylandClient
import CWaylandProtocols

/// What tells the parent's clipboard from its primary selection: the C names.
protocol ParentSelectionKind {
    static var name: String { get }
    static func getDevice(_ manager: OpaquePointer, _ seat: OpaquePointer) -> OpaquePointer?
    static func createSource(_ manager: OpaquePointer) -> OpaquePointer?
    static func offer(_ source: OpaquePointer, _ mime: String)
    static func setSelection(_ device: OpaquePointer, _ source: OpaquePointer, _ serial: UInt32)
    static func receive(_ offer: OpaquePointer, _ mime: String, _ fd: Int32)
    static func destroyOffer(_ offer: OpaquePointer)
    static func destroySource(_ source: OpaquePointer)
    static func destroyDevice(_ device: OpaquePointer)
    static func destroyManager(_ manager: OpaquePointer)
    /// The device's `selection` event, and `enter` (a drag's; none for the primary selection).
    static var selectionOpcode: UInt32 { get }
    static var enterOpcode: UInt32 { get }
    /// The source's `send` and `cancelled` events.
    static var sendOpcode: UInt32 { get }
    static var cancelledOpcode: UInt32 { get }
}

/// The clipboard: `wl_data_device_manager` version 3.
enum ParentClipboard: ParentSelectionKind {
    static let name = "clipboard"
    static func getDevice(_ manager: OpaquePointer, _ seat: OpaquePointer) -> OpaquePointer? { wl_data_device_manager_get_data_device(manager, seat) }
    static func createSource(_ manager: OpaquePointer) -> OpaquePointer? { wl_data_device_manager_create_data_source(manager) }
    static func offer(_ source: OpaquePointer, _ mime: String) { wl_data_source_offer(source, mime) }
    static func setSelection(_ device: OpaquePointer, _ source: OpaquePointer, _ serial: UInt32) { wl_data_device_set_selection(device, source, serial) }
    static func receive(_ offer: OpaquePointer, _ mime: String, _ fd: Int32) { wl_data_offer_receive(offer, mime, fd) }
    static func destroyOffer(_ offer: OpaquePointer) { wl_data_offer_destroy(offer) }
    static func destroySource(_ source: OpaquePointer) { wl_data_source_destroy(source) }
    static func destroyDevice(_ device: OpaquePointer) { wl_data_device_release(device) }
    static func destroyManager(_ manager: OpaquePointer) { wl_data_device_manager_destroy(manager) }
    static let selectionOpcode: UInt32 = 5
    static let enterOpcode: UInt32 = 1
    static let sendOpcode: UInt32 = 1
    static let cancelledOpcode: UInt32 = 2
}

/// The primary selection: `zwp_primary_selection_device_manager_v1`.
enum ParentPrimarySelection: ParentSelectionKind {
    static let name = "primary selection"
    static func getDevice(_ manager: OpaquePointer, _ seat: OpaquePointer) -> OpaquePointer? { zwp_primary_selection_device_manager_v1_get_device(manager, seat) }
    static func createSource(_ manager: OpaquePointer) -> OpaquePointer? { zwp_primary_selection_device_manager_v1_create_source(manager) }
    static func offer(_ source: OpaquePointer, _ mime: String) { zwp_primary_selection_source_v1_offer(source, mime) }
    static func setSelection(_ device: OpaquePointer, _ source: OpaquePointer, _ serial: UInt32) { zwp_primary_selection_device_v1_set_selection(device, source, serial) }
    static func receive(_ offer: OpaquePointer, _ mime: String, _ fd: Int32) { zwp_primary_selection_offer_v1_receive(offer, mime, fd) }
    static func destroyOffer(_ offer: OpaquePointer) { zwp_primary_selection_offer_v1_destroy(offer) }
    static func destroySource(_ source: OpaquePointer) { zwp_primary_selection_source_v1_destroy(source) }
    static func destroyDevice(_ device: OpaquePointer) { zwp_primary_selection_device_v1_destroy(device) }
    static func destroyManager(_ manager: OpaquePointer) { zwp_primary_selection_device_manager_v1_destroy(manager) }
    static let selectionOpcode: UInt32 = 1
    static let enterOpcode: UInt32 = .max
    static let sendOpcode: UInt32 = 0
    static let cancelledOpcode: UInt32 = 1
}
