/// Smoothed device velocity: each motion blends the new instantaneous velocity in with
/// weight (1 − smoothing), so one jittery sample cannot fake a flick.
struct VelocityTracker: Sendable {
    private(set) var velocity: Vector<Global> = .zero
    private var lastTime: Instant?

    /// A pause longer than this ends a gesture: the next motion starts from rest.
    static let gestureGap = 0.1

    mutating func add(_ delta: Vector<Global>, at time: Instant, smoothing: Double) {
        defer { lastTime = time }
        guard let last = lastTime else { return }
        let elapsed = time.since(last)
        // The first motion after a rest starts from rest: its distance over the pause is no
        // speed. (Blended in, a tablet's jump back across a head within a second read as a
        // flick, and the capture held an element the pointer never reached.)
        guard elapsed <= Self.gestureGap else {
            velocity = .zero
            return
        }
        let instant = delta * (1 / max(elapsed, 0.001))
        guard instant.isFinite else { return }
        velocity = velocity * smoothing + instant * (1 - smoothing)
    }

    /// The velocity, or zero when the device has rested since its last motion.
    func velocity(at time: Instant) -> Vector<Global> {
        guard let last = lastTime, time.since(last) <= Self.gestureGap else { return .zero }
        return velocity
    }
}

/// Flick prediction: above the speed threshold, project the smoothed trajectory to where the
/// flick would land (UIKit's deceleration projection) and pick the most likely target — an
/// attracting region ahead, its centre in the cone around the direction of travel (or its hit
/// region on the path), within the search radius past the landing point, nearest that point —
/// so magnetism can pull the pointer onto it before the device gets there.
enum FlickPrediction {
    struct Candidate {
        var region: RegionID
        var distance: Double
    }

    /// How far a flick at `speed` (points per second) travels before it stops.
    static func projectedDistance(speed: Double, tuning t: PointerTuning) -> Double {
        let rate = t.flickDecelerationRate.clamped(0, 0.9999)
        return speed / 1000 * rate / (1 - rate)
    }

    static func target(from p: Point<Global>, velocity v: Vector<Global>, store: RegionStore,
                       tuning t: PointerTuning) -> Candidate? {
        let speed = v.length
        guard speed > t.flickSpeedThreshold, speed.isFinite else { return nil }
        let dir = v * (1 / speed)
        let radius = t.flickSearchRadius
        let travel = projectedDistance(speed: speed, tuning: t)
        let landing = p + dir * travel
        guard landing.isFinite else { return nil }
        let cosHalfCone = Math.cos(t.flickConeAngle / 2 * Double.pi / 180)
        var best: Candidate?
        var bestScore = Double.infinity
        store.forEachAttracting(in: Rect(corner: p, landing).outset(by: radius)) { e in
            let d = e.hit.distance(to: p)
            guard d > 0, d <= travel + radius else { return }
            let toCenter = e.frame.center - p
            let l = toCenter.length
            guard l > 0 else { return }
            let cosAngle = (toCenter.dx * dir.dx + toCenter.dy * dir.dy) / l
            guard cosAngle >= cosHalfCone || (cosAngle > 0 && ray(from: p, dir, hits: e.hit)) else { return }
            // Prefer what lies straight ahead, then what is nearest where the flick lands.
            let score = (1 - cosAngle) * 1000 + e.hit.distance(to: landing)
            if score < bestScore || (score == bestScore && e.id < best!.region) {
                bestScore = score
                best = Candidate(region: e.id, distance: d)
            }
        }
        return best
    }

    /// Slab test: does the ray from `p` along `d` meet `r`?
    static func ray(from p: Point<Global>, _ d: Vector<Global>, hits r: Rect<Global>) -> Bool {
        var t0 = 0.0, t1 = Double.infinity
        return slab(p.x, d.dx, r.minX, r.maxX, &t0, &t1) && slab(p.y, d.dy, r.minY, r.maxY, &t0, &t1)
    }

    private static func slab(_ o: Double, _ d: Double, _ lo: Double, _ hi: Double,
                             _ t0: inout Double, _ t1: inout Double) -> Bool {
        if abs(d) < 1e-12 { return o >= lo && o <= hi }
        var a = (lo - o) / d, b = (hi - o) / d
        if a > b { swap(&a, &b) }
        t0 = max(t0, a)
        t1 = min(t1, b)
        return t0 <= t1
    }
}
