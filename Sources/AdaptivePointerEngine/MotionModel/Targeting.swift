/// Decides which region the pointer is engaged with. Beyond a plain hit test it keeps:
/// - the region exit delay (0.2 s), only on the way to a neighbour in the same contiguous bar
///   (hit regions closer than `barGapTolerance`), so a gap between bar buttons never shows the
///   circle; leaving anywhere else lets go at once, and the delay holds only the shape, never
///   where clients see the pointer (`isLeaving`);
/// - flick captures: while the device moves fast, flick prediction re-picks the target from the
///   projected trajectory on every motion; once it slows, the last pick stays engaged while the
///   device rests or keeps approaching it;
/// - latching: after a click in a region with latching axes, it stays engaged while the button
///   is held, however far the device moves along those axes (and clients follow the device
///   along them: `latchedAxes`).
struct Targeting: Sendable {
    private(set) var current: RegionID?
    private(set) var exitDeadline: Instant?
    private var flickRegion: RegionID?
    private var flickClosest = 0.0
    private var latched: RegionID?
    private var latchAxes: Axes = []

    /// How far a flick capture may drift away before it lets go.
    static let flickReleaseSlack = 12.0

    mutating func latch(_ region: RegionID?, axes: Axes) {
        latched = axes.isEmpty ? nil : region
        latchAxes = axes
    }

    mutating func unlatch() { latched = nil }

    /// The axes a held click latched the current target on; empty when it is not latched.
    var latchedAxes: Axes { latched != nil && latched == current ? latchAxes : [] }

    /// The device has left the target's hit region and the exit delay is running: the shape
    /// stays, but clients get the device position, so a click lands on what is under it.
    var isLeaving: Bool { exitDeadline != nil }

    /// A click during the exit delay: the target goes now, so what the click hits and what the
    /// pointer shows agree.
    mutating func finishLeaving() {
        guard exitDeadline != nil else { return }
        current = nil
        exitDeadline = nil
        flickRegion = nil
    }

    /// Forgets the target without an exit delay (region removed, pointer locked).
    mutating func drop() {
        current = nil
        exitDeadline = nil
        flickRegion = nil
        latched = nil
    }

    /// Re-evaluates the target for device position `p`. Returns whether it changed.
    mutating func evaluate(device p: Point<Global>, at time: Instant, store: RegionStore,
                           velocity: Vector<Global>, magnetism: Bool, allowFlick: Bool,
                           tuning: PointerTuning) -> Bool {
        let before = current
        resolve(p, time, store, velocity, magnetism, allowFlick, tuning)
        return current != before
    }

    private mutating func engage(_ id: RegionID) {
        if id != current { flickRegion = nil }
        current = id
        exitDeadline = nil
    }

    private mutating func resolve(_ p: Point<Global>, _ time: Instant, _ store: RegionStore,
                                  _ velocity: Vector<Global>, _ magnetism: Bool, _ allowFlick: Bool,
                                  _ t: PointerTuning) {
        if let l = latched, let r = store[l] {
            let h = r.hitRect
            let inX = latchAxes.contains(.horizontal) || (p.x >= h.minX && p.x < h.maxX)
            let inY = latchAxes.contains(.vertical) || (p.y >= h.minY && p.y < h.maxY)
            if inX && inY {
                engage(l)
                return
            }
        }
        // Without magnetism a region engages only once the device is on the element itself.
        if let hit = store.hitTest(p, framesOnly: !magnetism) {
            engage(hit)
            return
        }
        if allowFlick && magnetism,
           let c = FlickPrediction.target(from: p, velocity: velocity, store: store, tuning: t) {
            let same = flickRegion == c.region && current == c.region
            engage(c.region)
            flickRegion = c.region
            flickClosest = same ? min(flickClosest, c.distance) : c.distance
            return
        }
        if let f = flickRegion, f == current, let r = store[f] {
            // The projection may have picked it well before the device got close: hold it
            // while the device comes nearer or rests, not only within the search radius.
            let d = r.hitRect.distance(to: p)
            if d <= flickClosest + Self.flickReleaseSlack {
                flickClosest = min(flickClosest, d)
                exitDeadline = nil
                return
            }
            flickRegion = nil
        }
        guard let leaving = current else { return }
        // Outside every hit region. Only a gap toward a neighbour in the same bar waits for
        // the exit delay; anywhere else the region lets go at once.
        guard store.isBetweenBarNeighbours(leaving: leaving, at: p, heading: velocity,
                                           maxGap: t.barGapTolerance, framesOnly: !magnetism) else {
            current = nil
            exitDeadline = nil
            return
        }
        if let deadline = exitDeadline {
            if time >= deadline {
                current = nil
                exitDeadline = nil
            }
        } else {
            exitDeadline = time.advanced(by: t.regionExitDelay)
        }
    }
}
