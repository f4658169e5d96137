/// One axis of the pointer's centre. While it follows the device the spring animates an
/// *offset* from the device (so a free pointer tracks the device exactly and recentres
/// smoothly after magnetism lets go); while it is held by a region the spring animates the
/// absolute coordinate (so the platter does not jitter with the device).
struct AxisAnimation: Sendable {
    private(set) var followsDevice = true
    var value = AnimatedValue(0)

    mutating func retarget(_ target: AxisTarget, device: Double) {
        switch target {
        case .device, .offset:
            if !followsDevice {
                value.value -= device
                followsDevice = true
            }
            value.target = target.deviceOffset
        case .fixed(let v):
            if followsDevice {
                value.value += device
                followsDevice = false
            }
            value.target = v
        }
    }

    mutating func snap(_ target: AxisTarget) {
        switch target {
        case .device, .offset:
            followsDevice = true
            value.snap(to: target.deviceOffset)
        case .fixed(let v):
            followsDevice = false
            value.snap(to: v)
        }
    }

    func position(device: Double) -> Double { followsDevice ? device + value.value : value.value }
}

/// The pointer shape morph: centre, width, height and corner radius of a rounded rect spring
/// toward the target, which is how circle ↔ beam ↔ platter interpolate. A custom path is not
/// in that family, so it cross-fades (custom morph spring) while the rounded rect morphs to the
/// path's bounds underneath. With reduce motion a shape change snaps and fades in quickly.
struct ShapeMorph: Sendable {
    var x = AxisAnimation()
    var y = AxisAnimation()
    private var xSpring = PositionSpring.shape
    private var ySpring = PositionSpring.shape
    var width: AnimatedValue
    var height: AnimatedValue
    var radius: AnimatedValue
    var scale = AnimatedValue(1, tolerance: 0.0001)
    var alpha = AnimatedValue(1)
    var pathAlpha = AnimatedValue(0)
    /// The arrow style's arrow; it cross-fades with the rounded rect and the path, like a path.
    var arrowAlpha = AnimatedValue(0)
    private(set) var path: Path<PointerLocal>?
    /// Reduce motion's quick fade-in after a shape change.
    var fade = AnimatedValue(1)
    private var key = ShapeKey(region: nil, band: false)
    private(set) var beneathContent = false

    init(diameter: Double) {
        width = AnimatedValue(diameter)
        height = AnimatedValue(diameter)
        radius = AnimatedValue(diameter / 2)
    }

    /// Starts already showing `t` (no morph from the circle at start-up).
    init(showing t: PointerTarget, device: Point<Global>) {
        self.init(diameter: t.width)
        retarget(t, device: device, pressed: false, pressedScale: 1, reduceMotion: false)
        x.snap(t.x)
        y.snap(t.y)
        width.snap(to: t.width)
        height.snap(to: t.height)
        radius.snap(to: t.radius)
        alpha.snap(to: alpha.target)
        arrowAlpha.snap(to: arrowAlpha.target)
    }

    mutating func retarget(_ t: PointerTarget, device: Point<Global>, pressed: Bool,
                           pressedScale: Double, reduceMotion: Bool) {
        let changed = t.key != key
        key = t.key
        xSpring = t.xSpring
        ySpring = t.ySpring
        beneathContent = t.beneathContent
        scale.target = pressed ? pressedScale : 1
        if t.snap || (changed && reduceMotion) {
            x.snap(t.x)
            y.snap(t.y)
            width.snap(to: t.width)
            height.snap(to: t.height)
            radius.snap(to: t.radius)
            if changed && reduceMotion && !t.snap {
                fade.snap(to: 0)
                fade.target = 1
            }
        } else {
            x.retarget(t.x, device: device.x)
            y.retarget(t.y, device: device.y)
            width.target = t.width
            height.target = t.height
            radius.target = t.radius
        }
        if let p = t.path {
            if path != p {
                path = p
                if reduceMotion { pathAlpha.snap(to: 0) }
            }
            pathAlpha.target = 1
            alpha.target = 0
        } else {
            pathAlpha.target = 0
            alpha.target = t.arrow ? 0 : t.alpha
        }
        arrowAlpha.target = t.arrow ? t.alpha : 0
        // Reduce motion: the quick fade above replaces the arrow's cross-fade.
        if changed && reduceMotion && !t.snap && (t.arrow || arrowAlpha.value > 0) {
            alpha.snap(to: alpha.target)
            arrowAlpha.snap(to: arrowAlpha.target)
        }
    }

    mutating func advance(_ k: SpringKit.Transitions, device: DeviceKind) {
        x.value.advance(x.followsDevice ? k.recenter(device) : (xSpring == .text ? k.text : k.shape))
        y.value.advance(y.followsDevice ? k.recenter(device) : (ySpring == .text ? k.text : k.shape))
        width.advance(k.shape)
        height.advance(k.shape)
        radius.advance(k.shape)
        scale.advance(k.press)
        alpha.advance(k.customMorph)
        pathAlpha.advance(k.customMorph)
        arrowAlpha.advance(k.customMorph)
        fade.advance(k.quickFade)
        if pathAlpha.isSettled && pathAlpha.value == 0 { path = nil }
    }

    var isSettled: Bool {
        x.value.isSettled && y.value.isSettled && width.isSettled && height.isSettled && radius.isSettled
            && scale.isSettled && alpha.isSettled && pathAlpha.isSettled && arrowAlpha.isSettled && fade.isSettled
    }

    func shape(device: Point<Global>) -> RoundedRect<Global> {
        let c = Point<Global>(x: x.position(device: device.x), y: y.position(device: device.y))
        return RoundedRect(rect: Rect(center: c, width: max(0, width.value), height: max(0, height.value)),
                           cornerRadius: max(0, radius.value))
    }
}
