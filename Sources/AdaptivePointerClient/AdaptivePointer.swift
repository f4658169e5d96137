import CWaylandClient
import CWaylandProtocols
import WaylandClient

/// Declares `adaptive_pointer_v1` regions from a Swift client in a few lines:
///
/// ```swift
/// let pointer = try AdaptivePointer(registry: connection.registry())
/// let regions = pointer.regions(on: surface)            // a wl_surface *
/// let button = regions.add(RegionDescription(frame: (20, 20, 88, 32), effect: .lift, identifier: 1))
/// button.onEnter = { print("hovering", $0) }
/// wl_surface_commit(surface)                            // regions are double-buffered
/// ```
public final class AdaptivePointer {
    public struct Unavailable: Error, CustomStringConvertible {
        public var description: String { "the compositor does not offer adaptive_pointer_manager_v1" }
    }

    /// The newest version this library speaks: 2 adds upright accessories, 3 drawing previews,
    /// 4 writing areas (Scribble).
    public static let supportedVersion: UInt32 = 4

    let manager: Proxy
    /// The version bound: the compositor's, up to `supportedVersion`.
    public var version: UInt32 { manager.version }

    /// Binds the manager at the compositor's version, or at most `version` (a client written
    /// for an older version, or a test of one).
    public init(registry: Registry, version: UInt32 = AdaptivePointer.supportedVersion) throws {
        guard let m = registry.bind(cwp_adaptive_pointer_manager_v1_interface(), version: min(version, Self.supportedVersion)) else {
            throw Unavailable()
        }
        manager = Proxy(m, on: registry.connection)
    }

    deinit { manager.destroy { adaptive_pointer_manager_v1_destroy($0) } }

    /// The region holder of a `wl_surface` (one per surface; keep it as long as the regions).
    public func regions(on surface: OpaquePointer) -> SurfaceRegions {
        SurfaceRegions(manager.request { adaptive_pointer_manager_v1_get_surface($0, surface) }!, on: manager.connection)
    }

    /// The regions of `surface` (a `wl_surface` proxy).
    public func regions(on surface: Proxy) -> SurfaceRegions {
        SurfaceRegions(manager.request(surface) { adaptive_pointer_manager_v1_get_surface($0, $1) }!, on: manager.connection)
    }
}

/// `adaptive_pointer_surface_v1`: creates the regions of one surface.
public final class SurfaceRegions {
    let proxy: Proxy
    public private(set) var regions: [PointerRegion] = []

    init(_ pointer: OpaquePointer, on connection: Connection) { proxy = Proxy(pointer, on: connection) }

    deinit { proxy.destroy { adaptive_pointer_surface_v1_destroy($0) } }

    /// A new region set up from `description`; it takes effect with the next `wl_surface.commit`.
    @discardableResult
    public func add(_ description: RegionDescription) -> PointerRegion {
        let region = PointerRegion(proxy.request { adaptive_pointer_surface_v1_create_region($0) }!, on: proxy.connection)
        region.apply(description)
        regions.append(region)
        return region
    }

    /// Destroys a region (effective with the next commit).
    public func remove(_ region: PointerRegion) {
        regions.removeAll { $0 === region }
        region.destroy()
    }
}

/// Everything a region can say, with the protocol's defaults.
public struct RegionDescription {
    public enum Effect: UInt32, Sendable { case automatic, none, highlight, lift, hover }
    public enum Tint: UInt32, Sendable { case none, overlay, underlay }
    public enum Shape: Sendable {
        case effectDefault, circle, roundedRect(radius: Double), verticalBeam(lineHeight: Double)
        case horizontalBeam(columnWidth: Double), hidden, custom([PathVerb])
    }
    public enum HitArea: Sendable { case bezelled, bezelless, padding(Double), rect(x: Int32, y: Int32, width: Int32, height: Int32) }
    public enum Magnetism: UInt32, Sendable { case automatic, on, off }
    public enum AccessoryShape: Sendable { case arrow, plus, minus, circleSlash, checkmark, custom([PathVerb]) }
    public struct Accessory: Sendable {
        public var shape: AccessoryShape
        /// Degrees clockwise from the top of the pointer.
        public var angle: Double
        public var offset: Double
        public var rotatesWithMotion: Bool
        /// Keep the glyph upright at any angle (a plus at 45° stays a plus). Needs protocol
        /// version 2; against a version 1 compositor the glyph turns with its angle.
        public var upright: Bool
        public init(_ shape: AccessoryShape, angle: Double, offset: Double = 0, rotatesWithMotion: Bool = false,
                    upright: Bool = false) {
            self.shape = shape; self.angle = angle; self.offset = offset; self.rotatesWithMotion = rotatesWithMotion
            self.upright = upright
        }
    }
    public struct Axes: OptionSet, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        public static let horizontal = Axes(rawValue: 1)
        public static let vertical = Axes(rawValue: 2)
    }

    public var frame: (x: Int32, y: Int32, width: Int32, height: Int32)
    public var hitArea = HitArea.bezelled
    public var cornerRadius = 8.0
    public var effect = Effect.automatic
    public var hover: (tint: Tint, shadow: Bool, scale: Bool) = (.overlay, false, true)
    public var opaque = false
    public var shape = Shape.effectDefault
    public var magnetism = Magnetism.automatic
    public var latchingAxes: Axes = []
    public var constrainedAxes: Axes = []
    public var accessories: [Accessory] = []
    /// A subsurface (`wl_surface *`) holding the element's pixels: the app's own, from whatever
    /// toolkit it uses, so this library cannot wrap it.
    public var preview: OpaquePointer?  // closed-wrappers: allowed (an app's wl_surface, an input)
    public var annotation: String?
    public var bandSelection = false
    public var identifier: UInt32 = 0
    public var stackingOrder: Int32 = 0
    /// A drawing surface's tool (version 3): the pen's hover preview and the pointer show it.
    /// Against an older compositor it is left out and the plain previews show.
    public var drawingPreview: DrawingPreview?
    /// A writing area (version 4, Scribble): handwriting that starts in the frame is read by
    /// the compositor and comes back as `RegionEvent.written`. Left out against an older one.
    public var writingArea = false

    /// A drawing tool: the stroke's width in points (above 0, at most 512) and its ink,
    /// ARGB8888 with straight alpha (`0xAARRGGBB`).
    public struct DrawingPreview: Sendable, Equatable {
        public var diameter: Double
        public var color: UInt32
        public init(diameter: Double, color: UInt32) { self.diameter = diameter; self.color = color }
    }

    public init(frame: (x: Int32, y: Int32, width: Int32, height: Int32), effect: Effect = .automatic,
                shape: Shape = .effectDefault, identifier: UInt32 = 0) {
        self.frame = frame
        self.effect = effect
        self.shape = shape
        self.identifier = identifier
    }
}

/// One element of a custom path, relative to the pointer's centre (points, y down).
public enum PathVerb: Sendable {
    case move(Double, Double), line(Double, Double), quad(Double, Double, Double, Double)
    case cubic(Double, Double, Double, Double, Double, Double), close

    /// The wire encoding: a verb word followed by wl_fixed coordinates.
    static func encode(_ verbs: [PathVerb]) -> [Int32] {
        var words: [Int32] = []
        for v in verbs {
            switch v {
            case .move(let x, let y): words += [0, wl_fixed_from_double(x), wl_fixed_from_double(y)]
            case .line(let x, let y): words += [1, wl_fixed_from_double(x), wl_fixed_from_double(y)]
            case .quad(let a, let b, let c, let d): words += [2] + [a, b, c, d].map(wl_fixed_from_double)
            case .cubic(let a, let b, let c, let d, let e, let f): words += [3] + [a, b, c, d, e, f].map(wl_fixed_from_double)
            case .close: words.append(4)
            }
        }
        return words
    }
}

/// `adaptive_pointer_region_v1`: a declared element and its events.
public final class PointerRegion: Proxy {
    public enum BandState: UInt32, Sendable { case began, changed, ended }

    /// The pointer engaged the region (argument: its identifier).
    public var onEnter: ((UInt32) -> Void)?
    public var onLeave: ((UInt32) -> Void)?
    /// Band selection, in surface-local coordinates.
    public var onBand: ((UInt32, BandState, (x: Double, y: Double, width: Double, height: Double)) -> Void)?
    /// Version 4: handwriting in the writing area was read (text, where its ink was, surface-local).
    public var onWritten: ((UInt32, String, (x: Double, y: Double, width: Double, height: Double)) -> Void)?

    override init(_ pointer: OpaquePointer, on connection: Connection) {
        super.init(pointer, on: connection)
        handleEvents(RegionEvent.self) { [unowned self] event in
            switch event {
            case .entered(let identifier): self.onEnter?(identifier)
            case .left(let identifier): self.onLeave?(identifier)
            case .bandSelection(let identifier, let state, let x, let y, let width, let height):
                self.onBand?(identifier, state, (x, y, width, height))
            case .written(let identifier, let text, let x, let y, let width, let height):
                self.onWritten?(identifier, text, (x, y, width, height))
            }
        }
    }

    func destroy() { destroy { adaptive_pointer_region_v1_destroy($0) } }

    /// Sends every field of `d` (the region changes with the next commit).
    public func apply(_ d: RegionDescription) {
        let f = wl_fixed_from_double
        request { p in
            adaptive_pointer_region_v1_set_frame(p, d.frame.x, d.frame.y, d.frame.width, d.frame.height)
            switch d.hitArea {
            case .bezelled: adaptive_pointer_region_v1_set_hit_area(p, 0, 0)
            case .bezelless: adaptive_pointer_region_v1_set_hit_area(p, 1, 0)
            case .padding(let v): adaptive_pointer_region_v1_set_hit_area(p, 2, f(v))
            case .rect(let x, let y, let w, let h): adaptive_pointer_region_v1_set_hit_rect(p, x, y, w, h)
            }
            adaptive_pointer_region_v1_set_corner_radius(p, f(d.cornerRadius))
            adaptive_pointer_region_v1_set_effect(p, d.effect.rawValue)
            adaptive_pointer_region_v1_set_hover(p, d.hover.tint.rawValue, (d.hover.shadow ? 1 : 0) | (d.hover.scale ? 2 : 0))
            adaptive_pointer_region_v1_set_background(p, d.opaque ? 1 : 0)
            switch d.shape {
            case .effectDefault: adaptive_pointer_region_v1_set_shape(p, 0, 0)
            case .circle: adaptive_pointer_region_v1_set_shape(p, 1, 0)
            case .roundedRect(let r): adaptive_pointer_region_v1_set_shape(p, 2, f(r))
            case .verticalBeam(let l): adaptive_pointer_region_v1_set_shape(p, 3, f(l))
            case .horizontalBeam(let l): adaptive_pointer_region_v1_set_shape(p, 4, f(l))
            case .hidden: adaptive_pointer_region_v1_set_shape(p, 5, 0)
            case .custom(let verbs): withArray(PathVerb.encode(verbs)) { adaptive_pointer_region_v1_set_custom_shape(p, $0) }
            }
            adaptive_pointer_region_v1_set_magnetism(p, d.magnetism.rawValue)
            adaptive_pointer_region_v1_set_latching_axes(p, d.latchingAxes.rawValue)
            adaptive_pointer_region_v1_set_constrained_axes(p, d.constrainedAxes.rawValue)
            adaptive_pointer_region_v1_clear_accessories(p)
            for a in d.accessories { addAccessory(a) }
            adaptive_pointer_region_v1_set_preview(p, d.preview)
            adaptive_pointer_region_v1_set_annotation(p, d.annotation)
            adaptive_pointer_region_v1_set_band_selection(p, d.bandSelection ? 1 : 0)
            adaptive_pointer_region_v1_set_identifier(p, d.identifier)
            adaptive_pointer_region_v1_set_stacking_order(p, d.stackingOrder)
        }
        if let tool = d.drawingPreview { setDrawingPreview(diameter: tool.diameter, color: tool.color) } else { clearDrawingPreview() }
        if version >= 4 { request { adaptive_pointer_region_v1_set_writing_area($0, d.writingArea ? 1 : 0) } }
    }

    /// Version 3: the region is a drawing surface with this tool. False (and nothing sent)
    /// when the bound version is older: the request does not exist there.
    @discardableResult
    public func setDrawingPreview(diameter: Double, color: UInt32) -> Bool {
        guard version >= 3 else { return false }
        request { adaptive_pointer_region_v1_set_drawing_preview($0, wl_fixed_from_double(diameter), color) }
        return true
    }

    /// Version 3: no drawing tool any more. False (nothing sent) on an older binding.
    @discardableResult
    public func clearDrawingPreview() -> Bool {
        guard version >= 3 else { return false }
        request { adaptive_pointer_region_v1_clear_drawing_preview($0) }
        return true
    }

    /// Adds one accessory (a fifth is a protocol error).
    public func addAccessory(_ a: RegionDescription.Accessory) {
        let f = wl_fixed_from_double
        // upright is a version 2 flag: a version 1 compositor would end the connection over it.
        let upright: UInt32 = a.upright && version >= 2 ? 2 : 0
        let flags: UInt32 = (a.rotatesWithMotion ? 1 : 0) | upright
        switch a.shape {
        case .arrow: request { adaptive_pointer_region_v1_add_accessory($0, 0, f(a.angle), f(a.offset), flags) }
        case .plus: request { adaptive_pointer_region_v1_add_accessory($0, 1, f(a.angle), f(a.offset), flags) }
        case .minus: request { adaptive_pointer_region_v1_add_accessory($0, 2, f(a.angle), f(a.offset), flags) }
        case .circleSlash: request { adaptive_pointer_region_v1_add_accessory($0, 3, f(a.angle), f(a.offset), flags) }
        case .checkmark: request { adaptive_pointer_region_v1_add_accessory($0, 4, f(a.angle), f(a.offset), flags) }
        case .custom(let verbs):
            withArray(PathVerb.encode(verbs)) { array in request { adaptive_pointer_region_v1_add_custom_accessory($0, array, f(a.angle), f(a.offset), flags) } }
        }
    }

    public func setFrame(x: Int32, y: Int32, width: Int32, height: Int32) {
        request { adaptive_pointer_region_v1_set_frame($0, x, y, width, height) }
    }
    public func setAnnotation(_ text: String?) { request { adaptive_pointer_region_v1_set_annotation($0, text) } }
    public func setIdentifier(_ identifier: UInt32) { request { adaptive_pointer_region_v1_set_identifier($0, identifier) } }

    /// Raw words as a path array (for tests that send malformed paths on purpose).
    public func setCustomShape(words: [Int32]) { withArray(words) { array in request { adaptive_pointer_region_v1_set_custom_shape($0, array) } } }
}

/// Passes `words` as a `wl_array` for the duration of one request.
private func withArray(_ words: [Int32], _ body: (UnsafeMutablePointer<wl_array>) -> Void) {
    var copy = words
    copy.withUnsafeMutableBytes { bytes in
        var array = wl_array(size: bytes.count, alloc: bytes.count, data: bytes.baseAddress)
        body(&array)
    }
}
