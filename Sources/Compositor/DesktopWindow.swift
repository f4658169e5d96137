import Rendering
import WaylandServer

/// A window on the desktop: an `xdg_toplevel` (XdgToplevel) or an X11 window managed
/// through Xwayland (XwaylandWindow). Desktop places, stacks and activates windows and
/// Scene draws them only through this, so both kinds share one policy and one stack.
protocol DesktopWindow: AnyObject {
    /// The root of the window's surface tree (nil once it is gone).
    var surface: WlSurface? { get }
    var title: String { get }
    /// The xdg app_id, or the X11 WM_CLASS class.
    var appID: String { get }
    /// Where the window geometry's top-left is, in global coordinates. Setting it moves
    /// the window (an X11 window is told with ConfigureWindow).
    var position: (x: Int32, y: Int32) { get set }
    /// The window geometry in surface-local coordinates.
    var geometry: PixelRect { get }
    /// The root surface's top-left in global coordinates.
    var surfaceOrigin: (Int32, Int32) { get }
    var isMapped: Bool { get }
    var isActivated: Bool { get }
    var isMaximized: Bool { get }
    var isFullscreen: Bool { get }
    /// Given a position by the desktop once; stays where it is across later maps.
    var placed: Bool { get set }
    /// Mapped while another client had the keyboard: not activated, waiting for the user.
    var demandsAttention: Bool { get set }
    /// Where a new window goes when it asks for a place (an X11 transient over its
    /// parent); nil: the desktop cascades it.
    var preferredPosition: (x: Int32, y: Int32)? { get }
    func setActivated(_ on: Bool)
    /// Asks the client for a size (0×0: the client picks).
    func requestSize(width: Int32, height: Int32)
    /// The output changed size.
    func outputResized()
    /// Asks the client to close the window.
    func sendClose()
}

extension DesktopWindow {
    /// The client owning the window.
    var client: Client? { surface?.client }
}
