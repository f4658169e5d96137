import PointerAdaptation
import Rendering
import WaylandServer

/// A window on the desktop: an `xdg_toplevel` (XdgToplevel) or an X11 window managed
/// through Xwayland (XwaylandWindow). Desktop places, stacks and activates windows and
/// Scene draws them only through this, so both kinds share one policy and one stack.
protocol DesktopWindow: AdaptedWindow {
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
    /// The window this one belongs to (xdg_toplevel.set_parent, an exported parent): it
    /// opens centred over it and stays above it.
    var parentWindow: DesktopWindow? { get }
    /// The height of a title bar Lodestone draws above the geometry (0: none).
    var decorationHeight: Int32 { get }
    /// Where a maximized or fullscreen window's geometry goes (below a title bar).
    var maximizedOrigin: (x: Int32, y: Int32) { get }
    /// The bar Lodestone draws above the window, or nil.
    var titleBar: TitleBar? { get }
    /// Hidden by its title bar's minimize button until activated again (`Desktop.minimize`).
    var isMinimized: Bool { get set }
    /// The title bar's maximize button and double click.
    func toggleMaximized()
    /// A task bar asks for maximized or fullscreen (zwlr_foreign_toplevel_handle_v1).
    func setSizeState(maximized: Bool, fullscreen: Bool)
    /// Bounds of an interactive resize (0: none).
    var minSize: (width: Int32, height: Int32) { get }
    var maxSize: (width: Int32, height: Int32) { get }
    /// An interactive resize (`ResizeGrab`) of `edges` (`xdg_toplevel.resize_edge` bits)
    /// starts: the opposite edges stay where they are until it ends.
    func resizeStarted(edges: UInt32)
    /// Asks for a size during an interactive resize.
    func resize(width: Int32, height: Int32)
    func resizeEnded()
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
    var parentWindow: DesktopWindow? { nil }
    var decorationHeight: Int32 { 0 }
    var maximizedOrigin: (x: Int32, y: Int32) { (0, 0) }
}
