import AdaptivePointerEngine
import Rendering

/// A press on a title bar button: the button acts if the last button comes up over it,
/// as buttons do (nil: a double click, which acted at once). Clients hear nothing meanwhile.
final class TitleBarButtonGrab: PointerGrab {
    let window: DesktopWindow
    let button: TitleBarImage.Button?

    init(window: DesktopWindow, button: TitleBarImage.Button?) {
        self.window = window
        self.button = button
    }

    var routesToClients: Bool { false }
    func motion(_ seat: Seat, device: (x: Double, y: Double), time: UInt32) {}
    func pressStarted(_ seat: Seat) {}
    func button(_ seat: Seat, _ button: UInt32, pressed: Bool, time: UInt32) {}
    func axis(_ seat: Seat, _ axis: PointerAxis, time: UInt32) {}

    func released(_ seat: Seat) {
        seat.endGrab()
        guard let button, window.titleBar?.button(atX: seat.position.logical.x, y: seat.position.logical.y) == button else { return }
        switch button {
        case .close: window.sendClose()
        case .maximize: window.toggleMaximized()
        case .minimize: seat.compositor.desktop.minimize(window)
        }
    }

    func surfaceDestroyed(_ surface: WlSurface) -> Bool { window.surface === surface }
}
