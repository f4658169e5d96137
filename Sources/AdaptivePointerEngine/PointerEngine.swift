// Over 300 lines: the engine is one value type whose input, step and presentation share its private state (transitions, magnetism, hide timers); its parts already live in files of their own (Accessories, BandSelection, Spring, Visibility, MotionModel/, ...).
/// The adaptive pointer: feed it device input and time, ask it for one presentation per frame.
///
/// ```swift
/// var engine = PointerEngine(outputBounds: Rect(x: 0, y: 0, width: 1920, height: 1080))
/// try engine.regions.upsert(Region(id: RegionID(1), owner: SurfaceID(7),
///                                  frame: Rect(x: 100, y: 20, width: 44, height: 30)))
/// engine.handle(.motion(to: Point(x: 110, y: 30)), at: now)
/// let frame = engine.step(to: now)          // draw `frame`, repaint `frame.damage`
/// for event in engine.drainEvents() { … }   // entered/left/band events for clients
/// ```
///
/// A value type with no clock, no threads and no global state: two engines fed the same
/// inputs at the same instants produce equal presentations. The steady-state frame path
/// (motion + step) does not allocate.
public struct PointerEngine: Sendable {
    /// The regions of every client, in global coordinates. Mutate in place:
    /// `try engine.regions.upsert(region)`, `engine.regions.remove(id:)`,
    /// `engine.regions.removeAll(owner:)`. The engine notices changes on its next input or step.
    public var regions: RegionStore
    public private(set) var settings: PointerSettings
    /// The union of all outputs; the pointer never leaves it.
    public private(set) var outputBounds: Rect<Global>
    /// The outputs themselves when there are several (`setOutputBounds(_:areas:)`): the
    /// pointer stays on one of them, never in a gap of `outputBounds` no output covers.
    public private(set) var outputAreas: [Rect<Global>] = []
    /// Where the device put the pointer, before magnetism.
    public private(set) var devicePosition: Point<Global>
    /// Where clients see the pointer (after magnetism); always inside `outputBounds`.
    public private(set) var logicalPosition: Point<Global>
    public private(set) var deviceKind = DeviceKind.mouse
    public private(set) var isButtonPressed = false
    public private(set) var isLocked = false
    /// A hold gesture's fingers rest on the touchpad: shown pressed.
    public private(set) var isHolding = false
    /// The scale of a pinch in progress.
    public private(set) var pinchScale: Double?
    /// A tablet tool near or on the screen.
    public private(set) var stylus = StylusInput.away
    /// Where confinement keeps the device (see `PointerInput.confine`); nil when free.
    public private(set) var confinement: [Rect<Global>]?
    /// Locked or confined: device motion is held by a client's constraint.
    public var isConstrained: Bool { isLocked || confinement != nil }
    /// The pointer's style where no region targets it (see `PointerInput.untargetedStyle`).
    public private(set) var untargetedStyle = PointerStyle()
    /// Its custom shape scaled by the size multiplier once (scaling allocates).
    private var untargetedPath: Path<PointerLocal>?

    private var lastAbsolute: Point<Global>?
    private var velocity = VelocityTracker()
    private var heading = 0.0
    private var targeting = Targeting()
    private var engaged: EngagedRegion?
    private var seenGeneration = UInt64.max
    private var textLine = TextLineSnap()
    private var band = BandSelection()
    private var visibility = Visibility()
    private var events: [PointerEvent] = []
    private var morph: ShapeMorph
    private var effects = ContentEffectAnimator()
    private var accessories = AccessoryAnimator()
    private var annotation = AnnotationAnimator()
    private var shake = ShakeToFind()
    private var springs: SpringKit
    private var lastStep: Instant?
    private var previousBounds: Rect<Global>?

    /// - Parameters:
    ///   - outputBounds: the union of the outputs, in global coordinates.
    ///   - gridCellSize: spatial index cell side; about the size of a typical hit region.
    ///   - initialPosition: defaults to the middle of the output.
    public init(outputBounds: Rect<Global>, settings: PointerSettings = PointerSettings(),
                gridCellSize: Double = 32, initialPosition: Point<Global>? = nil) {
        self.outputBounds = outputBounds
        self.settings = settings
        regions = RegionStore(bounds: outputBounds, cellSize: gridCellSize,
                              largeElementSide: settings.tuning.largeElementSide)
        morph = ShapeMorph(diameter: settings.tuning.pointerDiameter * settings.size)
        springs = SpringKit(settings: settings)
        // Placeholders until `self` is complete; then clamped onto the output.
        devicePosition = initialPosition ?? outputBounds.center
        logicalPosition = devicePosition
        devicePosition = clampToOutput(devicePosition)
        logicalPosition = devicePosition
        if settings.style == .arrow { morph = ShapeMorph(showing: currentTarget(), device: devicePosition) }
    }

    // MARK: Configuration

    public mutating func updateSettings(_ newSettings: PointerSettings) {
        settings = newSettings
        springs.update(settings: newSettings)
        if let e = engaged { engaged = makeEngaged(e.region, version: e.version) }
        if !newSettings.shakeToFind { shake.forget() }
        untargetedPath = Magnetism.scaledPath(of: untargetedStyle, size: newSettings.size)
        updateLogical()
    }

    /// Outputs were added, removed or resized: rebuilds the index and keeps the pointer on screen.
    /// `areas` are the outputs when they do not fill `bounds` (outputs of different heights).
    public mutating func setOutputBounds(_ bounds: Rect<Global>, areas: [Rect<Global>] = []) {
        outputBounds = bounds
        outputAreas = areas
        regions.rebuild(bounds: bounds)
        devicePosition = clampToOutput(devicePosition)
        updateLogical()
    }

    // MARK: Input

    /// Applies one input event. Nothing animates until the next `step(to:)`.
    public mutating func handle(_ input: PointerInput, at time: Instant) {
        switch input {
        case .motion(let p):
            guard p.isFinite else { return }
            if isLocked {
                if let last = lastAbsolute { events.append(.lockedMotion(p - last)) }
                lastAbsolute = p
                return
            }
            lastAbsolute = p
            moveDevice(to: p, at: time)
        case .relativeMotion(let d):
            guard d.isFinite else { return }
            if isLocked {
                events.append(.lockedMotion(d))
                return
            }
            moveDevice(to: devicePosition + d, at: time)
        case .button(.pressed):
            guard !isButtonPressed else { return }
            isButtonPressed = true
            visibility.noteActivity(at: time)
            shake.forget()
            guard !isLocked else { return }
            targeting.finishLeaving()
            syncEngaged()
            targeting.latch(engaged?.region.id, axes: engaged?.region.latchingAxes ?? [])
            band.press(in: engaged?.region, at: devicePosition)
            updateTextLine()
        case .button(.released):
            guard isButtonPressed else { return }
            isButtonPressed = false
            targeting.unlatch()
            if let e = band.release() { events.append(e) }
            retarget(at: time, allowFlick: false)
        case .keyTyped:
            visibility.noteTyping()
        case .device(let kind):
            deviceKind = kind
            visibility.setDevice(kind)
        case .pointerLock(let on):
            guard on != isLocked else { return }
            isLocked = on
            visibility.setLocked(on)
            if on {
                if let e = band.cancel() { events.append(e) }
            } else {
                visibility.noteActivity(at: time)
                retarget(at: time, allowFlick: false)
            }
        case .confine(let rects):
            confinement = rects.map { $0.filter { !$0.isEmpty } }
        case .warp(let p):
            guard p.isFinite else { return }
            lastAbsolute = p
            let q = clampToOutput(p)
            velocity.add(q - devicePosition, at: time, smoothing: settings.tuning.velocitySmoothing)
            devicePosition = q
            visibility.noteActivity(at: time)
            if band.isEngaged {
                if let e = band.move(to: q, threshold: settings.tuning.bandActivationDistance) { events.append(e) }
            } else {
                retarget(at: time, allowFlick: true)
            }
        case .idleInhibited(let on):
            visibility.setIdleInhibited(on)
            // The end of an inhibition is not idle time: the delay starts again.
            if !on { visibility.noteActivity(at: time) }
        case .outsideOutputs(let outside):
            visibility.setOutside(outside)
            // Coming back is activity: the auto-hide delay starts again.
            if !outside { visibility.noteActivity(at: time) }
        case .untargetedStyle(let style):
            guard Magnetism.isUsableUntargeted(style) else { return }
            untargetedStyle = style
            untargetedPath = Magnetism.scaledPath(of: style, size: settings.size)
        case .gestureHold(let held):
            isHolding = held
            if held { visibility.noteActivity(at: time) }
        case .pinch(let scale):
            pinchScale = scale.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
            if scale != nil { visibility.noteActivity(at: time) }
        case .stylus(let s):
            stylus = s
        }
        updateLogical()
    }

    private mutating func moveDevice(to p: Point<Global>, at time: Instant) {
        let q = confined(clampToOutput(p))
        guard q != devicePosition || !isConstrained else { return }
        velocity.add(q - devicePosition, at: time, smoothing: settings.tuning.velocitySmoothing)
        devicePosition = q
        let v = velocity.velocity(at: time)
        if v.length > 30 { heading = Math.atan2(v.dx, -v.dy) }
        visibility.noteActivity(at: time)
        // A shake during a grab (a drag, a move, a resize) is the hand at work, not a search.
        if settings.shakeToFind, !isButtonPressed { shake.move(to: q, at: time, tuning: settings.tuning) }
        if band.isEngaged {
            if let e = band.move(to: q, threshold: settings.tuning.bandActivationDistance) { events.append(e) }
            return
        }
        retarget(at: time, allowFlick: true)
    }

    /// Events for clients since the last call (entered/left, band, locked motion).
    public mutating func drainEvents() -> [PointerEvent] {
        if events.isEmpty { return [] }
        defer { events = [] }
        return events
    }

    /// The same, without allocating: calls `body` for each pending event, in order, and keeps
    /// the buffer's capacity (the per-frame path of a busy compositor).
    public mutating func drainEvents(_ body: (PointerEvent) -> Void) {
        for e in events { body(e) }
        events.removeAll(keepingCapacity: true)
    }

    /// The region the pointer is engaged with.
    public var targetRegion: RegionID? { engaged?.region.id }

    /// The region the pointer is on whose owner has yet to confirm it (`Region.awaitsConfirmation`).
    public var regionAwaitingConfirmation: RegionID? { engaged.flatMap { $0.region.awaitsConfirmation ? $0.region.id : nil } }

    /// The engaged region whose form the pointer takes: none while it awaits confirmation.
    private var formRegion: EngagedRegion? { engaged.flatMap { $0.region.awaitsConfirmation ? nil : $0 } }

    /// The engaged region's client identifier (read without copying the region store: the C
    /// library's per-frame path).
    public var targetIdentifier: UInt32? { engaged?.region.identifier }

    /// When something will change without input (region exit delay, auto-hide): the
    /// compositor should step at this instant even if `isAnimating` was false.
    public var nextDeadline: Instant? {
        let a = targeting.exitDeadline
        var b = visibility.isShown(at: lastStep ?? .zero, settings: settings)
            ? visibility.hideDeadline(settings: settings) : nil
        // A grown pointer shrinks back when the shaking stopped, input or not.
        if let s = shake.shrinkDeadline(tuning: settings.tuning), s > (lastStep ?? .zero) { b = b.map { min($0, s) } ?? s }
        switch (a, b) {
        case let (x?, y?): return min(x, y)
        case let (x?, nil): return x
        case let (nil, y?): return y
        case (nil, nil): return nil
        }
    }

    /// `nextDeadline` and `regionAwaitingConfirmation` together, for a host that keeps the
    /// engine in a class's property and reads them on every frame: `mutating`, though it
    /// changes nothing, so the engine is passed by address. Calling a getter from another
    /// module passes the engine by value, a copy of all of it (4 KiB) each time.
    public mutating func deadlineAndConfirmation() -> (nextDeadline: Instant?, awaitingConfirmation: RegionID?) {
        (nextDeadline, regionAwaitingConfirmation)
    }

    // MARK: Targeting

    private mutating func retarget(at time: Instant, allowFlick: Bool) {
        guard !isLocked, !band.isEngaged else { return }
        _ = targeting.evaluate(device: devicePosition, at: time, store: regions,
                               velocity: velocity.velocity(at: time), magnetism: settings.magnetismEnabled,
                               allowFlick: allowFlick, tuning: settings.tuning)
        syncEngaged()
        updateTextLine()
    }

    /// Brings `engaged` in line with the target and the store, reporting entered/left.
    private mutating func syncEngaged() {
        let id = targeting.current
        let storeChanged = seenGeneration != regions.generation
        if engaged?.region.id == id && !storeChanged { return }
        seenGeneration = regions.generation
        var region: Region?
        if let id {
            region = regions[id]
            if region == nil { targeting.drop() }
        }
        if let e = engaged, e.region.id != id || region == nil {
            events.append(.left(e.region.id, identifier: e.region.identifier))
            engaged = nil
            textLine.reset()
        }
        guard let id, let region, let version = regions.version(of: id) else { return }
        if let e = engaged, e.version == version { return }
        let isNew = engaged == nil
        engaged = makeEngaged(region, version: version)
        if isNew { events.append(.entered(id, identifier: region.identifier)) }
    }

    private func makeEngaged(_ r: Region, version: UInt64) -> EngagedRegion {
        let effect = r.resolvedEffect(largeElementSide: settings.tuning.largeElementSide)
        var path: Path<PointerLocal>?
        if case .path(let p) = r.style.shape, settings.size != 1 { path = p.scaled(by: settings.size) }
        return EngagedRegion(region: r, version: version, effect: effect,
                             attracts: settings.magnetismEnabled && regions.attracts(r.id), path: path)
    }

    private mutating func updateTextLine() {
        guard let e = engaged, e.attracts else { return }
        let f = e.region.frame
        switch e.region.style.shape {
        case .verticalBeam(let pitch):
            textLine.update(region: e.region.id, coordinate: devicePosition.y, start: f.minY,
                            extent: f.height, pitch: pitch, selecting: isButtonPressed, tuning: settings.tuning)
        case .horizontalBeam(let pitch):
            textLine.update(region: e.region.id, coordinate: devicePosition.x, start: f.minX,
                            extent: f.width, pitch: pitch, selecting: isButtonPressed, tuning: settings.tuning)
        default:
            break
        }
    }

    /// `mutating` (as `clampToOutput` and `confined`), though it changes nothing: called on a
    /// `self` that is not inlined into, a non-mutating method gets the whole engine (4 KiB)
    /// copied onto the stack on every call; a mutating one gets its address.
    private mutating func currentTarget() -> PointerTarget {
        if let r = band.rect {
            return PointerTarget(logical: devicePosition, x: .fixed(r.midX), y: .fixed(r.midY),
                                 width: r.width, height: r.height, radius: min(2, r.width / 2, r.height / 2),
                                 snap: true, key: ShapeKey(region: nil, band: true))
        }
        guard let e = isLocked ? nil : formRegion else {
            return Magnetism.untargeted(untargetedStyle, path: untargetedPath, device: devicePosition, settings: settings)
        }
        return Magnetism.target(engaged: e, device: devicePosition, textLine: textLine,
                                leaving: targeting.isLeaving, latched: targeting.latchedAxes, settings: settings)
    }

    private mutating func updateLogical() {
        guard !isLocked else { return }
        logicalPosition = clampToOutput(currentTarget().logical)
    }

    /// Where confinement lets motion from the device position to `p` end: `p` itself when
    /// it is inside one of the rectangles, else the nearest whole pixel of the rectangle
    /// the pointer is in (clients count pixels, so the last one inside is max - 1).
    private mutating func confined(_ p: Point<Global>) -> Point<Global> {
        guard let rects = confinement, !rects.isEmpty else { return p }
        if rects.contains(where: { $0.contains(p) }) { return p }
        let home = rects.first { $0.contains(devicePosition) } ?? rects[0]
        return Point(x: min(max(p.x, home.minX), home.maxX - 1), y: min(max(p.y, home.minY), home.maxY - 1))
    }

    private mutating func clampToOutput(_ p: Point<Global>) -> Point<Global> {
        let q = Self.clamp(p, to: outputBounds)
        guard outputAreas.count > 1, !outputAreas.contains(where: { $0.contains(q) }) else { return q }
        // In a gap between outputs: onto the nearest one.
        return outputAreas.map { Self.clamp(q, to: $0) }.min { $0.distance(to: q) < $1.distance(to: q) } ?? q
    }

    private static func clamp(_ p: Point<Global>, to b: Rect<Global>) -> Point<Global> {
        let maxX = b.width > 0 ? b.maxX.nextDown : b.minX
        let maxY = b.height > 0 ? b.maxY.nextDown : b.minY
        return Point(x: min(max(p.x, b.minX), maxX), y: min(max(p.y, b.minY), maxY))
    }

    // MARK: Frames

    /// Advances every animation to `time` and describes the frame. Call on each output frame
    /// while `isAnimating`, after input, and at `nextDeadline`.
    public mutating func step(to time: Instant) -> PointerPresentation {
        var dt = 0.0
        if let last = lastStep { dt = min(max(time.since(last), 0), 10) }
        if lastStep.map({ time > $0 }) ?? true { lastStep = time }
        retarget(at: time, allowFlick: false)
        springs.prepare(dt: dt)
        let k = springs.now

        visibility.alpha.target = visibility.isShown(at: time, settings: settings) ? 1 : 0
        let target = currentTarget()
        if !isLocked { logicalPosition = clampToOutput(target.logical) }
        let active = (band.rect == nil && !isLocked) ? formRegion : nil
        morph.retarget(target, device: devicePosition, pressed: isButtonPressed || isHolding,
                       pressedScale: settings.tuning.pressedScale, reduceMotion: settings.reduceMotion)
        effects.retarget(engaged: active, device: devicePosition, pressed: isButtonPressed, settings: settings)
        let untargeted = band.rect == nil && !isLocked ? untargetedStyle.accessories : .empty
        accessories.retarget(active?.region.style.accessories ?? untargeted, heading: heading,
                             reduceMotion: settings.reduceMotion)
        annotation.retarget(active?.region.annotation)
        let grown = settings.shakeToFind && !isButtonPressed && !isLocked && band.rect == nil && engaged == nil
            && shake.isGrown(at: time, tuning: settings.tuning)
        shake.growth.target = grown ? settings.shakeGrowth : 1

        morph.advance(k, device: deviceKind)
        effects.advance(k)
        accessories.advance(k)
        annotation.advance(k)
        shake.growth.advance(k.shake)
        visibility.alpha.advance(k.visibility)
        return present(at: time, isPlatter: target.isPlatter, tool: target.tool)
    }

    private mutating func present(at time: Instant, isPlatter: Bool, tool: DrawingTool?) -> PointerPresentation {
        let t = settings.tuning
        let shown = visibility.alpha.value.clamped(0, 1)
        let fade = morph.fade.value.clamped(0, 1)
        let shape = morph.shape(device: devicePosition)
        let scale = max(0, morph.scale.value) * shake.growth.value
        var color = settings.color
        if settings.increaseContrast {
            color = PointerColor(red: color.red * 0.6, green: color.green * 0.6, blue: color.blue * 0.6, alpha: 1)
        }
        // Over a drawing region the pointer is the tool's preview: its ink, ringed so it shows on any page.
        if let tool { color = tool.color }
        let border = tool.map { $0.ring } ?? (settings.showsBorder || settings.increaseContrast ? settings.border : nil)
        // While a tablet tool touches the screen the pen draws and the pointer hides.
        let penDown: Double = if case .touching = stylus { 0 } else { 1 }
        let pointer = PointerGeometry(
            shape: shape, scale: scale, alpha: morph.alpha.value.clamped(0, 1) * fade * shown * penDown, color: color,
            border: border,
            customPath: morph.path, pathAlpha: morph.pathAlpha.value.clamped(0, 1) * fade * shown * penDown,
            drawsBeneathContent: morph.beneathContent,
            arrowAlpha: morph.arrowAlpha.value.clamped(0, 1) * fade * shown * penDown, arrowTip: devicePosition,
            arrowSize: settings.size)
        var bounds = pointer.bounds

        var current = effects.current.map {
            ContentEffectAnimator.present($0, platter: isPlatter ? shape.scaled(by: scale) : nil, tuning: t)
        }
        // A pinch over a lifted element scales it with the fingers.
        if let s = pinchScale, current?.kind == .lift { current?.scale *= PointerPresentation.pinchFactor(s) }
        var hoverMark: HoverMark?
        if case .hovering(let at, let distance) = stylus, at.isFinite {
            // The tool of the drawing region under the pen (its frame, topmost), if any.
            let region = regions.hitTest(at, framesOnly: true).flatMap { regions[$0] }
            hoverMark = HoverMark(center: at, distance: distance, tool: region?.drawingTool)
        }
        if let m = hoverMark { bounds = bounds.union(m.bounds) }
        let exiting = effects.exiting.map { ContentEffectAnimator.present($0, platter: nil, tuning: t) }
        if let c = current { bounds = bounds.union(c.bounds) }
        if let x = exiting { bounds = bounds.union(x.bounds) }

        let list = accessories.present(around: shape, scale: scale, alpha: shown, settings: settings)
        for a in list { bounds = bounds.union(a.bounds) }
        let note = annotation.present(beside: pointer.bounds, output: outputBounds, alpha: shown, tuning: t)
        if let n = note { bounds = bounds.union(n.frame.outset(by: 1)) }
        let bandRect = band.rect
        if let b = bandRect { bounds = bounds.union(b.outset(by: 1)) }

        // One point of margin, then whole points: rounding in the unions can never leave a
        // sliver of the old or new pointer unrepainted.
        let damage = (previousBounds.map { bounds.union($0) } ?? bounds).outset(by: 1).integral
        previousBounds = bounds
        let animating = !morph.isSettled || !effects.isSettled || !accessories.isSettled
            || !annotation.presence.isSettled || !visibility.alpha.isSettled || !shake.growth.isSettled
        return PointerPresentation(
            time: time, logicalPosition: logicalPosition, devicePosition: devicePosition, pointer: pointer,
            targetRegion: band.rect == nil ? formRegion?.region.id : nil, contentEffect: current,
            exitingContentEffect: exiting, accessories: list, annotation: note, bandRect: bandRect,
            isVisible: visibility.isShown(at: time, settings: settings), isLocked: isLocked,
            isAnimating: animating, bounds: bounds, damage: damage, hoverMark: hoverMark)
    }
}
