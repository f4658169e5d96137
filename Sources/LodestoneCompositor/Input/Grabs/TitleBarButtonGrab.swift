import AdaptivePointerEngine
import Rendering

/// A press on a title bar button: the button acts if the last button comes up over it,
/// as buttons do (nil: a double click, which acted at once). Clients hear nothing meanwhile.
/// The minimize button is the seat's to act on (`GrabResponse.minimizeWindow`): hiding the
/// window moves the keyboard, and the seat is on the stack during the release.
final class TitleBarButtonGrab: PointerGrab {
    let window: DesktopWindow
    let button: TitleBarImage.Button?

    init(window: DesktopWindow, button: TitleBarImage.Button?) {
        self.window = window
        self.button = button
    }

    var routesToClients: Bool { false }
    func motion(device: (x: Double, y: Double), logical: (x: Double, y: Double), time: UInt32) -> GrabResponse { .taken }
    func pressStarted(focus: WlSurface?) -> GrabResponse { .taken }
    func button(_ button: UInt32, pressed: Bool, time: UInt32) -> GrabResponse { .taken }
    func axis(_ axis: PointerAxis, time: UInt32) -> GrabResponse { .taken }

    func released(at logical: (x: Double, y: Double)) -> GrabResponse {
        guard let button, window.titleBar?.button(atX: logical.x, y: logical.y) == button else { return .end }
        switch button {
        case .close: window.sendClose()
        case .maximize: window.toggleMaximized()
        case .minimize: return [.minimizeWindow, .end]
        }
        return .end
    }

    func surfaceDestroyed(_ surface: WlSurface) -> Bool { window.surface === surface }
}
