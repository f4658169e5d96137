import Glibc
import CWaylandServer
import WaylandServer

/// A source of data to paste or drop: what one client offers (a Wayland client's
/// wl_data_source or zwp_primary_selection_source_v1, or an X11 app's selection bridged
/// by the window manager, `XSelectionOffer`).
public protocol SelectionSource: AnyObject {
    var mimeTypes: [String] { get }
    /// Writes the data as `mime` into `fd` (the caller closes its copy).
    func send(mime: String, fd: Int32)
    /// The source was replaced by another, or its drag ended without a drop.
    func cancelled()
}

/// A selection as a bridge carries it elsewhere: the X11 window manager to X
/// (`XSelection`, through `changed`), the nested backend to the parent session
/// (`ParentSelection`, through `observe`).
public protocol BridgedSelection: AnyObject {
    var source: SelectionSource? { get }
    /// Told of every new source (nil: the selection emptied).
    var changed: ((SelectionSource?) -> Void)? { get set }
    /// Adds one more listener told of every new source, for as long as the selection lives.
    func observe(_ listener: @escaping (SelectionSource?) -> Void)
    func setSelection(_ newSource: SelectionSource?)
}

/// What tells one selection protocol from another: its C names. The clipboard and drags
/// (`WlDataDeviceManager.swift`) and the primary selection
/// (`ZwpPrimarySelectionDeviceManager.swift`) each name theirs; everything else about
/// sources, offers and devices is shared, below.
protocol SelectionProtocol {
    /// The offer object this protocol makes of `source` for `device` (not yet announced).
    static func makeOffer(of source: SelectionSource, for device: SelectionDeviceObject<Self>) -> SelectionOfferObject<Self>?
    /// `*_device.data_offer`: a new offer object is announced.
    static func sendDataOffer(device: OpaquePointer, offer: OpaquePointer)
    /// `*_offer.offer`: one of the offer's MIME types.
    static func sendOffer(offer: OpaquePointer, mime: String)
    /// `*_device.selection`: the offer (or nil) is the selection now.
    static func sendSelection(device: OpaquePointer, offer: OpaquePointer?)
    /// `*_source.send`: write the data as `mime` into `fd`.
    static func sendSend(source: OpaquePointer, mime: String, fd: Int32)
    /// `*_source.cancelled`.
    static func sendCancelled(source: OpaquePointer)
}

/// A selection: the current source, and the offers made of it to the client with
/// keyboard focus. `DataSelection` is the clipboard (whose devices also carry drags,
/// `DragGrab`); `PrimarySelection` what was last selected, pasted with the middle button.
final class Selection<P: SelectionProtocol>: BridgedSelection {
    private(set) var devices: [SelectionDeviceObject<P>] = []
    /// Whether `set_selection` with this serial from this client may replace the selection:
    /// only a client acting on its own current input (the compositor sets the rule).
    var acceptsSerial: (UInt32, Client) -> Bool = { _, _ in true }
    private(set) weak var source: SelectionSource?
    private var focusedClient: Client?
    var changed: ((SelectionSource?) -> Void)?
    private var observers: [(SelectionSource?) -> Void] = []

    func observe(_ listener: @escaping (SelectionSource?) -> Void) { observers.append(listener) }

    func setSelection(_ newSource: SelectionSource?) {
        if let old = source, old !== newSource { old.cancelled() }
        source = newSource
        offerSelection(to: focusedClient)
        changed?(newSource)
        for listener in observers { listener(newSource) }
    }

    /// The source went away: the selection empties.
    func sourceDestroyed(_ gone: SelectionSource) {
        guard source === gone else { return }
        source = nil
        offerSelection(to: focusedClient)
        changed?(nil)
        for listener in observers { listener(nil) }
    }

    func keyboardFocusChanged(to client: Client?) {
        guard client != focusedClient else { return }
        focusedClient = client
        offerSelection(to: client)
    }

    func deviceBound(_ device: SelectionDeviceObject<P>) {
        devices.append(device)
        if device.client == focusedClient { device.sendSelection(source) }
    }

    func deviceDestroyed(_ device: SelectionDeviceObject<P>) { devices.removeAll { $0 === device } }

    /// The devices of one client (a drag's target gets its events on each).
    func devices(of client: Client) -> [SelectionDeviceObject<P>] { devices.filter { $0.client == client } }

    /// Each device of the focused client gets a fresh offer (or null).
    private func offerSelection(to client: Client?) {
        guard let client else { return }
        for device in devices where device.client == client { device.sendSelection(source) }
    }
}

/// A client's source resource (`wl_data_source`, `zwp_primary_selection_source_v1`): the
/// MIME types it offers, and the pipe it writes a paste into.
class SelectionSourceObject<P: SelectionProtocol>: Resource, SelectionSource {
    unowned let selection: Selection<P>
    private(set) var mimeTypes: [String] = []
    /// It was made the selection once: it may not be again, nor start a drag.
    var usedForSelection = false

    init?(selection: Selection<P>, client: Client, interface: UnsafePointer<wl_interface>, version: UInt32, id: UInt32) {
        self.selection = selection
        super.init(client: client, interface: interface, version: version, id: id)
    }

    /// `offer`: one more MIME type (each once).
    func offered(_ mime: String?) {
        if let mime, !mimeTypes.contains(mime) { mimeTypes.append(mime) }
    }

    func send(mime: String, fd: Int32) { send { P.sendSend(source: $0, mime: mime, fd: fd) } }
    func cancelled() { send { P.sendCancelled(source: $0) } }

    override func destroyed() { selection.sourceDestroyed(self) }
}

/// A client's view of a source (`wl_data_offer`, `zwp_primary_selection_offer_v1`); made
/// by the compositor, so the client reads the source's data through it.
class SelectionOfferObject<P: SelectionProtocol>: Resource {
    private(set) weak var source: SelectionSource?

    init?(source: SelectionSource, device: SelectionDeviceObject<P>, interface: UnsafePointer<wl_interface>) {
        self.source = source
        super.init(client: device.client, interface: interface, version: device.version, id: 0)
    }

    /// `receive`: the source writes into the pipe; our copy of the fd is closed here.
    func receive(mime: String?, fd: Int32) {
        if let source, let mime { source.send(mime: mime, fd: fd) }
        close(fd)
    }
}

/// A client's endpoint for one kind of selection (`wl_data_device`,
/// `zwp_primary_selection_device_v1`).
class SelectionDeviceObject<P: SelectionProtocol>: Resource {
    unowned let selection: Selection<P>

    init?(selection: Selection<P>, client: Client, interface: UnsafePointer<wl_interface>, version: UInt32, id: UInt32) {
        self.selection = selection
        super.init(client: client, interface: interface, version: version, id: id)
        selection.deviceBound(self)
    }

    /// `set_selection`: only a client acting on its own current input may replace everyone's
    /// selection; a refused source is told it was cancelled.
    func setSelection(_ source: SelectionSourceObject<P>?, serial: UInt32) {
        // Given to set_selection, it is spent, whether the serial is accepted or not.
        source?.usedForSelection = true
        guard selection.acceptsSerial(serial, client) else {
            source?.cancelled()
            return
        }
        selection.setSelection(source)
    }

    /// Announces a new offer of `source` with its MIME types: the first step of a selection
    /// and of a drag's enter.
    func introduce(_ source: SelectionSource) -> SelectionOfferObject<P>? {
        guard let offer = P.makeOffer(of: source, for: self) else { return nil }
        send(offer) { P.sendDataOffer(device: $0, offer: $1) }
        for mime in source.mimeTypes { offer.send { P.sendOffer(offer: $0, mime: mime) } }
        return offer
    }

    /// A new offer for `source` is the selection (or the selection is cleared).
    func sendSelection(_ source: SelectionSource?) {
        guard let source else { return send { P.sendSelection(device: $0, offer: nil) } }
        guard let offer = introduce(source) else { return }
        send(offer) { P.sendSelection(device: $0, offer: $1) }
    }

    override func destroyed() { selection.deviceDestroyed(self) }
}
