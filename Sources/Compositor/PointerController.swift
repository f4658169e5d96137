import CWaylandServer
import LodestoneSystem
import PointerEngine
import Rendering
import WaylandServer

/// The bridge between Wayland and the pure `PointerEngine`: keeps the engine's regions in
/// global coordinates as surfaces commit, move, stack and map; feeds it device input with the
/// frame clock's time; steps it each frame, turns its presentation into damage and pixels,
/// and delivers its events to the clients' region objects.
final class PointerController {
    unowned let compositor: Compositor
    /// Which pointer shows over apps, and in which style (their cursor names).
    let appCursor: AppCursor
    private(set) var engine: PointerEngine
    /// The last presentation; `step()` refreshes it.
    private(set) var presentation: PointerPresentation
    private let painter = PointerRenderer()

    /// The regions the engine knows, as the scene placed them (see `SceneRegions`).
    private var installed: [RegionID: SceneRegions.Placed] = [:]
    private var regionsDirty = false
    private var needsStep = true
    /// Whether the last step drew the adaptive pointer (so switching to a client cursor repaints).
    private var wasAdaptive = true
    /// The preview surface an effect is acting on; it is drawn by the effect, not the scene.
    private(set) weak var activePreview: WlSurface?
    private var deadlineTimer: EventSource?
    /// The app's cursor as the engine last heard it (`PointerInput.untargetedStyle`).
    private var appliedCursor = AdaptiveCursor.circle
    private var cursorDirty = false
    /// The frame clock's time of the last engine step (see `prepareFrame`).
    private var lastStepAt: Milliseconds?
    /// The deadline `deadlineTimer` was last armed for.
    private var armedDeadline: Instant?

    init(compositor: Compositor, mode: PointerMode, legacyApps: LegacyApps = .adaptive,
         settings: PointerSettings = PointerSettings()) throws(SystemError) {
        self.compositor = compositor
        appCursor = AppCursor(compositor: compositor, mode: mode, legacyApps: legacyApps)
        let out = compositor.output
        let bounds = Rect<Global>(x: 0, y: 0, width: Double(out.width), height: Double(out.height))
        engine = PointerEngine(outputBounds: bounds, settings: settings)
        presentation = engine.step(to: Instant(seconds: Double(compositor.clock.now) / 1000))
        if compositor.clock.mode == .realtime {
            deadlineTimer = try compositor.display.eventLoop.addTimer { [unowned self] in self.compositor.scheduleFrame() }
        }
    }

    private var now: Instant { Instant(seconds: Double(compositor.clock.now) / 1000) }

    // MARK: Input (Seat calls these)

    /// Where the device is, before magnetism (grabs follow it).
    var devicePosition: (x: Double, y: Double) { (engine.devicePosition.x, engine.devicePosition.y) }
    /// Where clients see the pointer: after magnetism, locks and confinement.
    var logicalPosition: (x: Double, y: Double) { (engine.logicalPosition.x, engine.logicalPosition.y) }
    /// A client's lock or confinement holds the device. From the stored properties, not the
    /// engine's computed `isConstrained`: calling a computed property of a struct kept in a
    /// class copies the whole engine first (4 KiB and a retain of each of its buffers, on
    /// every motion event).
    var isConstrained: Bool { engine.isLocked || engine.confinement != nil }

    /// The device moved (absolutely, relatively, or was put somewhere). The engine alone
    /// decides where that leaves the pointer: output edges, locks, confinement, magnetism.
    func deviceMoved(_ input: PointerInput) {
        prepareEngine()
        engine.handle(input, at: now)
        inputArrived()
    }

    /// The first button went down or the last one came up.
    func buttonChanged(pressed: Bool) {
        prepareEngine()
        engine.handle(.button(pressed ? .pressed : .released), at: now)
        inputArrived()
    }

    /// A client locked the pointer (zwp_locked_pointer_v1): it hides and only relative motion flows.
    func setLocked(_ locked: Bool) {
        guard locked != engine.isLocked else { return }
        prepareEngine()
        engine.handle(.pointerLock(locked), at: now)
        inputArrived()
    }

    /// A client confined the pointer to these global rectangles (zwp_confined_pointer_v1), or
    /// nil: the confinement ended.
    func setConfinement(_ rects: [Rect<Global>]?) {
        guard rects != engine.confinement else { return }
        engine.handle(.confine(to: rects), at: now)
    }

    /// The kind of device moving the pointer: auto-hide waits longer after a mouse.
    func setDevice(_ kind: DeviceKind) {
        guard kind != engine.deviceKind else { return }
        engine.handle(.device(kind), at: now)
    }

    /// Input that changes how the pointer shows, not where it is: leaving or re-entering
    /// the outputs (it fades), idle inhibition (no auto-hide), typing (it hides), a hold
    /// (pressed) or a pinch (a lifted element scales). The next frame shows it.
    func apply(_ input: PointerInput) {
        prepareEngine()
        engine.handle(input, at: now)
        inputArrived()
    }

    /// A tablet tool hovering (the hover preview), touching (the pointer hides) or gone.
    func stylus(_ input: StylusInput) {
        guard input != engine.stylus else { return }
        engine.handle(.stylus(input), at: now)
        inputArrived()
    }

    /// New settings (config.toml saved): the engine takes them at once.
    func updateSettings(_ settings: PointerSettings) {
        guard settings != engine.settings else { return }
        prepareEngine()
        engine.updateSettings(settings)
        inputArrived()
    }

    private func inputArrived() {
        needsStep = true
        compositor.scheduleFrame()
    }

    // MARK: Regions

    /// Something moved, stacked, mapped, committed or went away: remap before the next use.
    func sceneChanged() {
        regionsDirty = true
        // A surface that declares regions takes its cursor name's place.
        cursorDirty = true
        needsStep = true
        compositor.scheduleFrame()
    }

    private func prepareEngine() {
        let out = compositor.output
        if engine.outputBounds.width != Double(out.width) || engine.outputBounds.height != Double(out.height) {
            engine.setOutputBounds(Rect(x: 0, y: 0, width: Double(out.width), height: Double(out.height)))
        }
        syncRegions()
        syncCursor()
    }

    /// Brings the engine's regions in line with the scene's placed regions. Only changed
    /// regions are touched, so a client committing every frame does not re-enter its region.
    private func syncRegions() {
        guard regionsDirty else { return }
        regionsDirty = false
        var wanted = compositor.scene.regions.placed()
        // Apps that declare none: the elements they publish for accessibility.
        wanted.merge(compositor.accessibility.placedRegions(allocate: compositor.scene.regions.allocateRegionID)) { declared, _ in declared }
        for id in installed.keys where wanted[id] == nil { _ = engine.regions.remove(id: id) }
        for (id, entry) in wanted where installed[id]?.region != entry.region {
            do { try engine.regions.upsert(entry.region) } catch {
                compositor.log.warning("region \(id) refused by the pointer engine: \(error)")
                wanted[id] = nil
            }
        }
        installed = wanted
    }

    // MARK: The app's cursor

    /// The focused client chose another cursor (or the pointer went to another client).
    func cursorChanged() {
        cursorDirty = true
        // Another surface may be under the pointer: its accessibility regions.
        regionsDirty = true
        needsStep = true
        compositor.scheduleFrame()
    }

    private func syncCursor() {
        guard cursorDirty else { return }
        cursorDirty = false
        let wanted = appCursor.wanted
        guard wanted != appliedCursor else { return }
        appliedCursor = wanted
        engine.handle(.untargetedStyle(spinningCursor.style), at: now)
    }

    /// The applied cursor with its busy accessory where the clock has turned it.
    private var spinningCursor: AdaptiveCursor {
        guard appliedCursor.spins else { return appliedCursor }
        let turns = now.seconds / AdaptiveCursor.spinPeriod
        return appliedCursor.spinning(at: turns - turns.rounded(.down))
    }

    // MARK: Frames

    /// Steps the engine if anything changed or is animating, adding its damage.
    /// Called before each compose and before answering state queries.
    func prepareFrame() {
        // The frame clock counts whole milliseconds: a second call within the same one
        // (composeIfNeeded, then repaint) has no time to advance, only input to take in.
        let advanced = compositor.clock.now != lastStepAt
        let busy = appliedCursor.spins && appCursor.drawsAdaptivePointer
        if needsStep || (advanced && (presentation.isAnimating || deadlinePassed || busy)) { step() } else { armDeadline() }
        // Effects redraw the scene's pixels of their element: whenever anything is composed,
        // make sure the whole pointer/effect area is, so no half-updated snapshot is drawn.
        // Damage far from the pointer leaves its pixels as they are: nothing to redraw.
        if wasAdaptive && touchesOutputDamage(presentation.bounds) { damage(presentation.bounds) }
    }

    private var deadlinePassed: Bool { engine.nextDeadline.map { $0 <= now } ?? false }

    @discardableResult
    func step() -> PointerPresentation {
        prepareEngine()
        lastStepAt = compositor.clock.now
        // A busy accessory turns with the clock, so frames keep coming while it shows.
        if appliedCursor.spins { engine.handle(.untargetedStyle(spinningCursor.style), at: now) }
        let p = engine.step(to: now)
        presentation = p
        needsStep = false
        let adaptive = appCursor.drawsAdaptivePointer
        if adaptive || wasAdaptive { damage(p.damage) }
        if adaptive != wasAdaptive { compositor.seat.cursor.damage() }
        wasAdaptive = adaptive
        activePreview = p.contentEffect.flatMap { installed[$0.region]?.spec.preview }.flatMap { $0.hasContent ? $0 : nil }
        deliverEvents()
        if p.isAnimating || (appliedCursor.spins && adaptive) { compositor.scheduleFrame() }
        armDeadline()
        return p
    }

    /// Magnetism or a region appearing under a still pointer moved the logical position
    /// during a step: clients hear it now, once, after the frame (composing sends no input).
    func deliverLogicalMotion() {
        let l = engine.logicalPosition, seat = compositor.seat!
        if l.x != seat.x || l.y != seat.y { seat.logicalPositionChanged(toX: l.x, y: l.y) }
    }

    private func touchesOutputDamage(_ r: Rect<Global>) -> Bool {
        logicalPixels(r).map(compositor.output.damageTouches(logical:)) ?? false
    }

    /// The whole logical pixels a global rect covers (nil: nothing to draw).
    private func logicalPixels(_ r: Rect<Global>) -> PixelRect? {
        guard r.isFinite, !r.isEmpty else { return nil }
        let i = r.integral
        return PixelRect(x: Int32(clamping: Int(i.minX)), y: Int32(clamping: Int(i.minY)),
                         width: Int32(clamping: Int(i.width)), height: Int32(clamping: Int(i.height)))
    }

    private func damage(_ r: Rect<Global>) {
        if let pixels = logicalPixels(r) { compositor.output.damage(logical: pixels) }
    }

    /// Region exit delay and auto-hide happen without input: wake up for them. (With the
    /// manual clock a frame is kept due instead, even through frames that had nothing to step.)
    private func armDeadline() {
        guard let deadline = engine.nextDeadline else { return }
        let ms = max(1, Int32(clamping: Int(((deadline.seconds - now.seconds) * 1000).rounded(.up))))
        if let deadlineTimer {
            // Still armed for this very deadline and it has not come: re-arming would only
            // cost a timerfd syscall on every frame.
            if deadline == armedDeadline && deadline > now { return }
            deadlineTimer.arm(milliseconds: ms)
            armedDeadline = deadline
        } else {
            // Manual clock: frames only run as a test advances time; keep one due.
            compositor.scheduleFrame()
        }
    }

    private func deliverEvents() {
        engine.drainEvents { event in
            switch event {
            case .entered(let id, _): installed[id]?.spec.object?.sendEntered()
            case .left(let id, _): installed[id]?.spec.object?.sendLeft()
            case .bandBegan(let id, _, let r): band(id, 0, r)
            case .bandChanged(let id, _, let r): band(id, 1, r)
            case .bandEnded(let id, _, let r): band(id, 2, r)
            // Relative listeners hear the device's own deltas from the seat; this stream is
            // for hosts that only have absolute positions.
            case .lockedMotion: break
            }
        }
    }

    private func band(_ id: RegionID, _ state: UInt32, _ r: Rect<Global>) {
        guard let entry = installed[id] else { return }
        entry.spec.object?.sendBand(state, entry.placement.toLocal(r))
    }

    /// The adaptive pointer and its content effects as the frame's top element (nil while a
    /// client's own cursor shows).
    var element: RenderElement? { wasAdaptive ? .overlay(self) : nil }
    /// The compositor draws the adaptive pointer (no client cursor shows).
    var isAdaptive: Bool { wasAdaptive }

    /// What the test protocol reports.
    var shapeReport: PointerShapeReport { PointerShapeReport(presentation, clientCursor: !appCursor.drawsAdaptivePointer, tuning: engine.settings.tuning) }
    var targetIdentifier: UInt32? { presentation.targetRegion.flatMap { installed[$0]?.spec.identifier } }
}

extension PointerController: OverlayElement {
    /// Draws the adaptive pointer and content effects over the scene composed beneath it.
    func draw(into image: Image, damage: PixelRegion) {
        guard let s = activePreview, let texture = s.texture, let (x, y) = compositor.origin(of: s) else {
            painter.draw(presentation, into: image, scale: compositor.output.scale.factor, clip: damage, preview: nil)
            return
        }
        let preview = PreviewContent(image: texture, x: Double(x), y: Double(y), width: Double(s.width), height: Double(s.height))
        // The preview's pixels are the client's buffer, read in place under its guard.
        texture.reading {
            painter.draw(presentation, into: image, scale: compositor.output.scale.factor, clip: damage, preview: preview)
        }
    }
}
