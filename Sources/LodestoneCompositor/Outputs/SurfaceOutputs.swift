import CWaylandServer
import WaylandServer

/// Which heads a surface is on, for `wl_surface.enter` and `leave`: a matter of the layout
/// and the scene alone, so the compositor and the session lock both ask it here.
extension OutputLayout {
    /// Tells a surface's client which heads the surface is on (`wl_surface.enter` and
    /// `leave`): those its tree overlaps, so a window moved across enters the next head and
    /// leaves the last. With one head a surface is on it wherever it is, as before there were
    /// several. A head withdrawn is left; a wl_output the client destroyed is forgotten.
    func updateOutputs(of surface: WlSurface, in scene: Scene) {
        surface.enteredOutputs.removeAll(where: \.isDestroyed)
        let bounds = scene.treeBounds(surface)
        let on = heads.filter { head in
            heads.count == 1 || bounds.map { !$0.intersection(head.bounds).isEmpty } == true
        }
        for resource in surface.enteredOutputs where !on.contains(where: { $0 === resource.head }) {
            surface.send(resource) { wl_surface_send_leave($0, $1) }
        }
        surface.enteredOutputs.removeAll { r in !on.contains { $0 === r.head } }
        for resource in on.flatMap(\.resources) where resource.client == surface.client && !surface.enteredOutputs.contains(where: { $0 === resource }) {
            surface.send(resource) { wl_surface_send_enter($0, $1) }
            surface.enteredOutputs.append(resource)
        }
    }
}
