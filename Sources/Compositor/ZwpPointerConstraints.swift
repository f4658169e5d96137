import CWaylandServer
import PointerEngine
import Rendering
import WaylandServer

/// `zwp_pointer_constraints_v1`: lets a client lock the pointer in place or
/// confine it to a region of its surface while the surface has the pointer.
final class ZwpPointerConstraints: Resource {
    static let version: Int32 = 1
    unowned let seat: Seat

    enum Request: UInt32 { case destroy, lockPointer, confinePointer }

    init?(seat: Seat, client: Client, version: UInt32, id: UInt32) {
        self.seat = seat
        super.init(client: client, interface: Interface.pointerConstraints, version: version, id: id)
    }

    override func dispatch(opcode: UInt32, arguments a: Arguments) {
        let request = Request(rawValue: opcode)
        switch request {
        case .destroy: destroy()
        case .lockPointer, .confinePointer:
            guard let surface = WlSurface.from(a.object(1)) else { return }
            let lifetime = a.uint(4)
            guard lifetime == ZWP_POINTER_CONSTRAINTS_V1_LIFETIME_ONESHOT.rawValue || lifetime == ZWP_POINTER_CONSTRAINTS_V1_LIFETIME_PERSISTENT.rawValue else {
                return postError(WL_DISPLAY_ERROR_INVALID_METHOD.rawValue, "lifetime \(lifetime) is not a zwp_pointer_constraints_v1.lifetime value")
            }
            if seat.constraints.constraint(on: surface) != nil {
                return postError(ZWP_POINTER_CONSTRAINTS_V1_ERROR_ALREADY_CONSTRAINED.rawValue,
                                 "wl_surface@\(wl_resource_get_id(surface.pointer)) already has a pointer constraint")
            }
            let kind: PointerConstraint.Kind = request == .lockPointer ? .lock : .confine
            guard let constraint = PointerConstraint(kind: kind, seat: seat, client: client, id: a.newID(0), surface: surface,
                                                     region: WlRegion.from(a.object(3))?.region.copy(),
                                                     persistent: lifetime == ZWP_POINTER_CONSTRAINTS_V1_LIFETIME_PERSISTENT.rawValue) else { return }
            seat.constraints.added(constraint)
        case nil: break
        }
    }
}

/// `zwp_locked_pointer_v1` or `zwp_confined_pointer_v1` (same requests, same life).
final class PointerConstraint: Resource {
    enum Kind { case lock, confine }
    let kind: Kind
    unowned let seat: Seat
    private(set) weak var surface: WlSurface?
    /// Surface-local; nil means the whole surface.
    private(set) var region: PixelRegion?
    let persistent: Bool
    private(set) var active = false
    /// A oneshot constraint that was active once and ended: never again.
    private(set) var defunct = false
    /// Where a locked pointer's client would like the cursor after unlocking (surface-local).
    private(set) var hint: (x: Double, y: Double)?

    enum LockRequest: UInt32 { case destroy, setCursorPositionHint, setRegion }
    enum ConfineRequest: UInt32 { case destroy, setRegion }

    init?(kind: Kind, seat: Seat, client: Client, id: UInt32, surface: WlSurface, region: PixelRegion?, persistent: Bool) {
        self.kind = kind
        self.seat = seat
        self.surface = surface
        self.region = region
        self.persistent = persistent
        super.init(client: client, interface: kind == .lock ? Interface.lockedPointer : Interface.confinedPointer, version: 1, id: id)
    }

    override func dispatch(opcode: UInt32, arguments a: Arguments) {
        if opcode == 0 { return destroy() }
        switch (kind, opcode) {
        case (.lock, LockRequest.setCursorPositionHint.rawValue): hint = (a.fixed(0), a.fixed(1))
        case (.lock, LockRequest.setRegion.rawValue), (.confine, ConfineRequest.setRegion.rawValue):
            // Applied at once rather than on the next commit: the region only narrows where
            // the constraint may start, and clients set it before they need it.
            region = WlRegion.from(a.object(0))?.region.copy()
            seat.constraints.reevaluate()
        default: break
        }
    }

    /// Whether a surface-local point is inside the constraint's region.
    func contains(x: Double, y: Double) -> Bool {
        guard let surface, surface.acceptsInput(x: x, y: y) else { return false }
        return region?.contains(x: Int32(x.rounded(.down)), y: Int32(y.rounded(.down))) ?? true
    }

    func activate() {
        guard !active, !defunct else { return }
        active = true
        kind == .lock ? zwp_locked_pointer_v1_send_locked(pointer) : zwp_confined_pointer_v1_send_confined(pointer)
    }

    func deactivate() {
        guard active else { return }
        active = false
        kind == .lock ? zwp_locked_pointer_v1_send_unlocked(pointer) : zwp_confined_pointer_v1_send_unconfined(pointer)
        if !persistent { defunct = true }
    }

    override func destroyed() { seat.constraints.removed(self) }
}

/// The seat's relative pointers and constraints: which constraint holds the pointer
/// now. The rules themselves (locked: it stays put, only relative motion flows;
/// confined: it stays inside the region) are the pointer engine's.
final class PointerConstraints {
    unowned let seat: Seat
    var relativePointers: [ZwpRelativePointer] = []
    private var constraints: [PointerConstraint] = []

    init(seat: Seat) { self.seat = seat }

    func constraint(on surface: WlSurface) -> PointerConstraint? {
        constraints.first { $0.surface === surface && !$0.defunct }
    }

    /// The constraint holding the pointer now, if any.
    var active: PointerConstraint? { constraints.first { $0.active } }

    func added(_ constraint: PointerConstraint) {
        constraints.append(constraint)
        reevaluate()
    }

    func removed(_ constraint: PointerConstraint) {
        constraints.removeAll { $0 === constraint }
        reevaluate()
    }

    /// Relative motion goes to the focused client's listeners, constrained or not.
    func relativeMotion(dx: Double, dy: Double, time: UInt32) {
        guard let focus = seat.pointerFocus else { return }
        for r in relativePointers where r.client == focus.client {
            r.relativeMotion(microseconds: UInt64(time) * 1000, dx: dx, dy: dy)
        }
    }

    /// Activates the focused surface's constraint when the pointer is in its region;
    /// ends any other.
    func reevaluate() {
        // A constraint holds only while its surface has the pointer and its window
        // has the keyboard: a newly focused window releases the pointer, as users expect.
        var focus = seat.pointerFocus
        if let f = focus, let active = seat.keyboard.focus, seat.compositor.scene.window(of: f) !== seat.compositor.scene.window(of: active) { focus = nil }
        if seat.keyboard.focus == nil { focus = nil }
        for c in constraints where c.active && c.surface !== focus { c.deactivate() }
        if let focus, let c = constraint(on: focus), !c.active, let local = seat.focusedSurfaceLocal, c.contains(x: local.x, y: local.y) {
            c.activate()
        }
        // The engine holds the pointer; this only says by which rule.
        let engine: PointerController = seat.compositor.pointerController
        engine.setLocked(active?.kind == .lock)
        engine.setConfinement(confinementRects())
    }

    /// The active confinement's rectangles in global coordinates (whole pixels): where
    /// the engine keeps the pointer. Follows the surface as it moves or resizes.
    private func confinementRects() -> [Rect<Global>]? {
        guard let c = active, c.kind == .confine, let surface = c.surface, let (ox, oy) = seat.compositor.origin(of: surface) else { return nil }
        let bounds = PixelRect(x: 0, y: 0, width: surface.width, height: surface.height)
        let rects = c.region.map { r in r.rects.map { $0.intersection(bounds) } } ?? [bounds]
        return rects.filter { !$0.isEmpty }.map {
            Rect(x: Double($0.x) + Double(ox), y: Double($0.y) + Double(oy), width: Double($0.width), height: Double($0.height))
        }
    }
}
