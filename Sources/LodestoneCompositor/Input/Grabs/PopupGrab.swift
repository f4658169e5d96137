import WaylandServer

/// `xdg_popup.grab`: an owner-events grab. While popups hold it, the pointer reaches only
/// their client's surfaces; a press anywhere else closes them all.
final class PopupGrab: PointerGrab {
    /// Popups holding the grab, bottom first.
    private(set) var popups: [XdgPopup] = []

    var client: WaylandServer.Client? { popups.last?.client }

    func mayFocus(_ surface: WlSurface) -> Bool { surface.client == client }

    /// The press is judged by the surface it landed on.
    var refocusesBeforePress: Bool { true }

    func pressStarted(focus: WlSurface?) -> GrabResponse {
        // Dismissing ends this grab; the press then goes where it landed.
        focus == nil || focus?.client != client ? [.dismissPopups, .focusAndActivate] : .taken
    }

    func push(_ popup: XdgPopup) { popups.append(popup) }

    /// Removes an unmapped popup; false when it was not grabbing.
    func remove(_ popup: XdgPopup) -> Bool {
        guard let index = popups.firstIndex(where: { $0 === popup }) else { return false }
        popups.remove(at: index)
        return true
    }

    var isEmpty: Bool { popups.isEmpty }

    /// Every popup closed (`Seat.dismissPopupGrabs`).
    func removeAll() { popups.removeAll() }
}
