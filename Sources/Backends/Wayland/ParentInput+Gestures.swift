import CWaylandClient
import LodestoneCompositor
import Glibc
import Logging
import WaylandClient

/// Touchpad gestures from the parent (zwp_pointer_gestures_v1), passed on as InputEvents.
extension ParentInput {
    /// Swipe, pinch and (version 3) hold objects for the pointer; their events arrive already
    /// grouped, each one an `InputEvent` at once.
    func getGestures() {
        guard let manager = pointerGestures, let p = pointer else { return }
        var kinds: [(PointerGestureEvent.Kind, () -> OpaquePointer?)] = [
            (.swipe, { manager.request(p) { zwp_pointer_gestures_v1_get_swipe_gesture($0, $1) } }),
            (.pinch, { manager.request(p) { zwp_pointer_gestures_v1_get_pinch_gesture($0, $1) } }),
        ]
        if manager.version >= 3 { kinds.append((.hold, { manager.request(p) { zwp_pointer_gestures_v1_get_hold_gesture($0, $1) } })) }
        for (kind, create) in kinds {
            do {
                let g = try Proxy(creating: create, on: manager.connection, what: "zwp_pointer_gestures_v1.get_\(kind)_gesture")
                g.onEvent = { [unowned self] opcode, a in
                    if let event = PointerGestureEvent(kind: kind, opcode: opcode, arguments: a) { self.gestureEvent(kind, event) }
                }
                gestureObjects.append(g)
            } catch {
                log.error("no \(kind) gestures from the parent: \(error)")
            }
        }
    }

    func gestureEvent(_ kind: PointerGestureEvent.Kind, _ event: PointerGestureEvent) {
        switch (kind, event) {
        case (.swipe, .begin(_, _, _, let fingers)): send(.gesture(.swipeBegin(fingers: fingers)))
        case (.swipe, .update(_, let dx, let dy, _, _)): send(.gesture(.swipeUpdate(dx: dx, dy: dy)))
        case (.swipe, .end(_, _, let cancelled)): send(.gesture(.swipeEnd(cancelled: cancelled)))
        case (.pinch, .begin(_, _, _, let fingers)): send(.gesture(.pinchBegin(fingers: fingers)))
        case (.pinch, .update(_, let dx, let dy, let scale, let rotation)):
            send(.gesture(.pinchUpdate(dx: dx, dy: dy, scale: scale, rotation: rotation)))
        case (.pinch, .end(_, _, let cancelled)): send(.gesture(.pinchEnd(cancelled: cancelled)))
        case (.hold, .begin(_, _, _, let fingers)): send(.gesture(.holdBegin(fingers: fingers)))
        case (.hold, .end(_, _, let cancelled)): send(.gesture(.holdEnd(cancelled: cancelled)))
        case (.hold, .update): break
        }
    }

    func releaseGestures() {
        for g in gestureObjects {
            // Each interface's destroy is opcode 0; the typed C wrappers differ only in name.
            g.destroy { zwp_pointer_gesture_swipe_v1_destroy($0) }
        }
        gestureObjects.removeAll()
    }
}
