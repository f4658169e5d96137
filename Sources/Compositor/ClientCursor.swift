import CWaylandServer
import Rendering
import WaylandServer

/// A legacy client's own cursor image: the surface it gave `wl_pointer.set_cursor`, its
/// hotspot, or no cursor at all. Drawn instead of the adaptive pointer where
/// `PointerController.drawsAdaptivePointer` says so.
final class ClientCursor {
    unowned let seat: Seat
    private(set) weak var surface: WlSurface?
    private var hotspot: (x: Int32, y: Int32) = (0, 0)
    /// The client asked for no cursor (a null surface).
    private var hidden = false
    private var role: CursorRole?
    private var lastBounds: PixelRect?
    /// set_cursor requests accepted so far (the test protocol's cursor_state).
    private(set) var sets: UInt32 = 0

    init(seat: Seat) { self.seat = seat }

    private var compositor: Compositor { seat.compositor }

    func set(from pointer: WlPointer, serial: UInt32, surface new: WlSurface?, hotspotX: Int32, hotspotY: Int32) {
        // Only the client under the pointer may set its image.
        guard let focus = seat.pointerFocus, focus.client == pointer.client,
              seat.isCurrentPointerSerial(serial, of: pointer.client) else { return }
        sets &+= 1
        damage()
        guard let new else {
            surface = nil
            hidden = true
            return
        }
        if new !== surface {
            // Toolkits set the same cursor surface again after every enter: a surface that
            // is already a cursor keeps its role object.
            let role = new.role as? CursorRole ?? CursorRole(cursor: self)
            guard new.assignRole(role, error: (pointer, WL_POINTER_ERROR_ROLE.rawValue)) else { return }
            self.role = role
        }
        surface = new
        hidden = false
        hotspot = (hotspotX, hotspotY)
        damage()
    }

    /// `wl_surface.offset` or an attach offset on the cursor surface moves the hotspot.
    func offset(dx: Int32, dy: Int32) {
        hotspot = (hotspot.x.clampedSubtracting(dx), hotspot.y.clampedSubtracting(dy))
    }

    var origin: (Int32, Int32) {
        (Int32(clamping: Int(seat.x.rounded(.down))).clampedSubtracting(hotspot.x), Int32(clamping: Int(seat.y.rounded(.down))).clampedSubtracting(hotspot.y))
    }

    /// The pointer went to another surface: its client chooses anew.
    func reset() {
        damage()
        surface = nil
        hidden = false
        damage()
    }

    func surfaceDestroyed(_ gone: WlSurface) {
        guard surface === gone else { return }
        surface = nil
        role = nil
        hidden = true
    }

    /// Whether the focused client chose its own cursor image (or none) with set_cursor.
    var isShown: Bool { surface != nil || hidden }
    var isHidden: Bool { hidden && surface == nil }

    /// Where the client's cursor surface is drawn, in global logical coordinates; nil while
    /// the adaptive pointer draws the pointer, and while the cursor surface has no buffer
    /// (an empty cursor surface shows nothing).
    private var bounds: PixelRect? {
        if seat.pointerOutside || compositor.pointerController.drawsAdaptivePointer { return nil }
        guard let s = surface, s.hasContent else { return nil }
        let (ox, oy) = origin
        return PixelRect(x: ox, y: oy, width: s.width, height: s.height)
    }

    func damage() {
        if let last = lastBounds { compositor.output.damage(logical: last) }
        lastBounds = bounds
        if let now = lastBounds { compositor.output.damage(logical: now) }
        compositor.scheduleFrame()
    }

    /// The client's cursor image, when it is the one to show.
    func element(scale: Int32) -> RenderElement? {
        guard let bounds, let s = surface, let texture = s.texture else { return nil }
        let toImage = s.surfaceToBuffer.concatenating(.translation(-Double(bounds.x), -Double(bounds.y)))
            .concatenating(.scale(1 / Double(scale), 1 / Double(scale)))
        return RenderElement(image: texture, bounds: bounds.scaled(by: scale), outputToImage: toImage)
    }
}

/// The role a surface gets from `wl_pointer.set_cursor`.
final class CursorRole: SurfaceRole {
    unowned let cursor: ClientCursor
    let roleName = "wl_pointer cursor"
    init(cursor: ClientCursor) { self.cursor = cursor }
    func surfaceCommitted() { cursor.damage() }
}
