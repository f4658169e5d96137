import CWaylandClient
import LodestoneCompositor
import WaylandClient

/// Lodestone's own title bar (`ParentTitleBar`, when the parent draws none): its pointer
/// events never reach the seat; they move, resize, maximize, minimize or close the window
/// through the parent, and set the parent's cursor over it (`ParentDecorationCursor`).
extension ParentInput {
    /// Handles `event` when it belongs to our own title bar; false for the output's events.
    func titleBarEvent(_ event: WlPointerEvent) -> Bool {
        guard let bar = window.titleBar else { return false }
        switch event {
        case .enter(let serial, let surface, let x, let y):
            guard bar.surface.isObject(surface) else { return false }
            onTitleBar = true
            enterSerial = serial
            _ = bar.pointerMoved(x: x, y: y)
            updateCursor(bar)
        case .leave(_, let surface):
            guard bar.surface.isObject(surface) else { return false }
            onTitleBar = false
            bar.pointerLeft()
        case .motion(_, let x, let y) where onTitleBar:
            if let (action, serial) = bar.pointerMoved(x: x, y: y) { window.perform(action, seat: seat, serial: serial) }
            updateCursor(bar)
        case .button(let serial, let time, let button, let state) where onTitleBar:
            if let (action, serial) = bar.button(button, pressed: state == WL_POINTER_BUTTON_STATE_PRESSED.rawValue, time: time, serial: serial) {
                window.perform(action, seat: seat, serial: serial)
            }
        case .frame:
            // A frame may close the output's leave as the bar's enter opens.
            return false
        case .axis, .axisSource, .axisStop, .axisDiscrete, .axisValue120, .motion, .button:
            // Scrolling over the bar does nothing.
            return onTitleBar
        }
        return true
    }

    func updateCursor(_ bar: ParentTitleBar) {
        let name: ParentDecorationCursor.Name
        switch bar.part(atX: bar.pointer.x, y: bar.pointer.y) {
        case .edge(let edge)?: name = .resize(edge)
        default: name = .arrow
        }
        cursor?.show(name, serial: enterSerial, scale: window.scale.ceiling)
        seat.connection.flush()
    }
}
