import CLodestonePointer
import CPixman
import Glibc
import PointerEngine
import Rendering

// liblodestone-pointer: the C ABI of include/lodestone-pointer.h (Sources/CLodestonePointer),
// exported with @_cdecl over PointerEngine and PointerRenderer. The header is the contract and
// documents every call; this file only translates. Rules it keeps:
// - nothing Swift crosses the boundary: an engine is an opaque pointer to a retained
//   `EngineHandle`, everything else is a C scalar or a struct from the header;
// - structs are copied in and out by their caller-set `size` (`readSized`, `writeSized`), so a
//   host built against an older, shorter struct keeps working;
// - bad arguments are refused with a result, never a trap: a host's bug must not abort its
//   compositor.

/// What an engine handle points at: the engine, its renderer, and the last stepped frame.
private final class EngineHandle {
    var engine: PointerEngine
    var presentation: PointerPresentation
    /// Events drained from the engine and not yet read by the host, from `nextEvent` on.
    var events: [PointerEvent] = []
    var nextEvent = 0
    /// The last frame's annotation, and a C copy of it (strdup) that the host borrows; rebuilt
    /// only when the text changes, freed with the handle.
    var annotationText: String?
    var annotationCString: UnsafeMutablePointer<CChar>?
    /// Created on the first draw: hosts that draw themselves never pay for cairo.
    lazy var renderer = PointerRenderer()

    init(bounds: Rect<Global>) {
        engine = PointerEngine(outputBounds: bounds)
        presentation = engine.step(to: .zero)
    }

    deinit { free(annotationCString) }

    /// Keeps `annotationCString` in step with the last frame's text.
    func updateAnnotation() {
        let text = presentation.annotation?.text
        guard text != annotationText else { return }
        annotationText = text
        free(annotationCString)
        annotationCString = text.flatMap { $0.withCString { strdup($0) } }
    }

    /// The handle behind a C pointer; nil for NULL.
    static func from(_ pointer: OpaquePointer?) -> EngineHandle? {
        guard let pointer else { return nil }
        return Unmanaged<EngineHandle>.fromOpaque(UnsafeRawPointer(pointer)).takeUnretainedValue()
    }
}

/// A finite, non-empty rectangle, or nil.
private func validRect(_ x: Double, _ y: Double, _ width: Double, _ height: Double) -> Rect<Global>? {
    let r = Rect<Global>(x: x, y: y, width: width, height: height)
    return r.isFinite && !r.isEmpty ? r : nil
}

/// Copies a caller's struct that may be shorter than ours (an older header) over `defaults`.
private func readSized<T>(_ pointer: UnsafePointer<T>, size: UInt32, defaults: T) -> T {
    var value = defaults
    let count = min(Int(size), MemoryLayout<T>.size)
    withUnsafeMutableBytes(of: &value) { $0.copyMemory(from: UnsafeRawBufferPointer(start: pointer, count: count)) }
    return value
}

/// Writes `value` into a caller's struct of `size` bytes, no further.
private func writeSized<T>(_ value: T, to pointer: UnsafeMutablePointer<T>, size: UInt32) {
    var value = value
    let count = min(Int(size), MemoryLayout<T>.size)
    withUnsafeBytes(of: &value) { UnsafeMutableRawPointer(pointer).copyMemory(from: $0.baseAddress!, byteCount: count) }
}

// MARK: Version

@_cdecl("lodestone_pointer_version")
public func lodestone_pointer_version() -> UInt32 {
    UInt32(LODESTONE_POINTER_VERSION_MAJOR << 16 | LODESTONE_POINTER_VERSION_MINOR << 8 | LODESTONE_POINTER_VERSION_PATCH)
}

// MARK: Engine

@_cdecl("lodestone_pointer_engine_create")
public func lodestone_pointer_engine_create(_ x: Double, _ y: Double, _ width: Double, _ height: Double) -> OpaquePointer? {
    guard let bounds = validRect(x, y, width, height) else { return nil }
    return OpaquePointer(Unmanaged.passRetained(EngineHandle(bounds: bounds)).toOpaque())
}

@_cdecl("lodestone_pointer_engine_destroy")
public func lodestone_pointer_engine_destroy(_ engine: OpaquePointer?) {
    guard let engine else { return }
    Unmanaged<EngineHandle>.fromOpaque(UnsafeRawPointer(engine)).release()
}

@_cdecl("lodestone_pointer_engine_set_output_bounds")
public func lodestone_pointer_engine_set_output_bounds(_ engine: OpaquePointer?, _ x: Double, _ y: Double,
                                                       _ width: Double, _ height: Double) -> Bool {
    guard let h = EngineHandle.from(engine), let bounds = validRect(x, y, width, height) else { return false }
    h.engine.setOutputBounds(bounds)
    return true
}

// MARK: Settings

private func defaultSettings() -> lodestone_pointer_settings {
    let d = PointerSettings()
    var c = lodestone_pointer_settings()
    c.size = UInt32(MemoryLayout<lodestone_pointer_settings>.size)
    c.size_multiplier = d.sizeMultiplier
    c.red = d.color.red; c.green = d.color.green; c.blue = d.color.blue; c.alpha = d.color.alpha
    c.show_border = d.showsBorder
    c.increase_contrast = d.increaseContrast
    c.reduce_motion = d.reduceMotion
    c.magnetism = d.magnetismEnabled
    c.auto_hide = d.autoHide
    return c
}

@_cdecl("lodestone_pointer_settings_init")
public func lodestone_pointer_settings_init(_ settings: UnsafeMutablePointer<lodestone_pointer_settings>?, _ size: UInt32) {
    guard let settings, size >= 4 else { return }
    var c = defaultSettings()
    c.size = min(size, UInt32(MemoryLayout<lodestone_pointer_settings>.size))
    writeSized(c, to: settings, size: size)
}

@_cdecl("lodestone_pointer_engine_set_settings")
public func lodestone_pointer_engine_set_settings(_ engine: OpaquePointer?, _ settings: UnsafePointer<lodestone_pointer_settings>?) -> Bool {
    guard let h = EngineHandle.from(engine), let settings, settings.pointee.size >= 4 else { return false }
    let c = readSized(settings, size: settings.pointee.size, defaults: defaultSettings())
    let unit = [c.red, c.green, c.blue, c.alpha]
    guard c.size_multiplier.isFinite, unit.allSatisfy({ $0.isFinite && $0 >= 0 && $0 <= 1 }) else { return false }
    var s = h.engine.settings
    s.sizeMultiplier = c.size_multiplier
    s.color = PointerColor(red: c.red, green: c.green, blue: c.blue, alpha: c.alpha)
    s.showsBorder = c.show_border
    s.increaseContrast = c.increase_contrast
    s.reduceMotion = c.reduce_motion
    s.magnetismEnabled = c.magnetism
    s.autoHide = c.auto_hide
    h.engine.updateSettings(s)
    return true
}

// MARK: Regions

/// The defaults of `Region.init` and adaptive_pointer_v1. (A function: the struct holds a C
/// string pointer, so it cannot be a shared global.)
private func defaultRegion() -> lodestone_pointer_region {
    var r = lodestone_pointer_region()
    r.size = UInt32(MemoryLayout<lodestone_pointer_region>.size)
    r.corner_radius = Region.defaultCornerRadius
    r.effect = LODESTONE_POINTER_EFFECT_AUTOMATIC.rawValue
    r.hover_tint = LODESTONE_POINTER_HOVER_TINT_OVERLAY.rawValue
    r.hover_scale = true
    r.shape = LODESTONE_POINTER_SHAPE_EFFECT_DEFAULT.rawValue
    r.hit_area = LODESTONE_POINTER_HIT_AREA_BEZELLED.rawValue
    r.magnetism = LODESTONE_POINTER_MAGNETISM_AUTOMATIC.rawValue
    return r
}

@_cdecl("lodestone_pointer_region_init")
public func lodestone_pointer_region_init(_ region: UnsafeMutablePointer<lodestone_pointer_region>?, _ size: UInt32) {
    guard let region, size >= 4 else { return }
    var r = defaultRegion()
    r.size = min(size, UInt32(MemoryLayout<lodestone_pointer_region>.size))
    writeSized(r, to: region, size: size)
}

/// The engine's region for a C description, or the C error code.
private func makeRegion(id: UInt64, _ c: lodestone_pointer_region) -> Result<Region, RegionCError> {
    let frame = Rect<Global>(x: c.x, y: c.y, width: c.width, height: c.height)
    let hitArea: HitArea
    switch c.hit_area {
    case LODESTONE_POINTER_HIT_AREA_BEZELLED.rawValue: hitArea = .bezelled
    case LODESTONE_POINTER_HIT_AREA_BEZELLESS.rawValue: hitArea = .bezelless
    case LODESTONE_POINTER_HIT_AREA_PADDING.rawValue: hitArea = .padding(c.hit_padding)
    case LODESTONE_POINTER_HIT_AREA_EXPLICIT.rawValue:
        hitArea = .explicit(Rect(x: c.hit_x, y: c.hit_y, width: c.hit_width, height: c.hit_height))
    default: return .failure(RegionCError(LODESTONE_POINTER_ERROR_INVALID_ARGUMENT))
    }
    let tint: HoverTint
    switch c.hover_tint {
    case LODESTONE_POINTER_HOVER_TINT_NONE.rawValue: tint = .none
    case LODESTONE_POINTER_HOVER_TINT_OVERLAY.rawValue: tint = .overlay
    case LODESTONE_POINTER_HOVER_TINT_UNDERLAY.rawValue: tint = .underlay
    default: return .failure(RegionCError(LODESTONE_POINTER_ERROR_INVALID_ARGUMENT))
    }
    let effect: PointerEffect
    switch c.effect {
    case LODESTONE_POINTER_EFFECT_AUTOMATIC.rawValue: effect = .automatic
    case LODESTONE_POINTER_EFFECT_NONE.rawValue: effect = .none
    case LODESTONE_POINTER_EFFECT_HIGHLIGHT.rawValue: effect = .highlight
    case LODESTONE_POINTER_EFFECT_LIFT.rawValue: effect = .lift
    case LODESTONE_POINTER_EFFECT_HOVER.rawValue: effect = .hover(tint: tint, shadow: c.hover_shadow, scale: c.hover_scale)
    default: return .failure(RegionCError(LODESTONE_POINTER_ERROR_INVALID_ARGUMENT))
    }
    let shape: PointerShape
    switch c.shape {
    case LODESTONE_POINTER_SHAPE_EFFECT_DEFAULT.rawValue: shape = .effectDefault
    case LODESTONE_POINTER_SHAPE_CIRCLE.rawValue: shape = .circle
    case LODESTONE_POINTER_SHAPE_ROUNDED_RECT.rawValue: shape = .roundedRect(radius: c.shape_parameter)
    case LODESTONE_POINTER_SHAPE_VERTICAL_BEAM.rawValue: shape = .verticalBeam(length: c.shape_parameter)
    case LODESTONE_POINTER_SHAPE_HORIZONTAL_BEAM.rawValue: shape = .horizontalBeam(length: c.shape_parameter)
    case LODESTONE_POINTER_SHAPE_HIDDEN.rawValue: shape = .hidden
    default: return .failure(RegionCError(LODESTONE_POINTER_ERROR_INVALID_ARGUMENT))
    }
    let magnetism: MagnetismMode
    switch c.magnetism {
    case LODESTONE_POINTER_MAGNETISM_AUTOMATIC.rawValue: magnetism = .automatic
    case LODESTONE_POINTER_MAGNETISM_ON.rawValue: magnetism = .on
    case LODESTONE_POINTER_MAGNETISM_OFF.rawValue: magnetism = .off
    default: return .failure(RegionCError(LODESTONE_POINTER_ERROR_INVALID_ARGUMENT))
    }
    let axisBits = UInt32(LODESTONE_POINTER_AXIS_HORIZONTAL.rawValue | LODESTONE_POINTER_AXIS_VERTICAL.rawValue)
    guard c.latching_axes & ~axisBits == 0, c.constrained_axes & ~axisBits == 0 else {
        return .failure(RegionCError(LODESTONE_POINTER_ERROR_INVALID_ARGUMENT))
    }
    return .success(Region(
        id: RegionID(id), owner: SurfaceID(c.surface), identifier: c.identifier, frame: frame, hitArea: hitArea,
        cornerRadius: c.corner_radius, stackingOrder: c.stacking_order,
        style: PointerStyle(effect: effect, shape: shape),
        background: c.opaque_background ? .opaque : .transparent, magnetism: magnetism,
        latchingAxes: Axes(rawValue: UInt8(c.latching_axes)), constrainedAxes: Axes(rawValue: UInt8(c.constrained_axes)),
        annotation: c.annotation.map { String(cString: $0) }, bandSelection: c.band_selection))
}

/// A `lodestone_pointer_error` as a Swift error, for `Result`.
private struct RegionCError: Error {
    var code: Int32
    init(_ e: lodestone_pointer_error) { code = e.rawValue }
}

/// The header's code for the engine's reason.
private func code(for error: RegionError) -> lodestone_pointer_error {
    switch error {
    case .nonFiniteGeometry: return LODESTONE_POINTER_ERROR_NON_FINITE_GEOMETRY
    case .negativeSize: return LODESTONE_POINTER_ERROR_NEGATIVE_SIZE
    case .negativeCornerRadius: return LODESTONE_POINTER_ERROR_NEGATIVE_CORNER_RADIUS
    case .negativePadding: return LODESTONE_POINTER_ERROR_NEGATIVE_PADDING
    case .invalidBeamLength: return LODESTONE_POINTER_ERROR_INVALID_BEAM_LENGTH
    case .annotationTooLong: return LODESTONE_POINTER_ERROR_ANNOTATION_TOO_LONG
    case .invalidPath, .accessories: return LODESTONE_POINTER_ERROR_INVALID_SHAPE
    }
}

@_cdecl("lodestone_pointer_engine_set_region")
public func lodestone_pointer_engine_set_region(_ engine: OpaquePointer?, _ regionID: UInt64,
                                                _ region: UnsafePointer<lodestone_pointer_region>?) -> Int32 {
    guard let h = EngineHandle.from(engine), let region, region.pointee.size >= 4 else {
        return LODESTONE_POINTER_ERROR_INVALID_ARGUMENT.rawValue
    }
    let c = readSized(region, size: region.pointee.size, defaults: defaultRegion())
    switch makeRegion(id: regionID, c) {
    case .failure(let e): return e.code
    case .success(let r):
        do { try h.engine.regions.upsert(r) } catch { return code(for: error).rawValue }
        return LODESTONE_POINTER_OK.rawValue
    }
}

@_cdecl("lodestone_pointer_engine_remove_region")
public func lodestone_pointer_engine_remove_region(_ engine: OpaquePointer?, _ regionID: UInt64) -> Bool {
    guard let h = EngineHandle.from(engine) else { return false }
    return h.engine.regions.remove(id: RegionID(regionID)) != nil
}

@_cdecl("lodestone_pointer_engine_remove_surface_regions")
public func lodestone_pointer_engine_remove_surface_regions(_ engine: OpaquePointer?, _ surface: UInt64) -> UInt32 {
    guard let h = EngineHandle.from(engine) else { return 0 }
    return UInt32(h.engine.regions.removeAll(owner: SurfaceID(surface)))
}

// MARK: Input

@_cdecl("lodestone_pointer_engine_motion")
public func lodestone_pointer_engine_motion(_ engine: OpaquePointer?, _ time: Double, _ x: Double, _ y: Double) {
    EngineHandle.from(engine)?.engine.handle(.motion(to: Point(x: x, y: y)), at: Instant(seconds: time))
}

@_cdecl("lodestone_pointer_engine_relative_motion")
public func lodestone_pointer_engine_relative_motion(_ engine: OpaquePointer?, _ time: Double, _ dx: Double, _ dy: Double) {
    EngineHandle.from(engine)?.engine.handle(.relativeMotion(Vector(dx: dx, dy: dy)), at: Instant(seconds: time))
}

@_cdecl("lodestone_pointer_engine_button")
public func lodestone_pointer_engine_button(_ engine: OpaquePointer?, _ time: Double, _ pressed: Bool) {
    EngineHandle.from(engine)?.engine.handle(.button(pressed ? .pressed : .released), at: Instant(seconds: time))
}

@_cdecl("lodestone_pointer_engine_key_typed")
public func lodestone_pointer_engine_key_typed(_ engine: OpaquePointer?, _ time: Double) {
    EngineHandle.from(engine)?.engine.handle(.keyTyped, at: Instant(seconds: time))
}

@_cdecl("lodestone_pointer_engine_device")
public func lodestone_pointer_engine_device(_ engine: OpaquePointer?, _ time: Double, _ device: UInt32) {
    let kind: DeviceKind
    switch device {
    case LODESTONE_POINTER_DEVICE_MOUSE.rawValue: kind = .mouse
    case LODESTONE_POINTER_DEVICE_TRACKPAD.rawValue: kind = .trackpad
    default: return
    }
    EngineHandle.from(engine)?.engine.handle(.device(kind), at: Instant(seconds: time))
}

@_cdecl("lodestone_pointer_engine_warp")
public func lodestone_pointer_engine_warp(_ engine: OpaquePointer?, _ time: Double, _ x: Double, _ y: Double) {
    EngineHandle.from(engine)?.engine.handle(.warp(to: Point(x: x, y: y)), at: Instant(seconds: time))
}

@_cdecl("lodestone_pointer_engine_outside_outputs")
public func lodestone_pointer_engine_outside_outputs(_ engine: OpaquePointer?, _ time: Double, _ outside: Bool) {
    EngineHandle.from(engine)?.engine.handle(.outsideOutputs(outside), at: Instant(seconds: time))
}

@_cdecl("lodestone_pointer_engine_pointer_lock")
public func lodestone_pointer_engine_pointer_lock(_ engine: OpaquePointer?, _ time: Double, _ locked: Bool) {
    EngineHandle.from(engine)?.engine.handle(.pointerLock(locked), at: Instant(seconds: time))
}

@_cdecl("lodestone_pointer_engine_gesture_hold")
public func lodestone_pointer_engine_gesture_hold(_ engine: OpaquePointer?, _ time: Double, _ held: Bool) {
    EngineHandle.from(engine)?.engine.handle(.gestureHold(held), at: Instant(seconds: time))
}

@_cdecl("lodestone_pointer_engine_pinch")
public func lodestone_pointer_engine_pinch(_ engine: OpaquePointer?, _ time: Double, _ scale: Double) {
    EngineHandle.from(engine)?.engine.handle(.pinch(scale: scale > 0 ? scale : nil), at: Instant(seconds: time))
}

@_cdecl("lodestone_pointer_engine_next_deadline")
public func lodestone_pointer_engine_next_deadline(_ engine: OpaquePointer?, _ time: UnsafeMutablePointer<Double>?) -> Bool {
    guard let h = EngineHandle.from(engine), let time, let deadline = h.engine.nextDeadline else { return false }
    time.pointee = deadline.seconds
    return true
}

// MARK: Frames

/// The C presentation of one frame.
private func cPresentation(_ p: PointerPresentation, regions: RegionStore, tuning: PointerTuning) -> lodestone_pointer_presentation {
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
        c.target_identifier = regions[id]?.identifier ?? 0
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
    return c
}

@_cdecl("lodestone_pointer_engine_step")
public func lodestone_pointer_engine_step(_ engine: OpaquePointer?, _ time: Double,
                                          _ out: UnsafeMutablePointer<lodestone_pointer_presentation>?) -> Bool {
    guard let h = EngineHandle.from(engine) else { return false }
    h.presentation = h.engine.step(to: Instant(seconds: time))
    h.updateAnnotation()
    if let out, out.pointee.size >= 4 {
        let size = out.pointee.size
        writeSized(cPresentation(h.presentation, regions: h.engine.regions, tuning: h.engine.settings.tuning), to: out, size: size)
        out.pointee.size = size
    }
    return h.presentation.isAnimating
}

@_cdecl("lodestone_pointer_engine_draw")
public func lodestone_pointer_engine_draw(_ engine: OpaquePointer?, _ pixels: UnsafeMutablePointer<UInt32>?,
                                          _ width: Int32, _ height: Int32, _ stride: Int32, _ scale: Double,
                                          _ clipX: Int32, _ clipY: Int32, _ clipWidth: Int32, _ clipHeight: Int32) -> Bool {
    guard let h = EngineHandle.from(engine), let pixels else { return false }
    return draw(h, pixels, width, height, stride, .argb8888, scale, PixelRect.sanitized(x: clipX, y: clipY, width: clipWidth, height: clipHeight))
}

@_cdecl("lodestone_pointer_engine_draw_pixman")
public func lodestone_pointer_engine_draw_pixman(_ engine: OpaquePointer?, _ image: OpaquePointer?, _ scale: Double,
                                                 _ clipX: Int32, _ clipY: Int32, _ clipWidth: Int32, _ clipHeight: Int32) -> Bool {
    guard let h = EngineHandle.from(engine), let image, let bits = pixman_image_get_data(image) else { return false }
    let format: Image.Format
    switch pixman_image_get_format(image) {
    case PIXMAN_a8r8g8b8: format = .argb8888
    case PIXMAN_x8r8g8b8: format = .xrgb8888
    default: return false
    }
    return draw(h, bits, pixman_image_get_width(image), pixman_image_get_height(image), pixman_image_get_stride(image), format,
                scale, PixelRect.sanitized(x: clipX, y: clipY, width: clipWidth, height: clipHeight))
}

/// Both draws: the caller's pixels wrapped (not copied) for the renderer, for this call only.
private func draw(_ h: EngineHandle, _ pixels: UnsafeMutablePointer<UInt32>, _ width: Int32, _ height: Int32, _ stride: Int32,
                  _ format: Image.Format, _ scale: Double, _ clip: PixelRect) -> Bool {
    guard scale.isFinite, scale > 0, stride % 4 == 0,
          let image = Image(borrowing: pixels, width: width, height: height, stride: stride, format: format)
    else { return false }
    let clip = clip.intersection(PixelRect(x: 0, y: 0, width: width, height: height))
    guard !clip.isEmpty else { return false }
    h.renderer.draw(h.presentation, into: image, scale: scale, clip: PixelRegion(clip), preview: nil)
    return true
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

// MARK: Signatures

/// Compiles only while each export has the type of the header's declaration of the same name
/// (`CLodestonePointer.x` is the header's, `LodestonePointerC.x` this file's): a signature that
/// drifts from the header is a build error, not a crash in somebody's compositor. Never called.
private func exportsMatchTheHeader() {
    func same<T>(_: T, _: T) {}
    same(CLodestonePointer.lodestone_pointer_version, LodestonePointerC.lodestone_pointer_version)
    same(CLodestonePointer.lodestone_pointer_engine_create, LodestonePointerC.lodestone_pointer_engine_create)
    same(CLodestonePointer.lodestone_pointer_engine_destroy, LodestonePointerC.lodestone_pointer_engine_destroy)
    same(CLodestonePointer.lodestone_pointer_engine_set_output_bounds, LodestonePointerC.lodestone_pointer_engine_set_output_bounds)
    same(CLodestonePointer.lodestone_pointer_region_init, LodestonePointerC.lodestone_pointer_region_init)
    same(CLodestonePointer.lodestone_pointer_engine_set_region, LodestonePointerC.lodestone_pointer_engine_set_region)
    same(CLodestonePointer.lodestone_pointer_engine_remove_region, LodestonePointerC.lodestone_pointer_engine_remove_region)
    same(CLodestonePointer.lodestone_pointer_engine_remove_surface_regions, LodestonePointerC.lodestone_pointer_engine_remove_surface_regions)
    same(CLodestonePointer.lodestone_pointer_engine_motion, LodestonePointerC.lodestone_pointer_engine_motion)
    same(CLodestonePointer.lodestone_pointer_engine_relative_motion, LodestonePointerC.lodestone_pointer_engine_relative_motion)
    same(CLodestonePointer.lodestone_pointer_engine_button, LodestonePointerC.lodestone_pointer_engine_button)
    same(CLodestonePointer.lodestone_pointer_engine_key_typed, LodestonePointerC.lodestone_pointer_engine_key_typed)
    same(CLodestonePointer.lodestone_pointer_engine_step, LodestonePointerC.lodestone_pointer_engine_step)
    same(CLodestonePointer.lodestone_pointer_engine_draw, LodestonePointerC.lodestone_pointer_engine_draw)
    same(CLodestonePointer.lodestone_pointer_engine_next_event, LodestonePointerC.lodestone_pointer_engine_next_event)
    same(CLodestonePointer.lodestone_pointer_settings_init, LodestonePointerC.lodestone_pointer_settings_init)
    same(CLodestonePointer.lodestone_pointer_engine_set_settings, LodestonePointerC.lodestone_pointer_engine_set_settings)
    same(CLodestonePointer.lodestone_pointer_engine_annotation, LodestonePointerC.lodestone_pointer_engine_annotation)
    same(CLodestonePointer.lodestone_pointer_engine_draw_pixman, LodestonePointerC.lodestone_pointer_engine_draw_pixman)
    same(CLodestonePointer.lodestone_pointer_engine_device, LodestonePointerC.lodestone_pointer_engine_device)
    same(CLodestonePointer.lodestone_pointer_engine_warp, LodestonePointerC.lodestone_pointer_engine_warp)
    same(CLodestonePointer.lodestone_pointer_engine_outside_outputs, LodestonePointerC.lodestone_pointer_engine_outside_outputs)
    same(CLodestonePointer.lodestone_pointer_engine_pointer_lock, LodestonePointerC.lodestone_pointer_engine_pointer_lock)
    same(CLodestonePointer.lodestone_pointer_engine_gesture_hold, LodestonePointerC.lodestone_pointer_engine_gesture_hold)
    same(CLodestonePointer.lodestone_pointer_engine_pinch, LodestonePointerC.lodestone_pointer_engine_pinch)
    same(CLodestonePointer.lodestone_pointer_engine_next_deadline, LodestonePointerC.lodestone_pointer_engine_next_deadline)
}
