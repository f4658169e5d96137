import AdaptivePointerEngine
import WaylandServer

/// Touchpad gestures: where each one goes, and what the adaptive pointer does meanwhile.
///
/// As Apple's pointing-device guidelines ask, the gestures the system reserves stay in
/// Lodestone: a three-finger swipe switches between windows, a four-finger swipe shows the
/// desktop (and brings the windows back). Every other gesture (pinch, hold, two-finger
/// swipes, five fingers) goes to the client under the pointer when it began, through the
/// `zwp_pointer_gesture_*_v1` objects of that client. Meanwhile the pointer reacts as on
/// iPadOS: a pinch over a lifted element scales it, a hold shows the pointer pressed.
///
/// It is handed the pointer's focus with each event and returns what follows for the seat
/// (`Outcome`): what its pointer hears, and the window a system swipe brought forward. It
/// holds no seat.
final class Gestures {
    private let display: Display
    private let clock: FrameClock
    /// Every client's gesture objects.
    var objects: [ZwpPointerGesture] = []
    let windowSwitcher: WindowSwitcher

    /// What a gesture event leads to beyond the clients' gesture objects, for the seat to apply.
    struct Outcome {
        /// Input for the seat's pointer, in order (a pinch's scale, a hold).
        var pointer: [PointerInput] = []
        /// The window a three-finger swipe brought forward, to activate.
        var activate: DesktopWindow?
    }
    /// Gathered while one event is handled, returned and emptied at its end.
    private var outcome = Outcome()

    /// The gesture in progress and who it belongs to.
    private enum Active {
        /// Sent to the client of `surface` (nil: there was nothing under the pointer).
        case client(ZwpPointerGesture.Kind, surface: WeakSurface)
        /// A system swipe: its fingers and how far it went.
        case system(fingers: UInt32, dx: Double, dy: Double)
    }
    private var active: Active?

    struct WeakSurface { weak var surface: WlSurface? }

    init(display: Display, clock: FrameClock, windowSwitcher: WindowSwitcher) {
        self.display = display
        self.clock = clock
        self.windowSwitcher = windowSwitcher
    }

    /// The fingers of a swipe the system keeps.
    static func isSystemSwipe(fingers: UInt32) -> Bool { fingers == 3 || fingers == 4 }

    /// `pointerFocus`: the surface under the pointer, which a client's gesture goes to.
    func handle(_ event: GestureEvent, time: UInt32, pointerFocus: WlSurface?) -> Outcome {
        defer { outcome = Outcome() }
        switch event {
        case .swipeBegin(let fingers):
            cancelActive(time: time)
            if Self.isSystemSwipe(fingers: fingers) { active = .system(fingers: fingers, dx: 0, dy: 0) } else { begin(.swipe, fingers: fingers, time: time, surface: pointerFocus) }
        case .swipeUpdate(let dx, let dy):
            switch active {
            case .system(let fingers, let x, let y): active = .system(fingers: fingers, dx: x + dx, dy: y + dy)
            case .client(.swipe, _): each(.swipe) { $0.swipeUpdate(time: time, dx: dx, dy: dy) }
            default: break
            }
        case .swipeEnd(let cancelled):
            if case .system(let fingers, let dx, let dy) = active {
                active = nil
                // Animations run on the frame clock, whatever time the device stamped.
                if !cancelled { outcome.activate = windowSwitcher.systemSwipe(fingers: fingers, dx: dx, dy: dy, time: clock.now) }
            } else {
                end(.swipe, cancelled: cancelled, time: time)
            }
        case .pinchBegin(let fingers):
            cancelActive(time: time)
            begin(.pinch, fingers: fingers, time: time, surface: pointerFocus)
            outcome.pointer.append(.pinch(scale: 1))
        case .pinchUpdate(let dx, let dy, let scale, let rotation):
            guard case .client(.pinch, _) = active else { return outcome }
            each(.pinch) { $0.pinchUpdate(time: time, dx: dx, dy: dy, scale: scale, rotation: rotation) }
            outcome.pointer.append(.pinch(scale: scale))
        case .pinchEnd(let cancelled):
            guard case .client(.pinch, _) = active else { return outcome }
            end(.pinch, cancelled: cancelled, time: time)
        case .holdBegin(let fingers):
            cancelActive(time: time)
            begin(.hold, fingers: fingers, time: time, surface: pointerFocus)
            outcome.pointer.append(.gestureHold(true))
        case .holdEnd(let cancelled):
            guard case .client(.hold, _) = active else { return outcome }
            end(.hold, cancelled: cancelled, time: time)
        }
        return outcome
    }

    /// The surface under the pointer hears the gesture until it ends.
    private func begin(_ kind: ZwpPointerGesture.Kind, fingers: UInt32, time: UInt32, surface: WlSurface?) {
        active = .client(kind, surface: WeakSurface(surface: surface))
        guard let surface else { return }
        let serial = display.nextSerial()
        for g in objects where g.kind == kind && g.client == surface.client { g.begin(serial: serial, time: time, surface: surface, fingers: fingers) }
    }

    private func end(_ kind: ZwpPointerGesture.Kind, cancelled: Bool, time: UInt32) {
        guard case .client(kind, _) = active else { return }
        each(kind) { g in g.end(serial: display.nextSerial(), time: time, cancelled: cancelled) }
        active = nil
        switch kind {
        case .pinch: outcome.pointer.append(.pinch(scale: nil))
        case .hold: outcome.pointer.append(.gestureHold(false))
        case .swipe: break
        }
    }

    /// A new gesture began before the last one ended (a lost end event): the old one is cancelled.
    private func cancelActive(time: UInt32) {
        switch active {
        case .client(let kind, _): end(kind, cancelled: true, time: time)
        case .system: active = nil
        case nil: break
        }
    }

    /// The gesture objects of the client the active gesture belongs to.
    private func each(_ kind: ZwpPointerGesture.Kind, _ body: (ZwpPointerGesture) -> Void) {
        guard case .client(kind, let weak) = active, let surface = weak.surface else { return }
        for g in objects where g.kind == kind && g.client == surface.client { body(g) }
    }
}
