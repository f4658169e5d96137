/// The seat's part of what the desktop decides (`Desktop.Effect`): the desktop holds no
/// seat, so whoever asked it (the seat itself, the compositor for a client's request, the
/// layer shell) has the seat apply what it returned, in order.
extension Seat {
    func apply(_ effects: [Desktop.Effect]) {
        for effect in effects {
            switch effect {
            case .keyboardFocus(let surface): setKeyboardFocus(surface)
            case .popupUnmapped(let popup): popupUnmapped(popup)
            case .layoutChanged: desktop.layoutChanged()
            case .minimized(let window): desktop.minimized(window)
            }
        }
    }
}
