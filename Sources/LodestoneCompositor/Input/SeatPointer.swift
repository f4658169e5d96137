import PointerAdaptation
import LodestoneSystem
import AdaptivePointerEngine
import Rendering

/// What the seat asks of its pointer (`Seat.pointer`): input and changes of the pointer's
/// world go in, positions and steps come out as values. A protocol so a test can stand a
/// recorder in front of it (`SeatPointerRecordingTests`); `SeatPointer` is the one
/// implementation.
protocol PointerOwner: AnyObject {
    /// Device input (motion, buttons, locks, confinement, device kind, stylus, gestures,
    /// typing, idle inhibition, leaving the outputs): where it leaves the pointer.
    func handle(_ input: PointerInput, at now: Instant) -> PointerPosition
    /// The pointer's world changed: regions, the app's cursor, the output, the settings.
    func update(_ change: PointerWorldChange, at now: Instant)
    /// One frame's step (or nothing, when nothing changed or moves): what happened.
    func step(at now: Instant) -> PointerStep
}

/// Where the pointer is, as the engine left it after an input or a step.
struct PointerPosition: Equatable {
    /// The device itself, before magnetism: grabs follow it.
    var device: Point<Global>
    /// Where clients see the pointer: after magnetism, locks and confinement.
    var logical: Point<Global>
    /// A client's lock or confinement holds the device.
    var isConstrained: Bool
    /// The region the pointer is on that waits for its owner to confirm it (`Region.awaitsConfirmation`).
    var awaitingConfirmation: RegionID? = nil
}

/// A change of what the pointer moves over, pushed by its owner (the seat, from the scene's
/// change notification, the client's cursor and accessibility; the compositor, for the
/// output and the settings).
enum PointerWorldChange {
    /// The adaptive_pointer_v1 regions and accessibility elements placed in global space.
    case regions([RegionID: SceneRegions.Placed])
    /// The style for the focused app's cursor name, and whether the compositor draws the
    /// adaptive pointer at all (false while a client's cursor image shows).
    case appCursor(AdaptivePointerForm, adaptivePointerDrawn: Bool)
    case outputBounds(Rect<Global>, areas: [Rect<Global>])
    case settings(PointerSettings)
}

/// The pointer as the last step left it: what a frame draws and what the test protocol reports.
/// A class of constants, not a struct: the step, the seat, the frame and the overlay all hold
/// the same one, and the presentation is read in place (a `let` of a final class needs no
/// copy), where a struct's presentation, about a kilobyte with a dozen references, was copied
/// and retained at each of them on every frame.
final class PointerSnapshot {
    let presentation: PointerPresentation
    /// The compositor draws the adaptive pointer (no client cursor image shows instead).
    let adaptivePointerDrawn: Bool
    /// The preview surface a content effect acts on: the effect draws it, not the scene.
    private(set) weak var preview: WlSurface?
    /// The client's identifier of the region the pointer targets.
    let targetIdentifier: UInt32?
    let tuning: PointerTuning

    init(presentation: PointerPresentation, adaptivePointerDrawn: Bool, preview: WlSurface? = nil, targetIdentifier: UInt32?, tuning: PointerTuning) {
        self.presentation = presentation
        self.adaptivePointerDrawn = adaptivePointerDrawn
        self.preview = preview
        self.targetIdentifier = targetIdentifier
        self.tuning = tuning
    }
}

/// What one step did, for the seat to deliver and the frame to draw.
struct PointerStep {
    var snapshot: PointerSnapshot
    /// The engine stepped (false: nothing had changed, the snapshot is the last one).
    var stepped: Bool
    /// To repaint for the pointer (its old and new bounds), while it is drawn.
    var damage: Rect<Global>?
    /// The adaptive pointer appeared or gave way to a client's cursor image.
    var adaptivePointerToggled: Bool
    /// Where the pointer is after the step (magnetism may have moved it).
    var position: PointerPosition
    /// Region events for the clients' adaptive_pointer_region_v1 objects.
    var regionEvents: [RegionEvent]
    /// Something animates (or a busy cursor turns): another frame is wanted.
    var keepsAnimating: Bool
    /// A region exit delay or auto-hide falls due then, without input.
    var nextDeadline: Instant?

    enum RegionEvent {
        case entered(AdaptivePointerRegion), left(AdaptivePointerRegion)
        /// state: 0 began, 1 changed, 2 ended; the rectangle in the region's surface coordinates.
        case band(AdaptivePointerRegion, state: UInt32, Rect<SurfaceLocal>)
    }
}

/// The seat's pointer: the `PointerEngine`'s only writer. It holds no reference to the seat
/// or the compositor; everything it knows is pushed to it (`handle`, `update`), and what
/// happened goes back as values (`PointerPosition`, `PointerStep`).
final class SeatPointer: PointerOwner {
    // The stored properties below skip the dynamic exclusivity check (~60 instructions each,
    // a dozen a frame, issue 29): only this class's own methods touch them, on the event loop,
    // and none of those methods reaches back into this object while it changes one; the one
    // closure run inside an engine call (`drainEvents`'s) reads `installed`, not the engine.
    @exclusivity(unchecked) private(set) var engine: PointerEngine
    /// The regions the engine knows, as the scene placed them (see `SceneRegions`).
    @exclusivity(unchecked) private var installed: [RegionID: SceneRegions.Placed] = [:]
    @exclusivity(unchecked) private var needsStep = true
    /// The app's cursor as the engine last heard it (`PointerInput.untargetedStyle`).
    @exclusivity(unchecked) private var appCursor = AdaptivePointerForm.circle
    @exclusivity(unchecked) private var adaptivePointerDrawn = true
    /// The frame the last step drew: whether the adaptive pointer was in it.
    @exclusivity(unchecked) private var drewAdaptivePointer = true
    @exclusivity(unchecked) private var lastStepAt: Instant?
    @exclusivity(unchecked) private(set) var snapshot: PointerSnapshot
    private var log: (String) -> Void

    /// `log` says why a region was refused (a closure: the pointer does not know the compositor).
    /// The pointer starts at `start`, else in the middle of `outputBounds`.
    init(outputBounds: Rect<Global>, start: Point<Global>? = nil, settings: PointerSettings, at now: Instant, log: @escaping (String) -> Void) {
        engine = PointerEngine(outputBounds: outputBounds, settings: settings, initialPosition: start)
        snapshot = PointerSnapshot(presentation: engine.step(to: now), adaptivePointerDrawn: true, targetIdentifier: nil, tuning: settings.tuning)
        self.log = log
    }

    var position: PointerPosition { position(awaitingConfirmation: engine.deadlineAndConfirmation().awaitingConfirmation) }

    private func position(awaitingConfirmation: RegionID?) -> PointerPosition {
        // From the stored properties and a mutating read, not the engine's computed properties:
        // calling a computed property of a struct kept in a class copies the whole engine first
        // (4 KiB and a retain of each of its buffers, on every motion event).
        PointerPosition(device: engine.devicePosition, logical: engine.logicalPosition,
                        isConstrained: engine.isLocked || engine.confinement != nil, awaitingConfirmation: awaitingConfirmation)
    }

    func handle(_ input: PointerInput, at now: Instant) -> PointerPosition {
        // What does not change needs no step (a constraint or device kind said again).
        switch input {
        case .pointerLock(let on) where on == engine.isLocked: return position
        case .confine(let rects) where rects == engine.confinement: return position
        case .device(let kind) where kind == engine.deviceKind: return position
        case .stylus(let s) where s == engine.stylus: return position
        default: break
        }
        engine.handle(input, at: now)
        needsStep = true
        return position
    }

    func update(_ change: PointerWorldChange, at now: Instant) {
        switch change {
        case .regions(var wanted):
            // Only changed regions are touched, so a client committing every frame does not
            // re-enter its region.
            for id in installed.keys where wanted[id] == nil { _ = engine.regions.remove(id: id) }
            for (id, entry) in wanted where installed[id]?.region != entry.region {
                do { try engine.regions.upsert(entry.region) } catch {
                    log("region \(id) refused by the pointer engine: \(error)")
                    wanted[id] = nil
                }
            }
            installed = wanted
        case .appCursor(let cursor, let drawn):
            adaptivePointerDrawn = drawn
            guard cursor != appCursor else { break }
            appCursor = cursor
            engine.handle(.untargetedStyle(spinning(at: now).style), at: now)
        case .outputBounds(let bounds, let areas):
            guard bounds != engine.outputBounds || areas != engine.outputAreas else { return }
            engine.setOutputBounds(bounds, areas: areas)
        case .settings(let settings):
            guard settings != engine.settings else { return }
            engine.updateSettings(settings)
        }
        needsStep = true
    }

    /// The app's cursor with its busy accessory where the clock has turned it.
    private func spinning(at now: Instant) -> AdaptivePointerForm {
        guard appCursor.spins else { return appCursor }
        let turns = now.seconds / AdaptivePointerForm.spinPeriod
        return appCursor.spinning(at: turns - turns.rounded(.down))
    }

    func step(at now: Instant) -> PointerStep {
        // A second frame within the same instant has no time to advance, only input to take in.
        let advanced = now != lastStepAt
        let busy = appCursor.spins && adaptivePointerDrawn
        let deadline = engine.deadlineAndConfirmation().nextDeadline
        let deadlinePassed = deadline.map { $0 <= now } ?? false
        guard needsStep || (advanced && (snapshot.presentation.isAnimating || deadlinePassed || busy)) else {
            return PointerStep(snapshot: snapshot, stepped: false, damage: nil, adaptivePointerToggled: false, position: position,
                               regionEvents: [], keepsAnimating: false, nextDeadline: deadline)
        }
        lastStepAt = now
        // A busy accessory turns with the clock, so frames keep coming while it shows.
        if appCursor.spins { engine.handle(.untargetedStyle(spinning(at: now).style), at: now) }
        let presentation = engine.step(to: now)
        needsStep = false
        let drawn = adaptivePointerDrawn
        let toggled = drawn != drewAdaptivePointer
        let redraws = drawn || drewAdaptivePointer
        drewAdaptivePointer = drawn
        let effect = presentation.contentEffect?.region, target = presentation.targetRegion
        let preview = effect.flatMap { installed[$0]?.spec.preview }.flatMap { $0.hasContent ? $0 : nil }
        let stepped = PointerSnapshot(presentation: presentation, adaptivePointerDrawn: drawn, preview: preview,
                                      targetIdentifier: target.flatMap { installed[$0]?.spec.identifier }, tuning: engine.settings.tuning)
        snapshot = stepped
        let after = engine.deadlineAndConfirmation()
        // Read in place from the snapshot from here on: `presentation` was moved into it.
        return PointerStep(snapshot: stepped, stepped: true, damage: redraws ? stepped.presentation.damage : nil,
                           adaptivePointerToggled: toggled, position: position(awaitingConfirmation: after.awaitingConfirmation),
                           regionEvents: regionEvents(), keepsAnimating: stepped.presentation.isAnimating || busy,
                           nextDeadline: after.nextDeadline)
    }

    private func regionEvents() -> [PointerStep.RegionEvent] {
        var events: [PointerStep.RegionEvent] = []
        engine.drainEvents { event in
            switch event {
            case .entered(let id, _): if let o = installed[id]?.spec.object { events.append(.entered(o)) }
            case .left(let id, _): if let o = installed[id]?.spec.object { events.append(.left(o)) }
            case .bandBegan(let id, _, let r): band(id, 0, r, into: &events)
            case .bandChanged(let id, _, let r): band(id, 1, r, into: &events)
            case .bandEnded(let id, _, let r): band(id, 2, r, into: &events)
            // Relative listeners hear the device's own deltas from the seat; this stream is
            // for hosts that only have absolute positions.
            case .lockedMotion: break
            }
        }
        return events
    }

    private func band(_ id: RegionID, _ state: UInt32, _ r: Rect<Global>, into events: inout [PointerStep.RegionEvent]) {
        guard let entry = installed[id], let object = entry.spec.object else { return }
        events.append(.band(object, state: state, entry.placement.toLocal(r)))
    }
}
