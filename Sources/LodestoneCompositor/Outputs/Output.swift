import AdaptivePointerEngine
import WaylandServer
import Rendering

/// The frame Lodestone composes into: its size, scale and pixels. With several heads
/// (`OutputLayout`) it spans them all and each head shows its part.
public final class Output {
    public let name: String
    public let description: String
    /// Size in logical (surface) coordinates.
    ///
    /// Size, scale and image skip the dynamic exclusivity check: every frame reads them a dozen
    /// times (damage, pixels, the image) at ~60 instructions a check (issue 29), and they are
    /// only ever assigned whole, here, by the single-threaded core.
    @exclusivity(unchecked) public private(set) var width: Int32
    @exclusivity(unchecked) public private(set) var height: Int32
    /// Output pixels per logical unit; fractional (1.5) or whole (`OutputScale`).
    @exclusivity(unchecked) public private(set) var scale: OutputScale
    public let refreshMilliHz: Int32
    /// The composed frame, in output pixels.
    @exclusivity(unchecked) public private(set) var image: Image
    /// Output pixels that changed since the last repaint.
    public let damage = PixelRegion()
    /// Output pixels that surfaces on a backend's planes (`SurfacePlanes`) changed since the
    /// last frame: their content and moves, which the composed frame does not show. A frame
    /// runs for them (the planes hand them over), and captures and screencopy see them.
    public let planeDamage = PixelRegion()
    /// Surfaces told their preferred scale (wp_fractional_scale_v1): told again when it changes.
    var fractionalScales: [Weak<WpFractionalScale>] = []

    public init(name: String, description: String, width: Int32, height: Int32, scale: OutputScale, refreshMilliHz: Int32) {
        self.name = name
        self.description = description
        self.width = width
        self.height = height
        self.scale = scale
        self.refreshMilliHz = refreshMilliHz
        image = Image(width: scale.pixels(width), height: scale.pixels(height), format: .xrgb8888)
        damageAll()
    }

    /// The size in output pixels: the logical size times the scale, rounded.
    public var pixelWidth: Int32 { scale.pixels(width) }
    public var pixelHeight: Int32 { scale.pixels(height) }
    /// The output in global logical coordinates.
    public var bounds: PixelRect { PixelRect(x: 0, y: 0, width: width, height: height) }

    public func damageAll() { damage.add(PixelRect(x: 0, y: 0, width: pixelWidth, height: pixelHeight)) }

    /// Adds a global logical rect to the damage: every output pixel it can reach
    /// (`OutputScale.covering`, outward at a fractional scale).
    func damage(logical r: PixelRect) { damage.add(scale.covering(r).intersection(PixelRect(x: 0, y: 0, width: pixelWidth, height: pixelHeight))) }

    /// Adds a global logical rect that only surfaces on planes cover (`planeDamage`).
    func damagePlanes(logical r: PixelRect) { planeDamage.add(scale.covering(r).intersection(PixelRect(x: 0, y: 0, width: pixelWidth, height: pixelHeight))) }

    /// Whether any of a global logical rect is already damaged.
    func damageTouches(logical r: PixelRect) -> Bool { damage.intersects(scale.covering(r)) }

    /// Where a global logical rect is drawn, in output pixels (`OutputScale.placing`).
    public func pixels(logical r: PixelRect) -> PixelRect { scale.placing(r) }

    /// A new mode (nested window resized, parent scale changed).
    public func reconfigure(width: Int32, height: Int32, scale: OutputScale) {
        guard width != self.width || height != self.height || scale != self.scale else { return }
        let scaleChanged = scale != self.scale
        self.width = width; self.height = height; self.scale = scale
        image = Image(width: scale.pixels(width), height: scale.pixels(height), format: .xrgb8888)
        // The old mode's damage lies outside a smaller image: the renderer filled it past the
        // image's end (issue 24: a parent's first configure smaller than --size, a segfault).
        damage.clear()
        planeDamage.clear()
        damageAll()
        if scaleChanged { for case let s? in fractionalScales.map(\.value) { s.sendPreferredScale() } }
    }
}

extension Output {
    /// The output in global logical coordinates: where the pointer may go.
    var logicalBounds: Rect<Global> { Rect(x: 0, y: 0, width: Double(width), height: Double(height)) }
}
