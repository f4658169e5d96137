import Glibc
import WaylandServer

/// A source of a selection: what one client offers to paste (a Wayland client's
/// wl_data_source or zwp_primary_selection_source_v1, or an X11 app's selection bridged
/// by the window manager, `XSelectionOffer`).
protocol SelectionSource: AnyObject {
    var mimeTypes: [String] { get }
    /// Writes the data as `mime` into `fd` (the caller closes its copy).
    func send(mime: String, fd: Int32)
    /// The source was replaced by another.
    func cancelled()
}

/// A client's endpoint for one kind of selection (wl_data_device for the clipboard,
/// zwp_primary_selection_device_v1 for middle-click paste).
protocol SelectionDevice: Resource {
    /// Introduces a new offer for `source`, or clears the selection.
    func sendSelection(_ source: SelectionSource?)
}

/// A selection as the X11 window manager bridges it to X (`XSelection`).
protocol BridgedSelection: AnyObject {
    var source: SelectionSource? { get }
    /// Told of every new source (nil: the selection emptied).
    var changed: ((SelectionSource?) -> Void)? { get set }
    func setSelection(_ newSource: SelectionSource?)
}

/// A selection: the current source, and the offers made of it to the client with
/// keyboard focus. `DataSelection` is the clipboard; `PrimarySelection` what was
/// last selected, pasted with the middle button.
final class Selection<Device: SelectionDevice>: BridgedSelection {
    var devices: [Device] = []
    /// Whether `set_selection` with this serial from this client may replace the selection:
    /// only a client acting on its own current input (the compositor sets the rule).
    var acceptsSerial: (UInt32, Client) -> Bool = { _, _ in true }
    private(set) weak var source: SelectionSource?
    private var focusedClient: Client?
    var changed: ((SelectionSource?) -> Void)?

    func setSelection(_ newSource: SelectionSource?) {
        if let old = source, old !== newSource { old.cancelled() }
        source = newSource
        offerSelection(to: focusedClient)
        changed?(newSource)
    }

    /// The source went away: the selection empties.
    func sourceDestroyed(_ gone: SelectionSource) {
        guard source === gone else { return }
        source = nil
        offerSelection(to: focusedClient)
        changed?(nil)
    }

    func keyboardFocusChanged(to client: Client?) {
        guard client != focusedClient else { return }
        focusedClient = client
        offerSelection(to: client)
    }

    func deviceBound(_ device: Device) {
        devices.append(device)
        if device.client == focusedClient { device.sendSelection(source) }
    }

    func deviceDestroyed(_ device: Device) { devices.removeAll { $0 === device } }

    /// Each device of the focused client gets a fresh offer (or null).
    private func offerSelection(to client: Client?) {
        guard let client else { return }
        for device in devices where device.client == client { device.sendSelection(source) }
    }
}

/// The clipboard (wl_data_device_manager).
typealias DataSelection = Selection<WlDataDevice>
/// The primary selection (zwp_primary_selection_device_manager_v1).
typealias PrimarySelection = Selection<ZwpPrimarySelectionDevice>
