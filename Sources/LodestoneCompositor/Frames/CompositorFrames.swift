import CWaylandServer
import AdaptivePointerEngine
import Rendering
import WaylandServer

/// Frames: one step of the pointer, the composition, frame callbacks and presentation
/// feedback, then what the pointer's step did goes to clients. A capture composes what is
/// damaged without stepping anything.
extension Compositor {
    public func scheduleFrame() { clock.schedule() }

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
        repaintCount &+= 1
        compose(at: time)
        answerFrame(presentedFrame(at: time), now: now)
    }

    /// Answers the frame callbacks and presentation feedback of the mapped surfaces whose
    /// rect (layout pixels) `shown` takes, then the cursor's and the drag icon's, which are
    /// answered at every frame composed.
    func answerFrame(_ frame: PresentedFrame, now: Milliseconds, shown: (PixelRect) -> Bool = { _ in true }) {
        scene.forEachMappedSurface { s, x, y in
            guard shown(PixelRect(x: x, y: y, width: s.width, height: s.height)) else { return }
            for callback in s.takeFrameCallbacks() { callback.done(now) }
            for feedback in s.takePresentationFeedbacks() { feedback.presented(frame, outputs: s.enteredOutputs.filter { !$0.isDestroyed }) }
        }
        if let cursor = seat.cursor.surface {
            for callback in cursor.takeFrameCallbacks() { callback.done(now) }
            for feedback in cursor.takePresentationFeedbacks() { feedback.presented(frame, outputs: []) }
        }
        if let icon = scene.dragIcon()?.surface {
            for callback in icon.takeFrameCallbacks() { callback.done(now) }
        }
    }

    /// A frame now, as the clock would run it, without waiting for the next refresh (the
    /// bench's motion-to-frame measure).
    public func frameNow() { repaint() }

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
        guard !damage.isEmpty else { return nil }
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
        scene.withRenderElements(skipping: pointer.preview, cursor: cursor, overlay: overlay) { elements in
            renderer.render(elements, into: output.image, damage: damage)
        }
        frameCount += 1
        lastPresented = time
        framePresented?(output.image, damage)
        screencopy.framePresented(damage: damage)
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
    public func composeIfNeeded() {
        if !output.damage.isEmpty { present() }
    }

    /// Whether Lodestone draws the adaptive pointer now: the seat's policy (a client's cursor
    /// image may show instead), read as it is, not as the last step saw it.
    var adaptivePointerDrawn: Bool { seat.appCursor.drawsAdaptivePointer }

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

extension Instant {
    /// The frame clock's milliseconds as an instant.
    init(milliseconds: Milliseconds) { self.init(seconds: Double(milliseconds) / 1000) }
}

/// A plane that can show the adaptive pointer without composing it (the DRM cursor plane,
/// the parent's cursor when nested). Asked before every composed frame, and at every pointer
/// step while it holds the pointer: then the pointer's motion damages nothing.
public protocol PointerPlane: AnyObject {
    /// Shows `presentation`'s pointer if the plane can (`adaptive`: the compositor draws the
    /// adaptive pointer, not a client's cursor). True: the frame must not draw the pointer
    /// (the plane shows it, or nothing is to be seen); false: the frame draws it (a plane
    /// that gave the pointer back hides its own with that frame, not before).
    func present(_ presentation: PointerPresentation, adaptive: Bool) -> Bool
}
