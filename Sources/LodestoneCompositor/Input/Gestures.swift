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
final class Gestures {
    unowned let compositor: Compositor
    /// Every client's gesture objects.
    var objects: [ZwpPointerGesture] = []
    private(set) lazy var windowSwitcher = WindowSwitcher(compositor: compositor)

    /// The gesture in progress and who it belongs to.
    private enum Active {
        /// Sent to the client of `surface` (nil: there was nothing under the pointer).
        case client(ZwpPointerGesture.Kind, surface: WeakSurface)
        /// A system swipe: its fingers and how far it went.
        case system(fingers: UInt32, dx: Double, dy: Double)
    }
    private var active: Active?

    struct WeakSurface { weak var surface: WlSurface? }

    init(compositor: Compositor) { self.compositor = compositor }

    private var seat: Seat { compositor.seat }

    /// The fingers of a swipe the system keeps.
    static func isSystemSwipe(fingers: UInt32) -> Bool { fingers == 3 || fingers == 4 }

    func handle(_ event: GestureEvent, time: UInt32) {
        switch event {
        case .swipeBegin(let fingers):
            cancelActive(time: time)
            if Self.isSystemSwipe(fingers: fingers) { active = .system(fingers: fingers, dx: 0, dy: 0) } else { begin(.swipe, fingers: fingers, time: time) }
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
                if !cancelled { windowSwitcher.systemSwipe(fingers: fingers, dx: dx, dy: dy, time: compositor.clock.now) }
            } else {
                end(.swipe, cancelled: cancelled, time: time)
            }
        case .pinchBegin(let fingers):
            cancelActive(time: time)
            begin(.pinch, fingers: fingers, time: time)
            compositor.seat.pointerInput(.pinch(scale: 1))
        case .pinchUpdate(let dx, let dy, let scale, let rotation):
            guard case .client(.pinch, _) = active else { return }
            each(.pinch) { $0.pinchUpdate(time: time, dx: dx, dy: dy, scale: scale, rotation: rotation) }
            compositor.seat.pointerInput(.pinch(scale: scale))
        case .pinchEnd(let cancelled):
            guard case .client(.pinch, _) = active else { return }
            end(.pinch, cancelled: cancelled, time: time)
        case .holdBegin(let fingers):
            cancelActive(time: time)
            begin(.hold, fingers: fingers, time: time)
            compositor.seat.pointerInput(.gestureHold(true))
        case .holdEnd(let cancelled):
            guard case .client(.hold, _) = active else { return }
            end(.hold, cancelled: cancelled, time: time)
        }
    }

    /// The surface under the pointer hears the gesture until it ends.
    private func begin(_ kind: ZwpPointerGesture.Kind, fingers: UInt32, time: UInt32) {
        let surface = seat.pointerFocus
        active = .client(kind, surface: WeakSurface(surface: surface))
        guard let surface else { return }
        let serial = compositor.display.nextSerial()
        for g in objects where g.kind == kind && g.client == surface.client { g.begin(serial: serial, time: time, surface: surface, fingers: fingers) }
    }

    private func end(_ kind: ZwpPointerGesture.Kind, cancelled: Bool, time: UInt32) {
        guard case .client(kind, _) = active else { return }
        each(kind) { g in g.end(serial: compositor.display.nextSerial(), time: time, cancelled: cancelled) }
        active = nil
        switch kind {
        case .pinch: compositor.seat.pointerInput(.pinch(scale: nil))
        case .hold: compositor.seat.pointerInput(.gestureHold(false))
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

/// The system's swipes: three fingers switch between windows, four show the desktop. Both
/// animate: windows slide on the frame clock (`advance(to:)`, each frame).
final class WindowSwitcher {
    unowned let compositor: Compositor
    /// How far fingers must travel for a system swipe to count, in logical points.
    static let threshold = 40.0
    /// Slides last this long, easing out.
    static let duration: UInt32 = 250

    private struct Slide {
        weak var toplevel: DesktopWindow?
        var from: (x: Double, y: Double), to: (x: Int32, y: Int32)
        var start: UInt32
    }
    private var slides: [Slide] = []
    /// Where the windows were before the desktop was shown; nil while they are in place.
    private var hiddenWindows: [(window: WeakToplevel, x: Int32, y: Int32)]?
    struct WeakToplevel { weak var toplevel: DesktopWindow? }

    init(compositor: Compositor) { self.compositor = compositor }

    var isAnimating: Bool { !slides.isEmpty }
    var isShowingDesktop: Bool { hiddenWindows != nil }

    func systemSwipe(fingers: UInt32, dx: Double, dy: Double, time: UInt32) {
        guard max(abs(dx), abs(dy)) >= Self.threshold else { return }
        if fingers == 3 { switchWindow(forward: dx < 0 || (abs(dy) > abs(dx) && dy < 0), time: time) } else { toggleDesktop(time: time) }
    }

    /// Swiping left brings the window under the top one forward (the next one); swiping right
    /// the bottom one (back through the stack). It slides in from the side it was pulled from.
    func switchWindow(forward: Bool, time: UInt32) {
        let windows = compositor.scene.windows
        guard windows.count > 1 else { return }
        if isShowingDesktop { toggleDesktop(time: time) }
        let next = forward ? windows[windows.count - 2] : windows[0]
        compositor.desktop.activate(next)
        let p = next.position
        let offset = forward ? 60.0 : -60.0
        slide(next, from: (Double(p.x) + offset, Double(p.y)), to: p, time: time)
    }

    /// Every window slides below the bottom of the output, or back where it was.
    func toggleDesktop(time: UInt32) {
        if let hidden = hiddenWindows {
            hiddenWindows = nil
            for h in hidden {
                guard let t = h.window.toplevel else { continue }
                let p = t.position
                slide(t, from: (Double(p.x), Double(p.y)), to: (h.x, h.y), time: time)
            }
        } else {
            let bottom = compositor.output.height
            hiddenWindows = compositor.scene.windows.map { (WeakToplevel(toplevel: $0), $0.position.x, $0.position.y) }
            for t in compositor.scene.windows {
                let p = t.position
                slide(t, from: (Double(p.x), Double(p.y)), to: (p.x, bottom + 20), time: time)
            }
        }
    }

    private func slide(_ toplevel: DesktopWindow, from: (x: Double, y: Double), to: (x: Int32, y: Int32), time: UInt32) {
        slides.removeAll { $0.toplevel === toplevel }
        slides.append(Slide(toplevel: toplevel, from: from, to: to, start: time))
        compositor.desktop.move(toplevel, to: Int32(from.x.rounded()), Int32(from.y.rounded()))
        compositor.scheduleFrame()
    }

    /// Moves every sliding window to where it is at `now`; done ones land exactly.
    func advance(to now: UInt32) {
        guard !slides.isEmpty else { return }
        slides.removeAll { s in
            guard let t = s.toplevel, t.isMapped else { return true }
            let elapsed = now &- s.start
            let done = elapsed >= Self.duration || elapsed > 1 << 31
            let f = done ? 1 : Self.easeOut(Double(elapsed) / Double(Self.duration))
            let x = s.from.x + (Double(s.to.x) - s.from.x) * f, y = s.from.y + (Double(s.to.y) - s.from.y) * f
            compositor.desktop.move(t, to: done ? s.to.x : Int32(x.rounded()), done ? s.to.y : Int32(y.rounded()))
            return done
        }
        if !slides.isEmpty { compositor.scheduleFrame() }
    }

    /// Cubic ease-out: fast start, gentle landing.
    static func easeOut(_ t: Double) -> Double { 1 - pow3(1 - min(max(t, 0), 1)) }
    private static func pow3(_ x: Double) -> Double { x * x * x }
}
