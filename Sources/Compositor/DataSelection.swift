import Glibc
import WaylandServer

/// The clipboard: the current selection source, and the offers made of it to
/// the client with keyboard focus.
final class DataSelection {
    unowned let compositor: Compositor
    var devices: [WlDataDevice] = []
    private(set) weak var source: WlDataSource?
    private var focusedClient: Client?

    init(compositor: Compositor) { self.compositor = compositor }

    func setSelection(_ newSource: WlDataSource?) {
        if let old = source, old !== newSource { old.cancelled() }
        source = newSource
        offerSelection(to: focusedClient)
    }

    /// The source went away: the clipboard empties.
    func sourceDestroyed(_ gone: WlDataSource) {
        guard source === gone else { return }
        source = nil
        offerSelection(to: focusedClient)
    }

    func keyboardFocusChanged(to client: Client?) {
        guard client != focusedClient else { return }
        focusedClient = client
        offerSelection(to: client)
    }

    func deviceBound(_ device: WlDataDevice) {
        devices.append(device)
        if device.client == focusedClient { device.sendSelection(source) }
    }

    /// Each data device of the focused client gets a fresh offer (or null).
    private func offerSelection(to client: Client?) {
        guard let client else { return }
        for device in devices where device.client == client { device.sendSelection(source) }
    }
}
