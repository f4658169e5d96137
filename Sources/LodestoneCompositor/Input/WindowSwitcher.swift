/// The system's swipes: three fingers switch between windows, four show the desktop. Both
/// animate: windows slide on the frame clock (`advance(to:)`, each frame).
///
/// It reads the scene's windows and moves them (`WindowMover`), and activates none itself:
/// a switch returns the window that comes forward, and whoever asked for it (the seat, for
/// a swipe or a shortcut) has the desktop activate it.
final class WindowSwitcher {
    private let scene: Scene
    private let output: Output
    private let clock: FrameClock
    private let mover: WindowMover
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

    init(scene: Scene, output: Output, clock: FrameClock, mover: WindowMover) {
        self.scene = scene
        self.output = output
        self.clock = clock
        self.mover = mover
    }

    var isAnimating: Bool { !slides.isEmpty }
    var isShowingDesktop: Bool { hiddenWindows != nil }

    /// A system swipe ended; returns the window to activate (a three-finger switch's).
    func systemSwipe(fingers: UInt32, dx: Double, dy: Double, time: UInt32) -> DesktopWindow? {
        guard max(abs(dx), abs(dy)) >= Self.threshold else { return nil }
        if fingers == 3 { return switchWindow(forward: dx < 0 || (abs(dy) > abs(dx) && dy < 0), time: time) }
        toggleDesktop(time: time)
        return nil
    }

    /// Swiping left brings the window under the top one forward (the next one); swiping right
    /// the bottom one (back through the stack). It slides in from the side it was pulled from.
    /// Returns that window, for the caller to activate (raised, with the keyboard).
    func switchWindow(forward: Bool, time: UInt32) -> DesktopWindow? {
        let windows = scene.windows
        guard windows.count > 1 else { return nil }
        if isShowingDesktop { toggleDesktop(time: time) }
        let next = forward ? windows[windows.count - 2] : windows[0]
        let p = next.position
        let offset = forward ? 60.0 : -60.0
        slide(next, from: (Double(p.x) + offset, Double(p.y)), to: p, time: time)
        return next
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
            let bottom = output.height
            hiddenWindows = scene.windows.map { (WeakToplevel(toplevel: $0), $0.position.x, $0.position.y) }
            for t in scene.windows {
                let p = t.position
                slide(t, from: (Double(p.x), Double(p.y)), to: (p.x, bottom + 20), time: time)
            }
        }
    }

    private func slide(_ toplevel: DesktopWindow, from: (x: Double, y: Double), to: (x: Int32, y: Int32), time: UInt32) {
        slides.removeAll { $0.toplevel === toplevel }
        slides.append(Slide(toplevel: toplevel, from: from, to: to, start: time))
        mover.move(toplevel, to: Int32(from.x.rounded()), Int32(from.y.rounded()))
        clock.schedule()
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
            mover.move(t, to: done ? s.to.x : Int32(x.rounded()), done ? s.to.y : Int32(y.rounded()))
            return done
        }
        if !slides.isEmpty { clock.schedule() }
    }

    /// Cubic ease-out: fast start, gentle landing.
    static func easeOut(_ t: Double) -> Double { 1 - pow3(1 - min(max(t, 0), 1)) }
    private static func pow3(_ x: Double) -> Double { x * x * x }
}
