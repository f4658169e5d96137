import CWaylandServer
import AdaptivePointerEngine
import Rendering
import WaylandServer

/// `zwp_pointer_constraints_v1`: lets a client lock the pointer in place or
/// confine it to a region of its surface while the surface has the pointer.
final class ZwpPointerConstraints: Resource, ZwpPointerConstraintsV1Handler {
    static let version: Int32 = 1
    unowned let seat: Seat

    init?(seat: Seat, client: Client, version: UInt32, id: UInt32) {
        self.seat = seat
        super.init(client: client, version: version, id: id)
    }

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        case .destroy: destroy()
        case .lockPointer, .confinePointer:
            guard let surface = a.object(1, as: WlSurface.self) else { return }
            let lifetime = a.uint(4)
            guard lifetime == ZWP_POINTER_CONSTRAINTS_V1_LIFETIME_ONESHOT.rawValue || lifetime == ZWP_POINTER_CONSTRAINTS_V1_LIFETIME_PERSISTENT.rawValue else {
                return postError(WL_DISPLAY_ERROR_INVALID_METHOD.rawValue, "lifetime \(lifetime) is not a zwp_pointer_constraints_v1.lifetime value")
            }
            if seat.constraints.constraint(on: surface) != nil {
                return postError(ZWP_POINTER_CONSTRAINTS_V1_ERROR_ALREADY_CONSTRAINED.rawValue,
                                 "wl_surface@\(surface.objectID) already has a pointer constraint")
            }
            let kind: PointerConstraint.Kind = request == .lockPointer ? .lock : .confine
            guard let constraint = PointerConstraint(kind: kind, seat: seat, client: client, id: a.newID(0), surface: surface,
                                                     region: a.object(3, as: WlRegion.self)?.region.copy(),
                                                     persistent: lifetime == ZWP_POINTER_CONSTRAINTS_V1_LIFETIME_PERSISTENT.rawValue) else { return }
            seat.constraintAdded(constraint)
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
        super.init(client: client, interface: kind == .lock ? WaylandInterface.zwpLockedPointerV1 : WaylandInterface.zwpConfinedPointerV1, version: 1, id: id)
    }

    override func dispatch(opcode: UInt32, arguments a: Arguments) {
        if opcode == 0 { return destroy() }
        switch (kind, opcode) {
        case (.lock, LockRequest.setCursorPositionHint.rawValue): hint = (a.fixed(0), a.fixed(1))
        case (.lock, LockRequest.setRegion.rawValue), (.confine, ConfineRequest.setRegion.rawValue):
            // Applied at once rather than on the next commit: the region only narrows where
            // the constraint may start, and clients set it before they need it.
            region = a.object(0, as: WlRegion.self)?.region.copy()
            seat.reevaluateConstraints()
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
        kind == .lock ? send { zwp_locked_pointer_v1_send_locked($0) } : send { zwp_confined_pointer_v1_send_confined($0) }
    }

    func deactivate() {
        guard active else { return }
        active = false
        kind == .lock ? send { zwp_locked_pointer_v1_send_unlocked($0) } : send { zwp_confined_pointer_v1_send_unconfined($0) }
        if !persistent { defunct = true }
    }

    override func destroyed() { seat.constraintRemoved(self) }
}
