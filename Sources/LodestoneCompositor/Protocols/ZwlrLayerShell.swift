import CWaylandServer
import WaylandServer

/// `zwlr_layer_shell_v1` (wlr-layer-shell-unstable-v1, version 4): panels, launchers,
/// notifications and wallpapers, placed by the compositor against a head's edges on one of
/// four layers around the windows. The state is `LayerShell` (`Layers/`); each surface is a
/// `ZwlrLayerSurface`.
final class ZwlrLayerShell: Resource, ZwlrLayerShellV1Handler {
    static let version: Int32 = 4
    unowned let layers: LayerShell
    /// Where the pointer is (a surface naming no output goes to its head), and what applies
    /// the layer shell's effects (the keyboard's focus), for its surfaces.
    unowned let seat: Seat

    init?(layers: LayerShell, seat: Seat, client: Client, version: UInt32, id: UInt32) {
        self.layers = layers
        self.seat = seat
        super.init(client: client, version: version, id: id)
    }

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        case .getLayerSurface:
            guard let surface = a.object(1, as: WlSurface.self) else { return }
            guard let layer = ShellLayer(a.uint(3)) else {
                return postError(ZWLR_LAYER_SHELL_V1_ERROR_INVALID_LAYER.rawValue, "layer \(a.uint(3)) is not a zwlr_layer_shell_v1.layer value")
            }
            // A null buffer attached (GTK does so before it makes the role) is no buffer.
            var attached = false
            if case .some(.some) = surface.pending.buffer { attached = true }
            if surface.hasContent || attached {
                return postError(ZWLR_LAYER_SHELL_V1_ERROR_ALREADY_CONSTRUCTED.rawValue,
                                 "get_layer_surface on wl_surface@\(surface.objectID), which already has a buffer attached or committed")
            }
            // A null output: the head the pointer is on, as sway takes the focused one.
            let head = a.object(2, as: WlOutput.self).map { $0.head } ?? layers.head(at: seat.position.logical)
            guard let created = ZwlrLayerSurface(layers: layers, seat: seat, surface: surface, head: head, layer: layer,
                                                 namespace: a.string(4) ?? "", client: client, version: version, id: a.newID(0)) else { return }
            guard surface.assignRole(created, error: (self, ZWLR_LAYER_SHELL_V1_ERROR_ROLE.rawValue)) else { return }
            // A head already gone (its wl_output bound late): closed at once, as on unplugging.
            if head == nil { created.close() }
        // Since 3
        case .destroy: destroy()
        }
    }
}
