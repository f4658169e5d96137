import CWaylandServer
import PointerEngine
import WaylandServer

/// One region as committed: what `wl_surface.commit` snapshots from an
/// `adaptive_pointer_region_v1` and the pointer controller maps to global space.
struct RegionSpec {
    let id: RegionID
    /// The protocol object, for entered/left/band events (nil once the client destroyed it).
    weak var object: AdaptivePointerRegion?
    var identifier: UInt32 = 0
    var frame = Rect<SurfaceLocal>.zero
    var hitArea = HitArea.bezelled
    /// With `hitArea == .explicit`: the surface-local capture rectangle.
    var hitRect: Rect<SurfaceLocal>?
    var cornerRadius = Region.defaultCornerRadius
    var stackingOrder: Int32 = 0
    var style = PointerStyle()
    var background = ElementBackground.transparent
    var magnetism = MagnetismMode.automatic
    var latchingAxes: Axes = []
    var constrainedAxes: Axes = []
    var annotation: String?
    var bandSelection = false
    /// Since 3: the region is a drawing surface with this tool.
    var drawingTool: DrawingTool?
    /// A subsurface holding the element's pixels.
    weak var preview: WlSurface?

    init(id: RegionID) { self.id = id }

    /// The region in engine terms, before `SurfacePlacement` puts it in global space.
    func localRegion(owner: SurfaceID) -> LocalRegion {
        let region = Region(id: id, owner: owner, identifier: identifier, frame: .zero, hitArea: hitArea,
                            cornerRadius: cornerRadius, stackingOrder: stackingOrder, style: style,
                            background: background, magnetism: magnetism, latchingAxes: latchingAxes,
                            constrainedAxes: constrainedAxes, annotation: annotation, bandSelection: bandSelection,
                            drawingTool: drawingTool)
        return LocalRegion(region: region, frame: frame, hitArea: hitArea, localHitRect: hitRect)
    }
}

/// `adaptive_pointer_region_v1`: one interactive element. Requests only edit the pending
/// `spec`; the surface's next commit snapshots it (see `AdaptivePointerSurface`).
final class AdaptivePointerRegion: Resource, ProtocolObject {
    static var interface: UnsafePointer<wl_interface> { Interface.adaptivePointerRegion }
    private(set) weak var owner: AdaptivePointerSurface?
    private(set) var spec: RegionSpec
    private var effect = UInt32(0)
    private var hover = (tint: HoverTint.overlay, shadow: false, scale: true)
    private var accessories: [PointerAccessory] = []

    enum Request: UInt32 {
        case destroy, setFrame, setHitArea, setHitRect, setCornerRadius, setEffect, setHover, setBackground
        case setShape, setCustomShape, setMagnetism, setLatchingAxes, setConstrainedAxes
        case addAccessory, addCustomAccessory, clearAccessories, setPreview, setAnnotation
        case setBandSelection, setIdentifier, setStackingOrder
        // Since 3 (libwayland refuses them on older binds).
        case setDrawingPreview, clearDrawingPreview
    }

    init?(owner: AdaptivePointerSurface, client: Client, version: UInt32, id: UInt32, regionID: RegionID) {
        self.owner = owner
        spec = RegionSpec(id: regionID)
        super.init(client: client, interface: Self.interface, version: version, id: id)
        spec.object = self
    }

    override func dispatch(opcode: UInt32, arguments a: Arguments) {
        let request = Request(rawValue: opcode)
        if request == .destroy { return destroy() }
        guard let owner, owner.surface != nil else { return }  // inert
        switch request {
        case .setFrame:
            guard let r = rect(a, "frame") else { return }
            spec.frame = r
        case .setHitArea: setHitArea(mode: a.uint(0), padding: a.fixed(1))
        case .setHitRect:
            guard let r = rect(a, "hit rectangle") else { return }
            spec.hitArea = .explicit(.zero)
            spec.hitRect = r
        case .setCornerRadius:
            guard let r = length(a.fixed(0), "corner radius") else { return }
            spec.cornerRadius = r
        case .setEffect:
            guard a.uint(0) <= 4 else { return badEnum("effect", a.uint(0)) }
            effect = a.uint(0)
            updateEffect()
        case .setHover: setHover(tint: a.uint(0), flags: a.uint(1))
        case .setBackground:
            switch a.uint(0) {
            case 0: spec.background = .transparent
            case 1: spec.background = .opaque
            case let v: return badEnum("background", v)
            }
        case .setShape: setShape(a.uint(0), value: a.fixed(1))
        case .setCustomShape:
            guard let path = decodePath(a.array(0), what: "custom shape") else { return }
            spec.style.shape = .path(path)
        case .setMagnetism:
            switch a.uint(0) {
            case 0: spec.magnetism = .automatic
            case 1: spec.magnetism = .on
            case 2: spec.magnetism = .off
            case let v: return badEnum("magnetism", v)
            }
        case .setLatchingAxes:
            guard let axes = axes(a.uint(0)) else { return }
            spec.latchingAxes = axes
        case .setConstrainedAxes:
            guard let axes = axes(a.uint(0)) else { return }
            spec.constrainedAxes = axes
        case .addAccessory:
            let shapes: [AccessoryShape] = [.arrow, .plus, .minus, .circleSlash, .checkmark]
            guard Int(a.uint(0)) < shapes.count else { return badEnum("accessory", a.uint(0)) }
            addAccessory(shapes[Int(a.uint(0))], angle: a.fixed(1), offset: a.fixed(2), flags: a.uint(3))
        case .addCustomAccessory:
            guard let path = decodePath(a.array(0), what: "custom accessory") else { return }
            addAccessory(.path(path), angle: a.fixed(1), offset: a.fixed(2), flags: a.uint(3))
        case .clearAccessories:
            accessories = []
            spec.style.accessories = .empty
        case .setPreview: setPreview(WlSurface.from(a.object(0)), given: a.object(0) != nil)
        case .setAnnotation:
            let text = a.string(0) ?? ""
            guard text.count <= Region.maximumAnnotationLength else {
                return postError(ADAPTIVE_POINTER_REGION_V1_ERROR_ANNOTATION_TOO_LONG.rawValue,
                                 "annotation too long: \(text.count) characters, at most \(Region.maximumAnnotationLength)")
            }
            spec.annotation = text.isEmpty ? nil : text
        case .setBandSelection: spec.bandSelection = a.uint(0) != 0
        case .setIdentifier: spec.identifier = a.uint(0)
        case .setStackingOrder: spec.stackingOrder = a.int(0)
        case .setDrawingPreview:
            let diameter = a.fixed(0)
            if let problem = DrawingTool.problem(diameter: diameter) {
                return postError(ADAPTIVE_POINTER_REGION_V1_ERROR_INVALID_DRAWING_PREVIEW.rawValue,
                                 "invalid drawing preview: \(problem) (must be above 0 and at most \(Int(DrawingTool.maximumDiameter)))")
            }
            spec.drawingTool = DrawingTool(diameter: diameter, argb: a.uint(1))
        case .clearDrawingPreview: spec.drawingTool = nil
        case .destroy, nil: return
        }
        owner.markDirty()
    }

    // MARK: Checks (each error names the problem)

    private func badEnum(_ name: String, _ value: UInt32) {
        postError(ADAPTIVE_POINTER_REGION_V1_ERROR_INVALID_ENUM.rawValue, "\(value) is not a valid \(name) value")
    }

    private func rect(_ a: Arguments, _ what: String) -> Rect<SurfaceLocal>? {
        let w = a.int(2), h = a.int(3)
        guard w >= 0, h >= 0 else {
            postError(ADAPTIVE_POINTER_REGION_V1_ERROR_NEGATIVE_SIZE.rawValue, "negative size \(w)×\(h) for the \(what)")
            return nil
        }
        return Rect(x: Double(a.int(0)), y: Double(a.int(1)), width: Double(w), height: Double(h))
    }

    private func length(_ v: Double, _ what: String) -> Double? {
        guard v.isFinite, v >= 0 else {
            postError(ADAPTIVE_POINTER_REGION_V1_ERROR_INVALID_VALUE.rawValue, "\(what) \(v) is negative")
            return nil
        }
        return v
    }

    private func axes(_ bits: UInt32) -> Axes? {
        guard bits & ~UInt32(3) == 0 else { badEnum("axes bitfield", bits); return nil }
        return Axes(rawValue: UInt8(bits))
    }

    // MARK: Requests

    private func setHitArea(mode: UInt32, padding: Double) {
        switch mode {
        case 0: spec.hitArea = .bezelled
        case 1: spec.hitArea = .bezelless
        case 2:
            guard let p = length(padding, "hit padding") else { return }
            spec.hitArea = .padding(p)
        default: return badEnum("hit_area", mode)
        }
        spec.hitRect = nil
    }

    private func setHover(tint: UInt32, flags: UInt32) {
        let tints: [HoverTint] = [.none, .overlay, .underlay]
        guard Int(tint) < tints.count else { return badEnum("hover_tint", tint) }
        guard flags & ~UInt32(3) == 0 else { return badEnum("hover_flags bitfield", flags) }
        hover = (tints[Int(tint)], flags & 1 != 0, flags & 2 != 0)
        updateEffect()
    }

    private func updateEffect() {
        switch effect {
        case 1: spec.style.effect = .none
        case 2: spec.style.effect = .highlight
        case 3: spec.style.effect = .lift
        case 4: spec.style.effect = .hover(tint: hover.tint, shadow: hover.shadow, scale: hover.scale)
        default: spec.style.effect = .automatic
        }
    }

    private func setShape(_ shape: UInt32, value: Double) {
        guard shape <= 5 else { return badEnum("shape", shape) }
        guard let v = length(value, "shape value") else { return }
        switch shape {
        case 0: spec.style.shape = .effectDefault
        case 1: spec.style.shape = .circle
        case 2: spec.style.shape = .roundedRect(radius: v)
        case 3, 4:
            guard v > 0 else {
                return postError(ADAPTIVE_POINTER_REGION_V1_ERROR_INVALID_VALUE.rawValue, "beam length must be positive, not \(v)")
            }
            spec.style.shape = shape == 3 ? .verticalBeam(length: v) : .horizontalBeam(length: v)
        default: spec.style.shape = .hidden
        }
    }

    private func addAccessory(_ shape: AccessoryShape, angle: Double, offset: Double, flags: UInt32) {
        // rotates_with_motion (1); upright (2) since version 2, so a version 1 client keeps
        // today's rules.
        let known: UInt32 = version >= 2 ? 3 : 1
        guard flags & ~known == 0 else { return badEnum("accessory_flags bitfield", flags) }
        guard angle.isFinite, let offset = length(offset, "accessory offset") else { return }
        guard accessories.count < AccessorySet.maximumCount else {
            return postError(ADAPTIVE_POINTER_REGION_V1_ERROR_TOO_MANY_ACCESSORIES.rawValue,
                             "too many accessories: at most \(AccessorySet.maximumCount)")
        }
        let accessory = PointerAccessory(shape, position: AccessoryPosition(degrees: angle, offset: offset),
                                         rotatesWithMotion: flags & 1 != 0, upright: flags & 2 != 0)
        do {
            spec.style.accessories = try AccessorySet(accessories + [accessory])
            accessories.append(accessory)
        } catch {
            postError(ADAPTIVE_POINTER_REGION_V1_ERROR_MALFORMED_PATH.rawValue, "accessory refused: \(error)")
        }
    }

    private func setPreview(_ preview: WlSurface?, given: Bool) {
        guard given else { spec.preview = nil; return }
        // The preview must be our own subsurface somewhere below the region's surface: the
        // compositor moves and scales its pixels, which it may only do for the owner's content.
        var ancestor = (preview?.role as? WlSubsurface)?.parent
        var below = false
        while let a = ancestor {
            if a === owner?.surface { below = true; break }
            ancestor = (a.role as? WlSubsurface)?.parent
        }
        guard let preview, preview.client == client, below else {
            return postError(ADAPTIVE_POINTER_REGION_V1_ERROR_INVALID_PREVIEW.rawValue,
                             "the preview is not a subsurface of this client below the region's surface")
        }
        spec.preview = preview
    }

    /// Decodes a path array (see `path_verb` in the XML): verb words followed by wl_fixed coordinates.
    private func decodePath(_ array: UnsafeMutablePointer<wl_array>?, what: String) -> Path<PointerLocal>? {
        func fail(_ reason: String) -> Path<PointerLocal>? {
            postError(ADAPTIVE_POINTER_REGION_V1_ERROR_MALFORMED_PATH.rawValue, "malformed path for the \(what): \(reason)")
            return nil
        }
        guard let array, array.pointee.size > 0, let data = array.pointee.data else { return fail("empty") }
        guard array.pointee.size % 4 == 0 else { return fail("size \(array.pointee.size) is not a multiple of 4 bytes") }
        let words = UnsafeBufferPointer(start: data.assumingMemoryBound(to: Int32.self), count: array.pointee.size / 4)
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
        return path
    }

    // MARK: Events

    func sendEntered() { adaptive_pointer_region_v1_send_entered(pointer, spec.identifier) }
    func sendLeft() { adaptive_pointer_region_v1_send_left(pointer, spec.identifier) }
    func sendBand(_ state: UInt32, _ r: Rect<SurfaceLocal>) {
        adaptive_pointer_region_v1_send_band_selection(pointer, spec.identifier, state, wl_fixed_from_double(r.minX),
                                                       wl_fixed_from_double(r.minY), wl_fixed_from_double(r.width),
                                                       wl_fixed_from_double(r.height))
    }

    // MARK: Lifetime

    /// The surface extension went away: this region is inert from now on.
    func ownerDestroyed() { owner = nil }

    /// Counts this region against its client's limit while it lives.
    var tally: RegionTally?

    override func destroyed() {
        tally?.removed(by: client)
        tally = nil
        owner?.regionDestroyed(self)
        owner = nil
    }
}
