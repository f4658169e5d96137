import CWaylandServer
import WaylandServer

/// The clipboard (wl_data_device_manager); its devices also carry drags (`DragGrab`).
typealias DataSelection = Selection<DataDeviceProtocol>

/// wl_data_device's C names for the shared selection code (`Selection.swift`).
enum DataDeviceProtocol: SelectionProtocol {
    static func makeOffer(of source: SelectionSource, for device: SelectionDeviceObject<Self>) -> SelectionOfferObject<Self>? {
        WlDataOffer(source: source, device: device)
    }
    static func sendDataOffer(device: OpaquePointer, offer: OpaquePointer) { wl_data_device_send_data_offer(device, offer) }
    static func sendOffer(offer: OpaquePointer, mime: String) { wl_data_offer_send_offer(offer, mime) }
    static func sendSelection(device: OpaquePointer, offer: OpaquePointer?) { wl_data_device_send_selection(device, offer) }
    static func sendSend(source: OpaquePointer, mime: String, fd: Int32) { wl_data_source_send_send(source, mime, fd) }
    static func sendCancelled(source: OpaquePointer) { wl_data_source_send_cancelled(source) }
}

/// The drag-and-drop actions of `wl_data_device_manager.dnd_action` (a bit set).
struct DragActions: OptionSet, Equatable {
    let rawValue: UInt32
    static let copy = DragActions(rawValue: WL_DATA_DEVICE_MANAGER_DND_ACTION_COPY.rawValue)
    static let move = DragActions(rawValue: WL_DATA_DEVICE_MANAGER_DND_ACTION_MOVE.rawValue)
    static let ask = DragActions(rawValue: WL_DATA_DEVICE_MANAGER_DND_ACTION_ASK.rawValue)
    static let none: DragActions = []
    static let all: DragActions = [.copy, .move, .ask]
}

/// `wl_data_device_manager`: makes data sources and per-seat data devices.
final class WlDataDeviceManager: Resource, WlDataDeviceManagerHandler {
    static let version: Int32 = 3
    unowned let selection: DataSelection
    unowned let seat: Seat

    init?(selection: DataSelection, seat: Seat, client: Client, version: UInt32, id: UInt32) {
        self.selection = selection
        self.seat = seat
        super.init(client: client, version: version, id: id)
    }

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        case .createDataSource: _ = WlDataSource(selection: selection, client: client, version: version, id: a.newID(0))
        case .getDataDevice: _ = WlDataDevice(selection: selection, seat: seat, client: client, version: version, id: a.newID(0))
        }
    }
}

/// `wl_data_device`: a client's clipboard and drag-and-drop endpoint.
final class WlDataDevice: SelectionDeviceObject<DataDeviceProtocol>, WlDataDeviceHandler {
    unowned let seat: Seat

    init?(selection: DataSelection, seat: Seat, client: Client, version: UInt32, id: UInt32) {
        self.seat = seat
        super.init(selection: selection, client: client, interface: Self.interface, version: version, id: id)
    }

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        case .startDrag: startDrag(source: a.object(0, as: WlDataSource.self), origin: a.object(1, as: WlSurface.self), icon: a.object(2, as: WlSurface.self), serial: a.uint(3))
        case .setSelection:
            let source = a.object(0, as: WlDataSource.self)
            if let source {
                guard !source.usedForSelection, !source.usedForDrag else {
                    return source.postError(WL_DATA_SOURCE_ERROR_INVALID_SOURCE.rawValue, "this wl_data_source was already used for a selection or a drag")
                }
                guard source.dragActions == nil else {
                    return source.postError(WL_DATA_SOURCE_ERROR_INVALID_SOURCE.rawValue, "a wl_data_source with drag-and-drop actions cannot be the selection")
                }
            }
            setSelection(source, serial: a.uint(1))
        case .release: destroy()
        }
    }

    private func startDrag(source: WlDataSource?, origin: WlSurface?, icon iconSurface: WlSurface?, serial: UInt32) {
        if let source, source.usedForSelection || source.usedForDrag {
            return source.postError(WL_DATA_SOURCE_ERROR_INVALID_SOURCE.rawValue, "this wl_data_source was already used for a selection or a drag")
        }
        // The icon takes its role even when the drag is refused: the role is for life, and
        // a surface with another role is an error.
        var icon: (surface: WlSurface, role: DragIconRole)?
        if let surface = iconSurface {
            let role = surface.role as? DragIconRole ?? DragIconRole()
            guard surface.assignRole(role, error: (self, WL_DATA_DEVICE_ERROR_ROLE.rawValue)) else { return }
            icon = (surface, role)
        }
        source?.usedForDrag = true
        guard let origin,
              seat.startDrag(source: source, origin: origin, icon: icon, serial: serial, client: client) else {
            // Refused (not the serial of a press this client holds): the drag ends at once,
            // so the client cleans up instead of waiting.
            source?.cancelled()
            return
        }
    }

    // MARK: Events (the drag's)

    /// A drag reached `hit`, a surface of this device's client: a drag offer of `source`
    /// (what it offers, and the actions it can do) answering to `drag`, then enter. Nil
    /// for a drag without data (enter with no offer). Every drag enters through here.
    func dragEntered(_ hit: (surface: WlSurface, sx: Double, sy: Double), serial: UInt32,
                     source: (data: SelectionSource, actions: DragActions)?, drag: DragSession) -> WlDataOffer? {
        let offer = source.flatMap { introduce($0.data) as? WlDataOffer }
        if let offer, let source {
            offer.drag = drag
            offer.isDragOffer = true
            offer.sendSourceActions(source.actions)
        }
        enter(serial: serial, surface: hit.surface, x: hit.sx, y: hit.sy, offer: offer)
        return offer
    }

    func enter(serial: UInt32, surface: WlSurface, x: Double, y: Double, offer: WlDataOffer?) {
        if let offer {
            send(surface, offer) { wl_data_device_send_enter($0, serial, $1, wl_fixed_from_double(x), wl_fixed_from_double(y), $2) }
        } else {
            send(surface) { wl_data_device_send_enter($0, serial, $1, wl_fixed_from_double(x), wl_fixed_from_double(y), nil) }
        }
    }
    func leave() { send { wl_data_device_send_leave($0) } }
    func motion(time: UInt32, x: Double, y: Double) { send { wl_data_device_send_motion($0, time, wl_fixed_from_double(x), wl_fixed_from_double(y)) } }
    func drop() { send { wl_data_device_send_drop($0) } }
}

/// `wl_data_source`: what one client offers to paste or drop.
final class WlDataSource: SelectionSourceObject<DataDeviceProtocol>, WlDataSourceHandler {
    /// The actions `set_actions` said it supports (nil: never set, as a version 1 or 2 source).
    private(set) var dragActions: DragActions?
    /// It started a drag: it may not start another, nor be the selection.
    var usedForDrag = false
    /// The drag it feeds, while the drag holds the pointer.
    weak var drag: DragGrab?
    /// The target offer after a drop, until the target finishes.
    weak var droppedOn: WlDataOffer?
    /// The last action sent (`action`), so each change goes out once.
    private(set) var action: DragActions = .none
    /// The drag's target accepted a MIME type (`target` said so).
    var accepted = false

    init?(selection: DataSelection, client: Client, version: UInt32, id: UInt32) {
        super.init(selection: selection, client: client, interface: Self.interface, version: version, id: id)
    }

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        case .offer: offered(a.string(0))
        case .destroy: destroy()
        case .setActions:
            let actions = DragActions(rawValue: a.uint(0))
            guard DragActions.all.isSuperset(of: actions) else {
                return postError(WL_DATA_SOURCE_ERROR_INVALID_ACTION_MASK.rawValue, "set_actions with unknown actions 0x\(String(actions.rawValue, radix: 16))")
            }
            guard dragActions == nil else {
                return postError(WL_DATA_SOURCE_ERROR_INVALID_ACTION_MASK.rawValue, "set_actions may be sent only once")
            }
            guard !usedForDrag, !usedForSelection else {
                return postError(WL_DATA_SOURCE_ERROR_INVALID_SOURCE.rawValue, "set_actions after the source was used for a drag or a selection")
            }
            dragActions = actions
        }
    }

    /// What the source supports: what it said, or copy for a source older than actions.
    var supportedActions: DragActions { dragActions ?? .copy }

    // MARK: Events (the drag's)

    func target(_ mime: String?) { send { wl_data_source_send_target($0, mime) } }
    func dropPerformed() { if has(3) { send { wl_data_source_send_dnd_drop_performed($0) } } }
    func finished() { if has(3) { send { wl_data_source_send_dnd_finished($0) } } }
    func sendAction(_ new: DragActions) {
        guard new != action else { return }
        action = new
        if has(3) { send { wl_data_source_send_action($0, new.rawValue) } }
    }

    override func destroyed() {
        super.destroyed()
        drag?.sourceDestroyed()
    }
}
