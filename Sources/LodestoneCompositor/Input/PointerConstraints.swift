import CWaylandServer
import AdaptivePointerEngine
import Rendering
import WaylandServer

/// The seat's relative pointers and constraints: which constraint holds the pointer
/// now. The rules themselves (locked: it stays put, only relative motion flows;
/// confined: it stays inside the region) are the pointer engine's.
///
/// It holds no seat: the seat hands it what decides (`Focus`) and schedules the frame that
/// pushes a changed rule, so nothing here calls back into the seat that is asking.
final class PointerConstraints {
    /// Where constrained surfaces are (their windows, their origins).
    private unowned let scene: Scene
    var relativePointers: [ZwpRelativePointer] = []
    private var constraints: [PointerConstraint] = []
    /// Which rule holds the pointer now; the seat pushes it to its pointer when it changed
    /// (`Seat.pushPointerWorld`).
    private(set) var rule = PointerConstraintRule(locked: false, confinement: nil)

    init(scene: Scene) { self.scene = scene }

    /// What the seat knows that decides which constraint holds.
    struct Focus {
        /// The surface with pointer focus, and the pointer in its coordinates.
        var pointer: WlSurface?, surfaceLocal: (x: Double, y: Double)?
        /// The surface with keyboard focus.
        var keyboard: WlSurface?
    }

    func constraint(on surface: WlSurface) -> PointerConstraint? {
        constraints.first { $0.surface === surface && !$0.defunct }
    }

    /// The constraint holding the pointer now, if any.
    var active: PointerConstraint? { constraints.first { $0.active } }

    /// A new constraint; the seat evaluates them again (`Seat.reevaluateConstraints`).
    func added(_ constraint: PointerConstraint) { constraints.append(constraint) }

    /// A constraint went; the seat evaluates them again.
    func removed(_ constraint: PointerConstraint) { constraints.removeAll { $0 === constraint } }

    /// Relative motion goes to the focused client's listeners, constrained or not.
    func relativeMotion(dx: Double, dy: Double, time: UInt32, focus: WlSurface?) {
        guard let focus else { return }
        for r in relativePointers where r.client == focus.client {
            r.relativeMotion(microseconds: UInt64(time) * 1000, dx: dx, dy: dy)
        }
    }

    /// Activates the focused surface's constraint when the pointer is in its region;
    /// ends any other. True when the rule changed: the seat then schedules a frame, which
    /// pushes it to the pointer even without input.
    func reevaluate(_ seen: Focus) -> Bool {
        // A constraint holds only while its surface has the pointer and its window
        // has the keyboard: a newly focused window releases the pointer, as users expect.
        var focus = seen.pointer
        if let f = focus, let active = seen.keyboard, scene.window(of: f) !== scene.window(of: active) { focus = nil }
        if seen.keyboard == nil { focus = nil }
        for c in constraints where c.active && c.surface !== focus { c.deactivate() }
        if let focus, let c = constraint(on: focus), !c.active, let local = seen.surfaceLocal, c.contains(x: local.x, y: local.y) {
            c.activate()
        }
        // The pointer holds itself; this only says by which rule (it hears it before the
        // next input or frame).
        let new = PointerConstraintRule(locked: active?.kind == .lock, confinement: confinementRects())
        guard new != rule else { return false }
        rule = new
        return true
    }

    /// The active confinement's rectangles in global coordinates (whole pixels): where
    /// the engine keeps the pointer. Follows the surface as it moves or resizes.
    private func confinementRects() -> [Rect<Global>]? {
        guard let c = active, c.kind == .confine, let surface = c.surface, let (ox, oy) = scene.origin(of: surface) else { return nil }
        let bounds = PixelRect(x: 0, y: 0, width: surface.width, height: surface.height)
        let rects = c.region.map { r in r.rects.map { $0.intersection(bounds) } } ?? [bounds]
        return rects.filter { !$0.isEmpty }.map {
            Rect(x: Double($0.x) + Double(ox), y: Double($0.y) + Double(oy), width: Double($0.width), height: Double($0.height))
        }
    }
}
