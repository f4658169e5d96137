// liblodestone-pointer: regions, from the C description to the engine's `Region`.

import CLodestonePointer
import AdaptivePointerEngine

/// The defaults of `Region.init` and adaptive_pointer_v1. (A function: the struct holds a C
/// string pointer, so it cannot be a shared global.)
func defaultRegion() -> lodestone_pointer_region {
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
func makeRegion(id: UInt64, _ c: lodestone_pointer_region) -> Result<Region, RegionCError> {
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
    // 0 is "no tool"; anything else must be a diameter the engine takes (checked in validate).
    let tool = c.drawing_diameter == 0 ? nil : DrawingTool(diameter: c.drawing_diameter, argb: c.drawing_color)
    return .success(Region(
        id: RegionID(id), owner: SurfaceID(c.surface), identifier: c.identifier, frame: frame, hitArea: hitArea,
        cornerRadius: c.corner_radius, stackingOrder: c.stacking_order,
        style: PointerStyle(effect: effect, shape: shape),
        background: c.opaque_background ? .opaque : .transparent, magnetism: magnetism,
        latchingAxes: Axes(rawValue: UInt8(c.latching_axes)), constrainedAxes: Axes(rawValue: UInt8(c.constrained_axes)),
        annotation: c.annotation.map { String(cString: $0) }, bandSelection: c.band_selection, drawingTool: tool))
}

/// A `lodestone_pointer_error` as a Swift error, for `Result`.
struct RegionCError: Error {
    var code: Int32
    init(_ e: lodestone_pointer_error) { code = e.rawValue }
}

/// The header's code for the engine's reason.
func code(for error: RegionError) -> lodestone_pointer_error {
    switch error {
    case .nonFiniteGeometry: return LODESTONE_POINTER_ERROR_NON_FINITE_GEOMETRY
    case .negativeSize: return LODESTONE_POINTER_ERROR_NEGATIVE_SIZE
    case .negativeCornerRadius: return LODESTONE_POINTER_ERROR_NEGATIVE_CORNER_RADIUS
    case .negativePadding: return LODESTONE_POINTER_ERROR_NEGATIVE_PADDING
    case .invalidBeamLength: return LODESTONE_POINTER_ERROR_INVALID_BEAM_LENGTH
    case .annotationTooLong: return LODESTONE_POINTER_ERROR_ANNOTATION_TOO_LONG
    case .invalidPath, .accessories: return LODESTONE_POINTER_ERROR_INVALID_SHAPE
    case .invalidDrawingTool: return LODESTONE_POINTER_ERROR_INVALID_DRAWING_TOOL
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
