// Over 300 lines: one implementation of every adaptive_pointer_region_v1 request's check and error message, shared by Lodestone and liblodestone-pointer; splitting it would split the protocol's rules.
import CWaylandProtocols
import CWaylandServer
import AdaptivePointerEngine
import WaylandServer

/// The pending state of one `adaptive_pointer_region_v1`, and the validation of every request
/// that edits it: one implementation of the protocol's checks and error messages, shared by
/// Lodestone's own handler (LodestoneCompositor/Protocols/AdaptivePointerRegion.swift) and by the server-side
/// helper of liblodestone-pointer (LodestonePointerC/Server*.swift), so a C compositor's
/// clients meet exactly the errors Lodestone's do.
///
/// The draft knows nothing of surfaces: `set_preview` is handed back to the caller, which alone
/// knows the surface tree (`Outcome.preview`).
public struct RegionDraft {
    public var identifier: UInt32 = 0
    public var frame = Rect<SurfaceLocal>.zero
    public var hitArea = HitArea.bezelled
    /// With `hitArea == .explicit`: the surface-local capture rectangle.
    public var hitRect: Rect<SurfaceLocal>?
    public var cornerRadius = Region.defaultCornerRadius
    public var stackingOrder: Int32 = 0
    public var style = PointerStyle()
    public var background = ElementBackground.transparent
    public var magnetism = MagnetismMode.automatic
    public var latchingAxes: Axes = []
    public var constrainedAxes: Axes = []
    public var annotation: String?
    public var bandSelection = false
    /// Since 3: the region is a drawing surface with this tool.
    public var drawingTool: DrawingTool?
    /// Since 4: the region takes handwriting where no field exists (Scribble's writing area).
    public var writingArea = false

    // What later requests combine with: set_effect and set_hover make one effect together.
    private var effect = UInt32(0)
    private var hover = (tint: HoverTint.overlay, shadow: false, scale: true)
    private var accessories: [PointerAccessory] = []

    public init() {}

    /// A surface holds at most this many regions (too_many_regions): keeps a hostile client
    /// from growing the spatial index without bound.
    public static let maximumRegionsPerSurface = 512

    /// The region requests, by opcode, generated from the XML (Scripts/generate-protocols).
    public typealias Request = AdaptivePointerRegionV1Request

    /// What a request did.
    public enum Outcome {
        /// The draft changed: the surface's next commit carries it.
        case changed
        /// A protocol error to post on the region (code of adaptive_pointer_region_v1.error).
        case error(UInt32, String)
        /// `set_preview` with this `wl_surface` (nil: none): the caller checks that it is a
        /// subsurface of the client below the region's surface (`invalidPreview` if not).
        case preview(ObjectArgument?)
        /// Not a request the draft handles (destroy, or one from a later version).
        case unhandled
    }

    /// The error for a preview that fails the caller's check.
    public static let invalidPreview = (code: ADAPTIVE_POINTER_REGION_V1_ERROR_INVALID_PREVIEW.rawValue,
                                        message: "the preview is not a subsurface of this client below the region's surface")

    /// Applies request `opcode` of a region bound at `version`.
    public mutating func apply(opcode: UInt32, _ a: Arguments, version: UInt32) -> Outcome {
        switch Request(rawValue: opcode) {
        case .setFrame:
            return rect(a, "frame").applied { frame = $0 }
        case .setHitArea: return setHitArea(mode: a.uint(0), padding: a.fixed(1))
        case .setHitRect:
            return rect(a, "hit rectangle").applied {
                hitArea = .explicit(.zero)
                hitRect = $0
            }
        case .setCornerRadius:
            return length(a.fixed(0), "corner radius").applied { cornerRadius = $0 }
        case .setEffect:
            guard a.uint(0) <= 4 else { return badEnum("effect", a.uint(0)) }
            effect = a.uint(0)
            updateEffect()
        case .setHover: return setHover(tint: a.uint(0), flags: a.uint(1))
        case .setBackground:
            switch a.uint(0) {
            case 0: background = .transparent
            case 1: background = .opaque
            case let v: return badEnum("background", v)
            }
        case .setShape: return setShape(a.uint(0), value: a.fixed(1))
        case .setCustomShape:
            return a.withArrayBytes(0) { decodePath($0, what: "custom shape") }.applied { style.shape = .path($0) }
        case .setMagnetism:
            switch a.uint(0) {
            case 0: magnetism = .automatic
            case 1: magnetism = .on
            case 2: magnetism = .off
            case let v: return badEnum("magnetism", v)
            }
        case .setLatchingAxes: return axes(a.uint(0)).applied { latchingAxes = $0 }
        case .setConstrainedAxes: return axes(a.uint(0)).applied { constrainedAxes = $0 }
        case .addAccessory:
            let shapes: [AccessoryShape] = [.arrow, .plus, .minus, .circleSlash, .checkmark]
            guard Int(a.uint(0)) < shapes.count else { return badEnum("accessory", a.uint(0)) }
            return addAccessory(shapes[Int(a.uint(0))], angle: a.fixed(1), offset: a.fixed(2), flags: a.uint(3), version: version)
        case .addCustomAccessory:
            switch a.withArrayBytes(0, { decodePath($0, what: "custom accessory") }) {
            case .success(let path): return addAccessory(.path(path), angle: a.fixed(1), offset: a.fixed(2), flags: a.uint(3), version: version)
            case .failure(let error): return error.outcome
            }
        case .clearAccessories:
            accessories = []
            style.accessories = .empty
        case .setPreview: return .preview(a.object(0))
        case .setAnnotation:
            let text = a.string(0) ?? ""
            guard text.count <= Region.maximumAnnotationLength else {
                return .error(ADAPTIVE_POINTER_REGION_V1_ERROR_ANNOTATION_TOO_LONG.rawValue,
                              "annotation too long: \(text.count) characters, at most \(Region.maximumAnnotationLength)")
            }
            annotation = text.isEmpty ? nil : text
        case .setBandSelection: bandSelection = a.uint(0) != 0
        case .setIdentifier: identifier = a.uint(0)
        case .setStackingOrder: stackingOrder = a.int(0)
        case .setDrawingPreview:
            let diameter = a.fixed(0)
            if let problem = DrawingTool.problem(diameter: diameter) {
                return .error(ADAPTIVE_POINTER_REGION_V1_ERROR_INVALID_DRAWING_PREVIEW.rawValue,
                              "invalid drawing preview: \(problem) (must be above 0 and at most \(Int(DrawingTool.maximumDiameter)))")
            }
            drawingTool = DrawingTool(diameter: diameter, argb: a.uint(1))
        case .clearDrawingPreview: drawingTool = nil
        case .setWritingArea: writingArea = a.uint(0) != 0
        case .destroy, nil: return .unhandled
        }
        return .changed
    }

    /// The region in engine terms, before `SurfacePlacement` puts it in global space.
    public func localRegion(id: RegionID, owner: SurfaceID) -> LocalRegion {
        let region = Region(id: id, owner: owner, identifier: identifier, frame: .zero, hitArea: hitArea,
                            cornerRadius: cornerRadius, stackingOrder: stackingOrder, style: style,
                            background: background, magnetism: magnetism, latchingAxes: latchingAxes,
                            constrainedAxes: constrainedAxes, annotation: annotation, bandSelection: bandSelection,
                            drawingTool: drawingTool)
        return LocalRegion(region: region, frame: frame, hitArea: hitArea, localHitRect: hitRect)
    }

    // MARK: Checks (each error names the problem)

    /// A refused request, carried through `Result` so each check reads as one expression.
    struct Refusal: Error {
        let code: UInt32
        let message: String
        init(_ code: UInt32, _ message: String) { (self.code, self.message) = (code, message) }
        var outcome: Outcome { .error(code, message) }
    }

    private func badEnum(_ name: String, _ value: UInt32) -> Outcome {
        .error(ADAPTIVE_POINTER_REGION_V1_ERROR_INVALID_ENUM.rawValue, "\(value) is not a valid \(name) value")
    }

    private func rect(_ a: Arguments, _ what: String) -> Result<Rect<SurfaceLocal>, Refusal> {
        let w = a.int(2), h = a.int(3)
        guard w >= 0, h >= 0 else {
            return .failure(Refusal(ADAPTIVE_POINTER_REGION_V1_ERROR_NEGATIVE_SIZE.rawValue, "negative size \(w)×\(h) for the \(what)"))
        }
        return .success(Rect(x: Double(a.int(0)), y: Double(a.int(1)), width: Double(w), height: Double(h)))
    }

    private func length(_ v: Double, _ what: String) -> Result<Double, Refusal> {
        guard v.isFinite, v >= 0 else {
            return .failure(Refusal(ADAPTIVE_POINTER_REGION_V1_ERROR_INVALID_VALUE.rawValue, "\(what) \(v) is negative"))
        }
        return .success(v)
    }

    private func axes(_ bits: UInt32) -> Result<Axes, Refusal> {
        guard bits & ~UInt32(3) == 0 else {
            return .failure(Refusal(ADAPTIVE_POINTER_REGION_V1_ERROR_INVALID_ENUM.rawValue, "\(bits) is not a valid axes bitfield value"))
        }
        return .success(Axes(rawValue: UInt8(bits)))
    }

    // MARK: Requests

    private mutating func setHitArea(mode: UInt32, padding: Double) -> Outcome {
        switch mode {
        case 0: hitArea = .bezelled
        case 1: hitArea = .bezelless
        case 2:
            switch length(padding, "hit padding") {
            case .success(let p): hitArea = .padding(p)
            case .failure(let refusal): return refusal.outcome
            }
        default: return badEnum("hit_area", mode)
        }
        hitRect = nil
        return .changed
    }

    private mutating func setHover(tint: UInt32, flags: UInt32) -> Outcome {
        let tints: [HoverTint] = [.none, .overlay, .underlay]
        guard Int(tint) < tints.count else { return badEnum("hover_tint", tint) }
        guard flags & ~UInt32(3) == 0 else { return badEnum("hover_flags bitfield", flags) }
        hover = (tints[Int(tint)], flags & 1 != 0, flags & 2 != 0)
        updateEffect()
        return .changed
    }

    private mutating func updateEffect() {
        switch effect {
        case 1: style.effect = .none
        case 2: style.effect = .highlight
        case 3: style.effect = .lift
        case 4: style.effect = .hover(tint: hover.tint, shadow: hover.shadow, scale: hover.scale)
        default: style.effect = .automatic
        }
    }

    private mutating func setShape(_ shape: UInt32, value: Double) -> Outcome {
        guard shape <= 5 else { return badEnum("shape", shape) }
        let v: Double
        switch length(value, "shape value") {
        case .success(let value): v = value
        case .failure(let refusal): return refusal.outcome
        }
        switch shape {
        case 0: style.shape = .effectDefault
        case 1: style.shape = .circle
        case 2: style.shape = .roundedRect(radius: v)
        case 3, 4:
            guard v > 0 else {
                return .error(ADAPTIVE_POINTER_REGION_V1_ERROR_INVALID_VALUE.rawValue, "beam length must be positive, not \(v)")
            }
            style.shape = shape == 3 ? .verticalBeam(length: v) : .horizontalBeam(length: v)
        default: style.shape = .hidden
        }
        return .changed
    }

    private mutating func addAccessory(_ shape: AccessoryShape, angle: Double, offset: Double, flags: UInt32, version: UInt32) -> Outcome {
        // rotates_with_motion (1); upright (2) since version 2, so a version 1 client keeps
        // today's rules.
        let known: UInt32 = version >= 2 ? 3 : 1
        guard flags & ~known == 0 else { return badEnum("accessory_flags bitfield", flags) }
        guard angle.isFinite else { return .changed }
        let distance: Double
        switch length(offset, "accessory offset") {
        case .success(let value): distance = value
        case .failure(let refusal): return refusal.outcome
        }
        guard accessories.count < AccessorySet.maximumCount else {
            return .error(ADAPTIVE_POINTER_REGION_V1_ERROR_TOO_MANY_ACCESSORIES.rawValue,
                          "too many accessories: at most \(AccessorySet.maximumCount)")
        }
        let accessory = PointerAccessory(shape, position: AccessoryPosition(degrees: angle, offset: distance),
                                         rotatesWithMotion: flags & 1 != 0, upright: flags & 2 != 0)
        do {
            style.accessories = try AccessorySet(accessories + [accessory])
            accessories.append(accessory)
            return .changed
        } catch {
            return .error(ADAPTIVE_POINTER_REGION_V1_ERROR_MALFORMED_PATH.rawValue, "accessory refused: \(error)")
        }
    }

    /// Decodes a path array (see `path_verb` in the XML): verb words followed by wl_fixed coordinates.
    private func decodePath(_ bytes: UnsafeRawBufferPointer, what: String) -> Result<Path<PointerLocal>, Refusal> {
        func fail(_ reason: String) -> Result<Path<PointerLocal>, Refusal> {
            .failure(Refusal(ADAPTIVE_POINTER_REGION_V1_ERROR_MALFORMED_PATH.rawValue, "malformed path for the \(what): \(reason)"))
        }
        guard bytes.count > 0 else { return fail("empty") }
        guard bytes.count % 4 == 0 else { return fail("size \(bytes.count) is not a multiple of 4 bytes") }
        let words = bytes.assumingMemoryBound(to: Int32.self)
        var path = Path<PointerLocal>()
        var i = 0, verbs = 0
        let arity = [2, 2, 4, 6, 0]  // coordinate words per verb
        func point(_ at: Int) -> Point<PointerLocal> { Point(x: Double(words[at]) / 256, y: Double(words[at + 1]) / 256) }
        while i < words.count {
            let verb = words[i]
            guard (0...4).contains(verb) else { return fail("unknown verb \(verb) at word \(i)") }
            guard i + 1 + arity[Int(verb)] <= words.count else {
                return fail("verb \(verb) at word \(i) is truncated")
            }
            if verbs == 0 && verb != 0 { return fail("it does not start with move") }
            switch verb {
            case 0: path.move(to: point(i + 1))
            case 1: path.addLine(to: point(i + 1))
            case 2: path.addQuadCurve(to: point(i + 3), control: point(i + 1))
            case 3: path.addCurve(to: point(i + 5), control1: point(i + 1), control2: point(i + 3))
            default: path.close()
            }
            i += 1 + arity[Int(verb)]
            verbs += 1
            if verbs > Path<PointerLocal>.maximumElementCount { return fail("more than \(Path<PointerLocal>.maximumElementCount) verbs") }
        }
        do { try path.validate() } catch { return fail("\(error)") }
        return .success(path)
    }
}

private extension Result where Failure == RegionDraft.Refusal {
    /// `.changed` after `update` on success, the refusal's error otherwise.
    func applied(_ update: (Success) -> Void) -> RegionDraft.Outcome {
        switch self {
        case .success(let value):
            update(value)
            return .changed
        case .failure(let refusal): return refusal.outcome
        }
    }
}
