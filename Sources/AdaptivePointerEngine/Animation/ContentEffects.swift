/// The animated state of one element's content effect.
struct EffectTrack: Sendable {
    var region: RegionID
    var identifier: UInt32
    var kind: ResolvedEffect
    var frame: Rect<Global>
    var cornerRadius: Double
    var progress = AnimatedValue(0)
    var tx = AnimatedValue(0)
    var ty = AnimatedValue(0)
    /// The button held on the element (press feedback), with the press spring.
    var press = AnimatedValue(0)
    var specularCenter: Point<Global>
    var specularOpacity: Double

    init(_ e: EngagedRegion) {
        region = e.region.id
        identifier = e.region.identifier
        kind = e.effect
        frame = e.region.frame
        cornerRadius = e.region.cornerRadius
        specularCenter = frame.center
        specularOpacity = 0
    }

    mutating func advance(_ k: SpringKit.Transitions) {
        progress.advance(k.shape)
        tx.advance(k.shape)
        ty.advance(k.shape)
        press.advance(k.press)
    }

    var isSettled: Bool { progress.isSettled && tx.isSettled && ty.isSettled && press.isSettled }
}

/// Content effects of the targeted element and of the one just left (which winds down rather
/// than snapping back): highlight platter with slip, lift (scale +7.6, shadow, specular; a
/// little smaller while pressed), hover (scale +6, tint, shadow).
struct ContentEffectAnimator: Sendable {
    private(set) var current: EffectTrack?
    private(set) var exiting: EffectTrack?

    mutating func retarget(engaged: EngagedRegion?, device: Point<Global>, pressed: Bool, settings: PointerSettings) {
        let t = settings.tuning
        if current?.region != engaged?.region.id {
            if var old = current {
                old.progress.target = 0
                old.tx.target = 0
                old.ty.target = 0
                old.press.target = 0
                exiting = old
            }
            current = nil
            if let e = engaged, e.effect != .none { current = EffectTrack(e) }
        }
        guard var c = current, let e = engaged else { return }
        if e.effect == .none {
            current = nil
            return
        }
        c.kind = e.effect
        c.frame = e.region.frame
        c.cornerRadius = e.region.cornerRadius
        c.progress.target = 1
        c.press.target = pressed ? 1 : 0
        let offset = device - c.frame.center
        var slip = Vector<Global>.zero
        switch c.kind {
        case .highlight, .lift:
            if !settings.reduceMotion { slip = (offset * t.slipFactor).clamped(toLength: t.maximumSlip) }
        case .hover, .none:
            break
        }
        c.tx.target = slip.dx
        c.ty.target = slip.dy
        if case .lift = c.kind {
            c.specularCenter = c.frame.clamp(device)
            let half = max(c.frame.width, c.frame.height) / 2
            let nearness = 1 - min(1, offset.length / max(half, 1))
            c.specularOpacity = t.specularMinimumOpacity
                + (t.specularMaximumOpacity - t.specularMinimumOpacity) * nearness
        }
        current = c
    }

    mutating func advance(_ k: SpringKit.Transitions) {
        current?.advance(k)
        exiting?.advance(k)
        if let x = exiting, x.isSettled { exiting = nil }
    }

    var isSettled: Bool { (current?.isSettled ?? true) && exiting == nil }

    static func present(_ track: EffectTrack, platter: RoundedRect<Global>?, tuning t: PointerTuning) -> ContentEffect {
        let p = track.progress.value
        let side = max(track.frame.width, track.frame.height, 1)
        var effect = ContentEffect(region: track.region, identifier: track.identifier, kind: track.kind,
                                   progress: p, frame: track.frame, scale: 1,
                                   translation: Vector(dx: track.tx.value, dy: track.ty.value),
                                   shadow: nil, specular: nil, tint: nil, platter: nil,
                                   pressProgress: track.press.value.clamped(0, 1))
        effect.cornerRadius = min(track.cornerRadius, track.frame.width / 2, track.frame.height / 2)
        let shadow = ShadowEffect(opacity: t.shadowOpacity * p, radius: t.shadowRadius,
                                  offset: Vector(dx: 0, dy: t.shadowOffsetY * p))
        switch track.kind {
        case .highlight:
            effect.platter = platter
        case .lift:
            effect.scale = (1 + t.liftGrowth / side * p) * (1 - (1 - t.liftPressedScale) * effect.pressProgress)
            effect.shadow = shadow
            effect.specular = SpecularEffect(center: track.specularCenter + effect.translation,
                                             radius: side * 0.6, opacity: track.specularOpacity * p)
        case .hover(let tint, let hasShadow, let scales):
            if scales { effect.scale = 1 + t.hoverGrowth / side * p }
            if hasShadow { effect.shadow = shadow }
            if tint != .none { effect.tint = TintEffect(mode: tint, opacity: t.tintOpacity * p) }
        case .none:
            break
        }
        return effect
    }
}
