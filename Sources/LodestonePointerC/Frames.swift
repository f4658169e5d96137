// liblodestone-pointer: stepping, the presentation, its annotation, and events for clients.

import CLodestonePointer
import AdaptivePointerEngine

/// The C presentation of one frame.
/// (`targetIdentifier` rather than the region store: reading the store out of the engine
/// copies it, which cost more than the rest of the conversion.)
func cPresentation(_ p: PointerPresentation, targetIdentifier: UInt32, tuning: PointerTuning) -> lodestone_pointer_presentation {
    let report = PointerShapeReport(p, clientCursor: false, tuning: tuning)
    var c = lodestone_pointer_presentation()
    c.size = UInt32(MemoryLayout<lodestone_pointer_presentation>.size)
    c.shape_kind = report.kind.rawValue
    c.time = p.time.seconds
    c.logical_x = p.logicalPosition.x; c.logical_y = p.logicalPosition.y
    c.device_x = p.devicePosition.x; c.device_y = p.devicePosition.y
    c.x = report.rect.minX; c.y = report.rect.minY
    c.width = report.rect.width; c.height = report.rect.height
    c.corner_radius = report.cornerRadius
    c.alpha = report.alpha
    if let e = p.contentEffect {
        switch e.kind {
        case .none: c.effect_kind = LODESTONE_POINTER_EFFECT_KIND_NONE.rawValue
        case .highlight: c.effect_kind = LODESTONE_POINTER_EFFECT_KIND_HIGHLIGHT.rawValue
        case .lift: c.effect_kind = LODESTONE_POINTER_EFFECT_KIND_LIFT.rawValue
        case .hover: c.effect_kind = LODESTONE_POINTER_EFFECT_KIND_HOVER.rawValue
        }
        c.effect_progress = e.progress
        c.effect_scale = e.scale
    } else {
        c.effect_scale = 1
    }
    if let id = p.targetRegion {
        c.targeted = true
        c.target_region = id.rawValue
        c.target_identifier = targetIdentifier
    }
    c.visible = p.isVisible
    c.animating = p.isAnimating
    c.accessory_count = UInt32(p.accessories.count)
    c.damage_x = p.damage.minX; c.damage_y = p.damage.minY
    c.damage_width = p.damage.width; c.damage_height = p.damage.height
    if let b = p.bandRect {
        c.band = true
        c.band_x = b.minX; c.band_y = b.minY; c.band_width = b.width; c.band_height = b.height
    }
    if let a = p.annotation {
        c.annotation = true
        c.annotation_alpha = a.alpha
    }
    let color = p.pointer.color
    c.pointer_color = DrawingTool(diameter: 1, color: color).argb
    return c
}

@_cdecl("lodestone_pointer_engine_step")
public func lodestone_pointer_engine_step(_ engine: OpaquePointer?, _ time: Double,
                                          _ out: UnsafeMutablePointer<lodestone_pointer_presentation>?) -> Bool {
    guard let h = EngineHandle.from(engine) else { return false }
    // The frame is converted from the local and only then moved into the handle: reading it
    // back from the handle's property would copy it (a measurable share of the call).
    let p = h.engine.step(to: Instant(seconds: time))
    if let out, out.pointee.size >= 4 {
        let size = out.pointee.size
        let identifier = p.targetRegion != nil ? h.engine.targetIdentifier ?? 0 : 0
        writeSized(cPresentation(p, targetIdentifier: identifier, tuning: h.engine.settings.tuning), to: out, size: size)
        out.pointee.size = size
    }
    let animating = p.isAnimating
    h.presentation = consume p
    h.updateAnnotation()
    return animating
}

@_cdecl("lodestone_pointer_engine_annotation")
public func lodestone_pointer_engine_annotation(_ engine: OpaquePointer?) -> UnsafePointer<CChar>? {
    EngineHandle.from(engine)?.annotationCString.map { UnsafePointer($0) }
}

// MARK: Events

@_cdecl("lodestone_pointer_engine_next_event")
public func lodestone_pointer_engine_next_event(_ engine: OpaquePointer?, _ out: UnsafeMutablePointer<lodestone_pointer_event>?) -> Bool {
    guard let h = EngineHandle.from(engine), let out, out.pointee.size >= 4 else { return false }
    if h.nextEvent == h.events.count {
        // All read: refill in place (the buffer keeps its capacity, so no allocation per frame).
        h.events.removeAll(keepingCapacity: true)
        h.nextEvent = 0
        h.engine.drainEvents { h.events.append($0) }
    }
    // Locked motion is for the host's relative-pointer path, which this API does not feed.
    while h.nextEvent < h.events.count, case .lockedMotion = h.events[h.nextEvent] { h.nextEvent += 1 }
    guard h.nextEvent < h.events.count else { return false }
    let event = h.events[h.nextEvent]
    h.nextEvent += 1
    var c = lodestone_pointer_event()
    c.size = UInt32(MemoryLayout<lodestone_pointer_event>.size)
    func fill(_ type: lodestone_pointer_event_type, _ id: RegionID, _ identifier: UInt32, _ rect: Rect<Global>? = nil) {
        c.type = type.rawValue
        c.region = id.rawValue
        c.identifier = identifier
        if let rect { c.x = rect.minX; c.y = rect.minY; c.width = rect.width; c.height = rect.height }
    }
    switch event {
    case .entered(let id, let identifier): fill(LODESTONE_POINTER_EVENT_ENTERED, id, identifier)
    case .left(let id, let identifier): fill(LODESTONE_POINTER_EVENT_LEFT, id, identifier)
    case .bandBegan(let id, let identifier, let rect): fill(LODESTONE_POINTER_EVENT_BAND_BEGAN, id, identifier, rect)
    case .bandChanged(let id, let identifier, let rect): fill(LODESTONE_POINTER_EVENT_BAND_CHANGED, id, identifier, rect)
    case .bandEnded(let id, let identifier, let rect): fill(LODESTONE_POINTER_EVENT_BAND_ENDED, id, identifier, rect)
    case .lockedMotion: return false  // skipped above
    }
    let size = out.pointee.size
    writeSized(c, to: out, size: size)
    out.pointee.size = size
    return true
}
