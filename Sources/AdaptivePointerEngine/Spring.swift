/// A damped spring with unit mass, described the way designers tune it: `response` (seconds,
/// roughly the period) and `dampingRatio` (1 = critically damped, < 1 overshoots).
/// stiffness = (2π/response)², damping = 4πζ/response.
public struct Spring: Hashable, Sendable {
    public var response: Double
    public var dampingRatio: Double

    public init(response: Double, dampingRatio: Double = 1) {
        self.response = max(response, 1e-4)
        self.dampingRatio = max(dampingRatio, 0)
    }

    public var stiffness: Double { let w = 2 * Double.pi / response; return w * w }
    public var damping: Double { 4 * Double.pi * dampingRatio / response }

    /// Pointer shape morph (circle ↔ beam ↔ platter).
    public static let shape = Spring(response: 0.175, dampingRatio: 0.9)
    /// Cross-fade and morph into a custom path.
    public static let customMorph = Spring(response: 0.24, dampingRatio: 1)
    /// Accessories appearing, disappearing and moving.
    public static let accessory = Spring(response: 0.3, dampingRatio: 1)
    /// The I-beam snapping to a text line.
    public static let text = Spring(response: 0.075, dampingRatio: 1)

    /// The same response without overshoot (reduce motion).
    public var withoutOvershoot: Spring { Spring(response: response, dampingRatio: max(dampingRatio, 1)) }

    /// The exact state transition over `dt` seconds. The solution is analytic, so the result
    /// does not depend on frame rate beyond rounding, and identical `dt`s give identical
    /// matrices (determinism). The engine computes one per spring kind per frame.
    public func transition(over dt: Double) -> SpringTransition {
        let t = max(dt, 0)
        let w0 = 2 * Double.pi / response
        let z = dampingRatio
        if abs(z - 1) < 1e-6 {
            let e = Math.exp(-w0 * t)
            return SpringTransition(xx: e * (1 + w0 * t), xv: e * t,
                                    vx: -e * w0 * w0 * t, vv: e * (1 - w0 * t))
        } else if z < 1 {
            let a = z * w0
            let wd = w0 * (1 - z * z).squareRoot()
            let e = Math.exp(-a * t), c = Math.cos(wd * t), s = Math.sin(wd * t)
            return SpringTransition(xx: e * (c + a / wd * s), xv: e * s / wd,
                                    vx: -e * w0 * w0 * s / wd, vv: e * (c - a / wd * s))
        } else {
            let root = w0 * (z * z - 1).squareRoot()
            let r1 = -z * w0 + root, r2 = -z * w0 - root
            let e1 = Math.exp(r1 * t), e2 = Math.exp(r2 * t), d = r1 - r2
            return SpringTransition(xx: (r1 * e2 - r2 * e1) / d, xv: (e1 - e2) / d,
                                    vx: r1 * r2 * (e2 - e1) / d, vv: (r1 * e1 - r2 * e2) / d)
        }
    }
}

/// The 2×2 matrix taking (displacement, velocity) from one frame to the next.
public struct SpringTransition: Hashable, Sendable {
    public var xx, xv, vx, vv: Double

    /// No time passed: nothing moves.
    public static let identity = SpringTransition(xx: 1, xv: 0, vx: 0, vv: 1)
}

/// One animated number: where it is, how fast it moves, and where it is going.
public struct AnimatedValue: Hashable, Sendable {
    public var value: Double
    public var velocity: Double = 0
    public var target: Double
    /// Below this distance and speed/20 the value snaps to its target and stops animating.
    public var tolerance: Double

    public init(_ value: Double, tolerance: Double = 0.001) {
        self.value = value
        self.target = value
        self.tolerance = tolerance
    }

    public var isSettled: Bool { value == target && velocity == 0 }

    /// Jumps to `v` with no motion (reduce motion, band rectangles that must track exactly).
    public mutating func snap(to v: Double) {
        value = v
        target = v
        velocity = 0
    }

    public mutating func advance(_ m: SpringTransition) {
        if value == target && velocity == 0 { return }
        let x = value - target
        let nx = m.xx * x + m.xv * velocity
        let nv = m.vx * x + m.vv * velocity
        // A non-finite state (absurd dt) must never reach the renderer: settle instead.
        if abs(nx) < tolerance && abs(nv) < tolerance * 20 || !nx.isFinite || !nv.isFinite {
            value = target
            velocity = 0
        } else {
            value = target + nx
            velocity = nv
        }
    }
}
