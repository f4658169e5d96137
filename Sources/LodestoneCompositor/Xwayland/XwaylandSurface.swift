/// The role of a wl_surface that shows an X11 window.
final class XwaylandSurface: SurfaceRole {
    static let name = "xwayland_surface"
    var roleName: String { Self.name }
    weak var window: XwaylandWindow?

    init(window: XwaylandWindow) { self.window = window }

    func surfaceCommitted() { window?.surfaceCommitted() }
}
