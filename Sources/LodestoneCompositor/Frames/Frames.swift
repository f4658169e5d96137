import CWaylandServer
import AdaptivePointerEngine
import LodestoneSystem
import Rendering
import WaylandServer

/// Frames: one step of the pointer, the composition, frame callbacks and presentation
/// feedback, then what the pointer's step did goes to clients. A capture composes what is
/// damaged without stepping anything. Frames owns what only frames touch: the renderer, the
/// pointer's overlay and plane, the presentation counters and the pointer's deadline
/// timer; the compositor builds it once its seat and gestures exist.
///
/// Several heads, each at its own cadence. The frame clock ticks at the fastest head's rate;
/// at each tick only the heads whose refresh has come and whose presenter can take a frame
/// (`OutputHead.isHeld`: a DRM flip still pending) are composed, with their part of the
/// damage, and only the frame callbacks of surfaces on them are answered. So damage on one
/// head composes no other, a surface is paced by the head it is on, and a slow or stalled
/// head holds back nothing but itself. One head keeps the single-output path (`present`).
final class Frames {
    let clock: FrameClock
    unowned let output: Output
    unowned let layout: OutputLayout
    unowned let scene: Scene
    private unowned let seat: Seat
    /// The window switcher's slide moves windows before a frame composes.
    private unowned let gestures: Gestures
    /// Told of every composed frame's damage (nil until the compositor has made it).
    weak var screencopy: Screencopy?
    /// The session lock while the session is locked: told of every composed frame, so its
    /// locker hears `locked` once every head is covered (`SessionLock`).
    weak var sessionLock: SessionLock?

    var renderer = Renderer()
    /// Draws the adaptive pointer and its content effects over each composed frame.
    let pointerOverlay = AdaptivePointerOverlay()
    /// Wakes a frame when the pointer's next deadline (region exit delay, auto-hide) falls
    /// due without input (realtime clock only), and the deadline it is armed for.
    private var pointerDeadlineTimer: EventSource?
    private var armedPointerDeadline: Instant?
    /// When the last composed frame was presented (`FrameClock.timestamp`).
    /// `lastPresented`, `repaintCount` and `frameCount` skip the dynamic exclusivity check
    /// (every frame writes them; ~60 instructions a check, issue 29): plain counters,
    /// assigned whole by the frame code alone.
    @exclusivity(unchecked) private(set) var lastPresented = Timestamp(seconds: 0, nanoseconds: 0)
    /// How frames reach the screen, for wp_presentation (see `PresentedFrame`).
    var pacing = Compositor.Pacing.timer
    /// Repaints so far (with damage or not): wp_presentation's sequence.
    @exclusivity(unchecked) private(set) var repaintCount: UInt64 = 0
    func countRepaint() { repaintCount &+= 1 }
    /// Frames composed so far (frames with damage).
    @exclusivity(unchecked) private(set) var frameCount = 0
    /// Called after each composed frame with the damaged output pixels.
    var framePresented: ((Image, PixelRegion) -> Void)?
    /// A backend's hardware cursor (the DRM cursor plane), asked before each composed frame
    /// whether it shows the adaptive pointer itself; when it does, the frame leaves it out.
    var pointerPlane: PointerPlane?
    /// The plane took the pointer when last asked: while it keeps it, the pointer's motion
    /// damages nothing (no composed frame).
    private var pointerOnPlane = false
    /// Which client surfaces a backend's planes show (`surfacePlanes`), frame by frame.
    private let planeAssignment: PlaneAssignment
    /// The whole picture for captures while surfaces are on planes.
    private let planeCapture: PlaneCapture

    init(clock: FrameClock, output: Output, layout: OutputLayout, scene: Scene, seat: Seat, gestures: Gestures, loop: EventLoop) throws(SystemError) {
        self.clock = clock
        self.output = output
        self.layout = layout
        self.scene = scene
        self.seat = seat
        self.gestures = gestures
        planeAssignment = PlaneAssignment(output: output, scene: scene, clock: clock)
        planeCapture = PlaneCapture(output: output, scene: scene)
        if clock.mode == .realtime {
            pointerDeadlineTimer = try loop.addTimer { [unowned clock] in clock.schedule() }
        }
    }

    func scheduleFrame() { clock.schedule() }
    private func origin(of surface: WlSurface) -> (Int32, Int32)? { scene.origin(of: surface) }

    /// Steps the pointer, composes what changed, answers frame callbacks, then delivers
    /// what the step did (composing sends no input).
    func repaint() {
        // Windows the system gestures are sliding move before anything is composed.
        gestures.windowSwitcher.advance(to: clock.now)
        let step = takePointerStep()
        if layout.heads.count > 1 { presentDueHeads() } else { present() }
        seat.deliver(step)
    }

    /// Composes what is damaged, then answers the frame callbacks and presentation feedback
    /// of what is on screen: the clients may draw their next frame.
    private func present() {
        let now = clock.now
        let time = clock.timestamp
        countRepaint()
        compose(at: time)
        answerFrame(presentedFrame(at: time), now: now)
    }

    /// Answers the frame callbacks and presentation feedback of the mapped surfaces whose
    /// rect (layout pixels) `shown` takes, then the cursor's and the drag icon's, which are
    /// answered at every frame composed.
    func answerFrame(_ frame: PresentedFrame, now: Milliseconds, shown: (PixelRect) -> Bool = { _ in true }) {
        scene.forEachMappedSurface { s, x, y in
            // A plane's are answered when its owner shows it (`PlaneUpdate`).
            guard !s.onPlane, shown(PixelRect(x: x, y: y, width: s.width, height: s.height)) else { return }
            for callback in s.takeFrameCallbacks() { callback.done(now) }
            for feedback in s.takePresentationFeedbacks() { feedback.presented(frame, outputs: s.enteredOutputs.filter { !$0.isDestroyed }) }
        }
        if let cursor = seat.cursor.surface {
            for callback in cursor.takeFrameCallbacks() { callback.done(now) }
            for feedback in cursor.takePresentationFeedbacks() { feedback.presented(frame, outputs: []) }
        }
        if let icon = scene.dragIcon()?.surface, !icon.onPlane {
            for callback in icon.takeFrameCallbacks() { callback.done(now) }
        }
    }

    /// A frame now, as the clock would run it, without waiting for the next refresh (the
    /// bench's motion-to-frame measure).
    func frameNow() { repaint() }

    /// The pointer's reaction now, without a frame: the test protocol's injected input is
    /// answered with the state it leads to at the same instant. Returns what is presented.
    @discardableResult
    func settlePointer() -> PointerPresentation {
        let step = takePointerStep()
        seat.deliver(step)
        return step.snapshot.presentation
    }

    /// The seat's one step of the pointer, and what it means for the output: its damage,
    /// another frame while it animates, a wake-up at its next deadline.
    private func takePointerStep() -> PointerStep {
        let step = seat.stepPointer()
        if let d = step.damage, !pointerStaysOnPlane(step.snapshot) { damage(pointerArea: d) }
        if step.keepsAnimating { scheduleFrame() }
        armPointerDeadline(step.nextDeadline)
        return step
    }

    /// Composes the damaged part of the output with the pointer as the last step left it;
    /// `only`: the damaged part within these heads, the rest left for their own frames.
    /// With a backend's planes (one head), decides first which surfaces they show, leaves
    /// those out, and hands them over before the frame goes out (`PlaneAssignment`).
    /// Returns what was composed (nil: nothing).
    @discardableResult
    func compose(at time: Timestamp, only heads: [OutputHead]? = nil) -> PixelRegion? {
        let pointer = seat.pointerSnapshot
        // Effects redraw the scene's pixels of their element: whenever anything is composed,
        // make sure the whole pointer/effect area is, so no half-updated snapshot is drawn.
        // Damage far from the pointer leaves its pixels as they are: nothing to redraw.
        let drawn = adaptivePointerDrawn
        if drawn, let r = Self.logicalPixels(pointer.presentation.bounds), output.damageTouches(logical: r) {
            output.damage(logical: r)
        }
        let damage: PixelRegion
        if let heads {
            damage = PixelRegion()
            for head in heads {
                let part = output.damage.copy()
                part.intersect(output.pixels(logical: head.bounds))
                damage.add(part)
            }
        } else {
            damage = output.damage
        }
        // Planes are handed over only when the backend can take them now; until then the
        // surfaces on them stay there and their updates wait.
        let planes = heads == nil ? surfacePlanes.flatMap { $0.canPresent ? $0 : nil } : nil
        let planeWork = !output.planeDamage.isEmpty
            || (planes != nil && (planeAssignment.isStale || planeAssignment.surfaces.contains { $0.hasFrameRequests }))
        guard !damage.isEmpty || planeWork else { return nil }
        // A preview surface under an effect is drawn by the effect (moved, scaled).
        // The cursor plane may show the pointer instead (moving it then needs no compose).
        let onPlane = pointerPlane?.present(pointer.presentation, adaptive: drawn) ?? false
        pointerOnPlane = onPlane
        var overlay: RenderElement?
        if drawn, !onPlane {
            pointerOverlay.show(pointer, preview: pointer.preview.flatMap { s in origin(of: s).map { (s, $0) } }, scale: output.scale.factor)
            overlay = .overlay(pointerOverlay)
        }
        // While the adaptive pointer is drawn no client cursor image shows (both follow the
        // same `AppCursorPolicy.source`): not asking saves working the source out again.
        let cursor = drawn ? nil : seat.cursor.element(output: output)
        planeCapture.pointerElements = (cursor, overlay)
        let overlayPixels = overlay == nil ? nil : Self.logicalPixels(pointer.presentation.bounds)
        let shown = planes.map { planeAssignment.assign($0, preview: pointer.preview, cursor: cursor, overlay: overlayPixels, damage: damage) }
        if !damage.isEmpty {
            scene.withRenderElements(skipping: pointer.preview, skippingPlanes: !planeAssignment.surfaces.isEmpty, cursor: cursor, overlay: overlay) { elements in
                renderer.render(elements, into: output.image, damage: damage)
            }
        }
        // The planes go first: the frame's own commit is what shows them (nested, the window's
        // commit applies its subsurfaces' state).
        if let planes, let shown { planes.present(shown) }
        frameCount += 1
        lastPresented = time
        // What changed on screen, the planes' surfaces included: what captures must redraw.
        let changed: PixelRegion
        if output.planeDamage.isEmpty {
            changed = damage
        } else {
            changed = damage.copy()
            changed.add(output.planeDamage)
            output.planeDamage.clear()
        }
        planeCapture.framePresented(changed: changed, planesShowSurfaces: !planeAssignment.surfaces.isEmpty)
        // A capture from in here (a screenshot, screencopy) reads this frame as it is.
        composing = true
        framePresented?(output.image, damage)
        screencopy?.framePresented(damage: changed)
        sessionLock?.framePresented(damage: damage)
        composing = false
        if let heads {
            for head in heads { output.damage.subtract(output.pixels(logical: head.bounds)) }
        } else {
            output.damage.clear()
        }
        return damage
    }

    /// Composes now if anything is damaged, with the pointer as its last step left it: a
    /// capture (capture, capture_png, screencopy) shows what clients committed and steps
    /// nothing, sends no input. What it composed was presented: its frame callbacks are
    /// answered, as a frame's are, so a client waiting on them draws on.
    func composeIfNeeded() {
        guard !composing else { return }
        if !output.damage.isEmpty || !output.planeDamage.isEmpty { present() }
    }

    /// A frame is being handed out (`framePresented`, screencopy): what reads it then must not
    /// compose another inside it.
    private var composing = false

    /// A backend's planes for client surfaces (nested: subsurfaces of the window in the
    /// parent), nil when it has none: then every surface is composed, as before.
    var surfacePlanes: SurfacePlanes? {
        get { planeAssignment.planes }
        set { planeAssignment.planes = newValue }
    }
    /// Something a plane's choice depends on changed with nothing damaged (a parent took a
    /// client's dmabuf): the next frame decides again.
    func planesMayChange() { planeAssignment.mayChange() }
    /// A surface is gone: its plane goes with it.
    func surfaceDestroyed(_ s: WlSurface) { planeAssignment.surfaceDestroyed(s) }

    // MARK: Captures

    /// The output's pixels as they are shown, the surfaces on planes drawn in: what a capture,
    /// a screenshot or screencopy reads. Without planes, the composed frame itself.
    func capturedImage() -> Image {
        composeIfNeeded()
        guard !planeAssignment.surfaces.isEmpty else { return output.image }
        return planeCapture.image(preview: seat.pointerSnapshot.preview, renderer: &renderer)
    }

    /// Whether Lodestone draws the adaptive pointer now: the seat's policy (a client's cursor
    /// image may show instead), read as it is, not as the last step saw it.
    var adaptivePointerDrawn: Bool { seat.drawsAdaptivePointer }

    /// The output's `area` (output pixels) composed again without the pointer (neither the
    /// adaptive pointer with its effects nor a client cursor), in a new image of the
    /// output's size: what a screenshot without the cursor shows.
    func composeWithoutPointer(_ area: PixelRect) -> Image {
        let image = Image(width: output.pixelWidth, height: output.pixelHeight, format: .xrgb8888)
        scene.withRenderElements(skipping: nil, cursor: nil, overlay: nil) { elements in
            renderer.render(elements, into: image, damage: PixelRegion(area))
        }
        return image
    }

    /// What wp_presentation says about the frame composed at `time`.
    func presentedFrame(at time: Timestamp) -> PresentedFrame {
        switch pacing {
        case .timer: PresentedFrame(time: time, refreshNanoseconds: clock.interval * 1_000_000, sequence: repaintCount, flags: 0)
        case .parent: PresentedFrame(time: time, refreshNanoseconds: 0, sequence: repaintCount, flags: 0)
        case .vsync:
            PresentedFrame(time: time, refreshNanoseconds: UInt32(1_000_000_000_000 / Int64(max(output.refreshMilliHz, 1))), sequence: repaintCount,
                           flags: WP_PRESENTATION_FEEDBACK_KIND_VSYNC.rawValue)
        }
    }

    // MARK: The pointer's damage and deadlines

    /// The whole logical pixels a global rect covers (nil: nothing to draw).
    private static func logicalPixels(_ r: Rect<Global>) -> PixelRect? {
        guard r.isFinite, !r.isEmpty else { return nil }
        let i = r.integral
        return PixelRect(x: Int32(clamping: Int(i.minX)), y: Int32(clamping: Int(i.minY)),
                         width: Int32(clamping: Int(i.width)), height: Int32(clamping: Int(i.height)))
    }

    /// Whether the plane showed the pointer and shows it still after this step: its motion
    /// then needs no frame. When it gives the pointer back, the step's damage composes it.
    private func pointerStaysOnPlane(_ s: PointerSnapshot) -> Bool {
        guard pointerOnPlane, let plane = pointerPlane else { return false }
        pointerOnPlane = plane.present(s.presentation, adaptive: s.adaptivePointerDrawn)
        return pointerOnPlane
    }

    private func damage(pointerArea r: Rect<Global>) {
        if let pixels = Self.logicalPixels(r) { output.damage(logical: pixels) }
    }

    /// Region exit delay and auto-hide happen without input: wake up for them. (With the
    /// manual clock a frame is kept due instead, even through frames that had nothing to step.)
    private func armPointerDeadline(_ deadline: Instant?) {
        guard let deadline else { return }
        let now = Instant(milliseconds: clock.now)
        let ms = max(1, Int32(clamping: Int(((deadline.seconds - now.seconds) * 1000).rounded(.up))))
        if let pointerDeadlineTimer {
            // Still armed for this very deadline and it has not come: re-arming would only
            // cost a timerfd syscall on every frame.
            if deadline == armedPointerDeadline && deadline > now { return }
            pointerDeadlineTimer.arm(milliseconds: ms)
            armedPointerDeadline = deadline
        } else {
            // Manual clock: frames only run as a test advances time; keep one due.
            scheduleFrame()
        }
    }
}
