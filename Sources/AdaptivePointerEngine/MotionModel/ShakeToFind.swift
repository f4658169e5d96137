/// Shake to find: shaking the pointer grows it so the eye finds it, and it shrinks back when the
/// shaking stops (KDE Plasma 6 and COSMIC do the same).
///
/// A shake is told from a fast straight stroke by how much path the hand covers inside a small
/// box: over the last `shakeWindow` seconds, the device path's length against the diagonal of
/// the box that holds it (KWin's measure). A stroke across the screen has a ratio near 1; a
/// shake back and forth, 4 and more. A minimum path keeps a trembling hand from counting.
struct ShakeToFind: Sendable {
    /// The recent device positions, oldest first after `start`: a fixed ring, so motion
    /// never allocates.
    private var samples: [(point: Point<Global>, time: Instant)]
    private var start = 0
    private var count = 0
    /// When the samples last measured a shake.
    private var lastShake: Instant?
    /// The growth: 1 at rest, `shakeMagnification` while shaking.
    var growth = AnimatedValue(1)

    static let capacity = 128

    init() {
        samples = Array(repeating: (Point(x: 0, y: 0), .zero), count: Self.capacity)
    }

    /// Adds a device position, and measures the window that ends with it.
    mutating func move(to p: Point<Global>, at time: Instant, tuning t: PointerTuning) {
        if count == Self.capacity { start = (start + 1) % Self.capacity; count -= 1 }
        samples[(start + count) % Self.capacity] = (p, time)
        count += 1
        while count > 1, time.since(samples[start].time) > t.shakeWindow {
            start = (start + 1) % Self.capacity
            count -= 1
        }
        if isShake(tuning: t) { lastShake = time }
    }

    /// A grab, a lock or a band took the pointer: what was measured no longer counts.
    mutating func forget() {
        count = 0
        lastShake = nil
    }

    private func isShake(tuning t: PointerTuning) -> Bool {
        guard count >= 4 else { return false }
        var length = 0.0
        var previous = samples[start].point
        var minX = previous.x, maxX = previous.x, minY = previous.y, maxY = previous.y
        for i in 1..<count {
            let p = samples[(start + i) % Self.capacity].point
            length += (p - previous).length
            previous = p
            minX = min(minX, p.x); maxX = max(maxX, p.x)
            minY = min(minY, p.y); maxY = max(maxY, p.y)
        }
        let diagonal = ((maxX - minX) * (maxX - minX) + (maxY - minY) * (maxY - minY)).squareRoot()
        return length >= t.shakeMinimumPath && length > diagonal * t.shakeRatio
    }

    /// Whether the pointer should be grown at `time`: a shake was measured within the hold.
    func isGrown(at time: Instant, tuning t: PointerTuning) -> Bool {
        guard let s = lastShake else { return false }
        return time.since(s) < t.shakeHold
    }

    /// When the growth will start shrinking back without further input.
    func shrinkDeadline(tuning t: PointerTuning) -> Instant? {
        lastShake.map { $0.advanced(by: t.shakeHold) }
    }
}
