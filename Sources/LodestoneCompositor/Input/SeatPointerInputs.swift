import PointerAdaptation
import AdaptivePointerEngine

/// What changed in the pointer's world since the seat last pushed it (`Seat.pushPointerWorld`).
struct PointerWorldPending {
    /// The scene or accessibility changed: the placed regions are gathered again.
    var regions = false
    /// The focused client's cursor, the focus or the pointer mode changed: the app's cursor is read again.
    var cursor = false
    /// The constraints' rule (`PointerConstraints.rule`) the pointer last heard.
    var pushedConstraint = PointerConstraintRule(locked: false, confinement: nil)
    /// What the pointer last heard, so an unchanged world is not pushed again.
    var pushedRegions: [RegionID: PushedRegion] = [:]
    var pushedCursor = (style: AdaptivePointerForm.circle, drawn: true)
}

/// What the pointer knows of a placed region: its geometry and what its events and effect
/// reach (a new preview or protocol object is pushed even when the geometry stays).
struct PushedRegion: Equatable {
    var region: Region
    var placement: SurfacePlacement
    var identifier: UInt32
    var object: ObjectIdentifier?
    var preview: ObjectIdentifier?

    init(_ placed: SceneRegions.Placed) {
        region = placed.region
        placement = placed.placement
        identifier = placed.spec.identifier
        object = placed.spec.object.map(ObjectIdentifier.init)
        preview = placed.spec.preview.map(ObjectIdentifier.init)
    }
}

/// Which rule holds the pointer: a lock, a confinement to global rectangles, or neither.
struct PointerConstraintRule: Equatable {
    var locked: Bool
    var confinement: [Rect<Global>]?
}

/// The seat's side of its pointer: every input reaches it through here, what changed in
/// its world is pushed before the next input or step, and what a step did is delivered to
/// clients after the frame. Nothing here is called by the pointer.
extension Seat {
    private var now: Instant { Instant(seconds: Double(clock.now) / 1000) }

    /// Input for the pointer from the seat or the owners of its other inputs: gestures
    /// (pinch, hold), tablets (the stylus), idle inhibition, typing.
    func pointerInput(_ input: PointerInput) {
        position = pointer.handle(input, at: now)
        clock.schedule()
    }

    /// Something the pointer moves over changed; it hears it before the next input or frame.
    /// `cursor`: the focus, a drag, the pointer mode or the client's cursor changed; the
    /// client's cursor composes by the seat's side of the decision as it is now (a capture
    /// between frames shows what the seat says shows).
    func pointerWorldChanged(regions: Bool = false, cursor: Bool = false) {
        if regions { pointerWorld.regions = true }
        if cursor {
            clientCursorChanged()
            self.cursor.seatChanged(appCursor)
        }
        clock.schedule()
    }

    /// The client's cursor changed on a commit of its surface (`ComposedClientCursor.onChange`,
    /// which reads its own state as it is): the pointer hears it before the next input or frame.
    func clientCursorChanged() {
        pointerWorld.cursor = true
        // Another surface may be under the pointer: its accessibility regions.
        pointerWorld.regions = true
        clock.schedule()
    }

    /// Pushes what changed in the pointer's world: the scene's placed regions and the
    /// accessibility elements, the app's cursor, the constraints' rule. Runs before each
    /// input and each step, when the seat is between motions, so what it reads (the
    /// focus, the client's cursor) is whole.
    func pushPointerWorld() {
        if constraints.rule != pointerWorld.pushedConstraint {
            let rule = constraints.rule
            pointerWorld.pushedConstraint = rule
            position = pointer.handle(.pointerLock(rule.locked), at: now)
            position = pointer.handle(.confine(to: rule.confinement), at: now)
        }
        if pointerWorld.regions {
            pointerWorld.regions = false
            var wanted = regions.placed()
            // Apps that declare none: the elements they publish for accessibility, told first
            // where the pointer is (the adaptation asks the seat nothing).
            let scene = self.scene, regions = self.regions, accessibility = self.accessibility!
            accessibility.pointer.window = pointerFocus.flatMap(scene.adaptedWindow(of:))
            accessibility.pointer.declaresRegions = pointerFocus.map(regions.treeHasRegions) ?? false
            accessibility.pointer.cursorIsText = cursor.name == .text
            let adapted = accessibility.placedRegions(allocate: regions.allocateRegionID) { point, window in
                guard let top = scene.surfaceAt(x: point.x, y: point.y), let surface = Scene.rootSurface(of: window) else { return false }
                return scene.rootSurface(top.surface) !== scene.rootSurface(surface)
            }
            for (id, a) in adapted where wanted[id] == nil {
                var spec = RegionSpec(id: id)
                spec.draft = a.draft
                wanted[id] = SceneRegions.Placed(region: a.region, spec: spec, placement: a.placement)
            }
            // Compared in place: a client committing every frame allocates nothing more here.
            let pushed = pointerWorld.pushedRegions
            let same = wanted.count == pushed.count && wanted.allSatisfy { pushed[$0.key] == PushedRegion($0.value) }
            if !same {
                pointerWorld.pushedRegions = wanted.mapValues(PushedRegion.init)
                pointer.update(.regions(wanted), at: now)
            }
        }
        if pointerWorld.cursor {
            pointerWorld.cursor = false
            let policy = appCursor
            // The cursor composes the client's or the theme's image by the same inputs.
            cursor.seatChanged(policy)
            let wanted = (style: policy.form, drawn: policy.source(themeHasImage: cursor.themeHasImage) == .adaptive)
            if wanted != pointerWorld.pushedCursor {
                pointerWorld.pushedCursor = wanted
                pointer.update(.appCursor(wanted.style, adaptivePointerDrawn: wanted.drawn), at: now)
            }
        }
    }

    /// The frame's one step of the pointer, after what changed was pushed.
    func stepPointer() -> PointerStep {
        pushPointerWorld()
        let step = pointer.step(at: now)
        pointerSnapshot = step.snapshot
        accessibility.shown(step.snapshot.presentation.targetRegion)
        // The client's image shows or goes where the adaptive pointer goes or shows.
        if step.adaptivePointerToggled { cursor.damage() }
        return step
    }

    /// What the step did, delivered after the frame (composing sends no input): region
    /// events, and the motion magnetism or a region appearing under a still pointer caused.
    func deliver(_ step: PointerStep) {
        for event in step.regionEvents {
            switch event {
            case .entered(let region): region.sendEntered()
            case .left(let region): region.sendLeft()
            case .band(let region, let state, let rect): region.sendBand(state, rect)
            }
        }
        let before = position.logical
        position = step.position
        guard position.logical != before, grab.routesToClients else { return }
        cursor.damage()
        deliverMotion(time: clock.now)
    }
}

extension Seat {
    /// New pointer settings (config.toml saved): the pointer takes them at once.
    func pointerSettingsChanged(_ settings: PointerSettings) {
        pointer.update(.settings(settings), at: now)
        clock.schedule()
    }

    /// The output's size or scale changed: the pointer's edges follow, a pointer left off
    /// the output comes back onto it, and the client's cursor is redrawn (at the new scale,
    /// a theme may or may not have its image).
    func outputChanged(bounds: Rect<Global>, areas: [Rect<Global>] = []) {
        pointer.update(.outputBounds(bounds, areas: areas), at: now)
        let p = position.logical
        let onAnOutput = areas.count < 2 || areas.contains { $0.contains(p) }
        if p.x >= bounds.maxX || p.y >= bounds.maxY || !onAnOutput { handle(.pointerMotion(.absolute(x: p.x, y: p.y)), at: clock.now) }
        pointerWorldChanged(cursor: true)
        cursor.damage()
    }
}
