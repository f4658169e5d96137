import WaylandServer

/// What a drag's offers answer to: a Wayland drag (`DragGrab`), or a drag from outside
/// (`ExternalDrag`: the parent's, or an X app's through `XDragSource`).
protocol DragSession: AnyObject {
    /// The target accepted a MIME type or changed its actions.
    func offerChanged(_ offer: WlDataOffer)
    /// The target said `finish` after the drop.
    func offerFinished(_ offer: WlDataOffer)
    /// The target let the dropped offer go without `finish`.
    func offerAbandoned(_ offer: WlDataOffer)
    /// After the drop, the target chose copy or move for an `ask` (`set_actions`).
    func offerAnsweredAsk(_ offer: WlDataOffer)
}

extension DragSession {
    func offerAbandoned(_ offer: WlDataOffer) {}
    func offerAnsweredAsk(_ offer: WlDataOffer) {}
}

/// The role `wl_data_device.start_drag` gives its icon surface. The drag holds it and
/// draws the surface under the pointer (`DragGrab.icon`); a commit repaints it.
final class DragIconRole: SurfaceRole {
    let roleName = "wl_data_device icon"
    /// The drag showing the icon now.
    weak var drag: DragGrab?
    func surfaceCommitted() { drag?.iconCommitted() }
}
