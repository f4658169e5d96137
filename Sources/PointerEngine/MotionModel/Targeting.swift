/// Decides which region the pointer is engaged with. Beyond a plain hit test it keeps:
/// - the region exit delay (0.2 s): leaving a hit region does not drop the target at once, so
///   a gap between neighbouring bar buttons never shows the circle;
/// - flick captures: a region chosen by flick prediction stays engaged while the device rests
///   near it or keeps approaching;
/// - latching: after a click in a region with latching axes, it stays engaged while the button
///   is held, however far the device moves along those axes.
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
        if let f = flickRegion, f == current, let r = store[f] {
            let d = r.hitRect.distance(to: p)
            if d <= t.flickSearchRadius && d <= flickClosest + Self.flickReleaseSlack {
                flickClosest = min(flickClosest, d)
                exitDeadline = nil
                return
            }
            flickRegion = nil
        }
        if allowFlick && magnetism,
           let c = FlickPrediction.target(from: p, velocity: velocity, store: store, tuning: t) {
            engage(c.region)
            flickRegion = c.region
            flickClosest = c.distance
            return
        }
        guard current != nil else { return }
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
