import Rendering

/// The one output Lodestone composes into: its size, scale and pixels.
public final class Output {
    public let name: String
    public let description: String
    /// Size in logical (surface) coordinates.
    public private(set) var width: Int32
    public private(set) var height: Int32
    public private(set) var scale: Int32
    public let refreshMilliHz: Int32
    /// The composed frame, in output pixels.
    public private(set) var image: Image
    /// Output pixels that changed since the last repaint.
    public let damage = PixelRegion()
    var resources: [WlOutput] = []
    /// Surfaces told their preferred scale (wp_fractional_scale_v1): told again when it changes.
    var fractionalScales: [Weak<WpFractionalScale>] = []

    public init(name: String, description: String, width: Int32, height: Int32, scale: Int32, refreshMilliHz: Int32) {
        self.name = name
        self.description = description
        self.width = width
        self.height = height
        self.scale = scale
        self.refreshMilliHz = refreshMilliHz
        image = Image(width: width * scale, height: height * scale, format: .xrgb8888)
        damageAll()
    }

    public var pixelWidth: Int32 { width * scale }
    public var pixelHeight: Int32 { height * scale }
    /// The output in global logical coordinates.
    public var bounds: PixelRect { PixelRect(x: 0, y: 0, width: width, height: height) }

    public func damageAll() { damage.add(PixelRect(x: 0, y: 0, width: pixelWidth, height: pixelHeight)) }

    /// Adds a global logical rect to the damage.
    func damage(logical r: PixelRect) { damage.add(r.scaled(by: scale).intersection(PixelRect(x: 0, y: 0, width: pixelWidth, height: pixelHeight))) }

    /// Whether any of a global logical rect is already damaged.
    func damageTouches(logical r: PixelRect) -> Bool { damage.intersects(r.scaled(by: scale)) }

    /// A new mode (nested window resized, parent scale changed).
    public func reconfigure(width: Int32, height: Int32, scale: Int32) {
        guard width != self.width || height != self.height || scale != self.scale else { return }
        let scaleChanged = scale != self.scale
        self.width = width; self.height = height; self.scale = scale
        image = Image(width: width * scale, height: height * scale, format: .xrgb8888)
        damageAll()
        for resource in resources { resource.sendAll() }
        if scaleChanged { for case let s? in fractionalScales.map(\.value) { s.sendPreferredScale() } }
    }
}
