/// One of the four accessory slots. Slot i of the old set morphs into slot i of the new one:
/// position and offset spring, a changed glyph cross-fades, extra slots appear or fade away.
struct AccessorySlot: Sendable {
    var shape: AccessoryShape?
    var previous: AccessoryShape?
    var morph = AnimatedValue(1)
    var presence = AnimatedValue(0)
    var angle = AnimatedValue(0, tolerance: 0.0005)
    var offset = AnimatedValue(0)
    var rotatesWithMotion = false
    var upright = false
    var baseAngle = 0.0

    mutating func advance(_ k: SpringKit.Transitions) {
        // An empty slot at rest (the usual case: no accessory shows) has nothing to advance
        // or clear, and four of them are stepped every frame.
        if shape == nil, previous == nil, isSettled { return }
        morph.advance(k.accessory)
        presence.advance(k.accessory)
        angle.advance(k.accessory)
        offset.advance(k.accessory)
        if morph.isSettled { previous = nil }
        if presence.isSettled && presence.value == 0 { shape = nil }
    }

    var isSettled: Bool { morph.isSettled && presence.isSettled && angle.isSettled && offset.isSettled }
}

/// Accessories of the current style, with their own spring (0.3 s, no overshoot).
struct AccessoryAnimator: Sendable {
    private var s0 = AccessorySlot(), s1 = AccessorySlot(), s2 = AccessorySlot(), s3 = AccessorySlot()
    private var applied = AccessorySet.empty

    private mutating func withSlot(_ i: Int, _ body: (inout AccessorySlot) -> Void) {
        switch i {
        case 0: body(&s0)
        case 1: body(&s1)
        case 2: body(&s2)
        default: body(&s3)
        }
    }

    private func slot(_ i: Int) -> AccessorySlot {
        switch i {
        case 0: return s0
        case 1: return s1
        case 2: return s2
        default: return s3
        }
    }

    /// `heading`: direction of travel, radians clockwise from up, for rotating accessories.
    mutating func retarget(_ set: AccessorySet, heading: Double, reduceMotion: Bool) {
        let changed = set != applied
        if changed { applied = set }
        for i in 0..<AccessorySet.maximumCount {
            withSlot(i) { s in
                if i < set.count {
                    let a = set[i]
                    if changed {
                        if s.shape == nil {
                            s.shape = a.shape
                            s.previous = nil
                            s.morph.snap(to: 1)
                            s.angle.snap(to: a.position.angle)
                            s.offset.snap(to: a.position.offset)
                        } else if s.shape != a.shape {
                            s.previous = reduceMotion ? nil : s.shape
                            s.shape = a.shape
                            s.morph.snap(to: reduceMotion ? 1 : 0)
                            s.morph.target = 1
                        }
                        s.presence.target = 1
                        s.offset.target = a.position.offset
                        s.rotatesWithMotion = a.rotatesWithMotion
                        s.upright = a.upright
                        s.baseAngle = a.position.angle
                    }
                    // Aim for the equivalent angle nearest the current one (no full spins).
                    let goal = s.baseAngle + (s.rotatesWithMotion ? heading : 0)
                    let turns = ((s.angle.value - goal) / (2 * Double.pi)).rounded()
                    s.angle.target = goal + turns * 2 * Double.pi
                } else {
                    s.presence.target = 0
                }
            }
        }
    }

    mutating func advance(_ k: SpringKit.Transitions) {
        s0.advance(k); s1.advance(k); s2.advance(k); s3.advance(k)
    }

    var isSettled: Bool { s0.isSettled && s1.isSettled && s2.isSettled && s3.isSettled }

    /// Places the visible accessories around `pointer` (their distance follows the pointer's
    /// outline along each direction, so they hug a beam as well as a platter).
    func present(around pointer: RoundedRect<Global>, scale: Double, alpha: Double,
                 settings: PointerSettings) -> AccessoryList {
        var list = AccessoryList()
        let size = settings.tuning.accessorySize * settings.size
        for i in 0..<AccessorySet.maximumCount {
            let s = slot(i)
            guard let shape = s.shape else { continue }
            let a = s.angle.value
            let ux = Math.sin(a), uy = -Math.cos(a)
            let reach = Self.support(pointer, ux, uy) * scale + s.offset.value
                + settings.tuning.accessoryGap + size / 2
            let c = pointer.center
            list.append(AccessoryPresentation(
                shape: shape, previousShape: s.previous, morphProgress: s.morph.value,
                center: Point(x: c.x + ux * reach, y: c.y + uy * reach), rotation: s.upright ? 0 : a, size: size,
                scale: max(0, s.presence.value), alpha: max(0, min(1, s.presence.value)) * alpha))
        }
        return list
    }

    /// Distance from the centre to the outline along (ux, uy): the inner rectangle's support
    /// plus the corner radius (exact for circles and sharp rectangles, close in between).
    static func support(_ r: RoundedRect<Global>, _ ux: Double, _ uy: Double) -> Double {
        let a = r.rect.width / 2 - r.cornerRadius, b = r.rect.height / 2 - r.cornerRadius
        let sx = abs(ux) < 1e-9 ? Double.infinity : a / abs(ux)
        let sy = abs(uy) < 1e-9 ? Double.infinity : b / abs(uy)
        return max(0, min(sx, sy)) + r.cornerRadius
    }
}
