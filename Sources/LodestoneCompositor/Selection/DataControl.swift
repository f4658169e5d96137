/// The clipboard and the primary selection as clipboard managers see them
/// (zwlr_data_control_manager_v1, `ZwlrDataControlManager.swift`): every device hears every
/// change, whichever client has the keyboard, and its sources replace the selection as a
/// client's wl_data_device or primary selection source does. The seat's two selections stay
/// the one truth, so what data-control sets reaches Wayland clients, the X11 bridge and the
/// parent session through them, and what they set reaches data-control.
final class DataControl {
    unowned let clipboard: DataSelection
    unowned let primary: PrimarySelection
    private var devices: [ZwlrDataControlDevice] = []

    init(clipboard: DataSelection, primary: PrimarySelection) {
        self.clipboard = clipboard
        self.primary = primary
        // Weak: the selections keep their listeners for life.
        clipboard.observe { [weak self] source in self?.devices.forEach { $0.sendSelection(source, primary: false) } }
        primary.observe { [weak self] source in self?.devices.forEach { $0.sendSelection(source, primary: true) } }
    }

    /// A new device learns both selections at once (wlroots does the same).
    func deviceBound(_ device: ZwlrDataControlDevice) {
        devices.append(device)
        device.sendSelection(clipboard.source, primary: false)
        device.sendSelection(primary.source, primary: true)
    }

    func deviceDestroyed(_ device: ZwlrDataControlDevice) { devices.removeAll { $0 === device } }
}
