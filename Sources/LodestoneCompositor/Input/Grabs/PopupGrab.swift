import WaylandServer

/// `xdg_popup.grab`: an owner-events grab. While popups hold it, the pointer reaches only
/// their client's surfaces; a press anywhere else closes them all.
final class PopupGrab: PointerGrab {
    /// Popups holding the grab, bottom first.
    private(set) var popups: [XdgPopup] = []

    var client: WaylandServer.Client? { popups.last?.client }

    func mayFocus(_ surface: WlSurface) -> Bool { surface.client == client }

    func pressStarted(_ seat: Seat) {
        seat.updatePointerFocus()
        if seat.pointerFocus == nil || seat.pointerFocus?.client != client {
            // Dismissing ends this grab; the press then goes where it landed.
            seat.dismissPopupGrabs()
            seat.focusAndActivate()
        }
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
