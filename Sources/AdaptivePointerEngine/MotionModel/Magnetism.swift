/// The targeted region with its decisions made once (not every frame): which effect
/// `automatic` became and whether it attracts the pointer under the current settings.
struct EngagedRegion: Sendable {
    var region: Region
    var version: UInt64
    var effect: ResolvedEffect
    var attracts: Bool
    /// A custom shape, already scaled by the size multiplier (scaling allocates: do it once).
    var path: Path<PointerLocal>?
}

/// Where one axis of the pointer's centre is going: with the device, or to a fixed coordinate.
enum AxisTarget: Hashable, Sendable {
    case device
    /// With the device, this far from it (the arrow's bounds beside its tip).
    case offset(Double)

    /// How far from the device a following axis sits (0 for `.device`, and for `.fixed`).
    var deviceOffset: Double {
        if case .offset(let o) = self { return o }
        return 0
    }
    case fixed(Double)
}

/// Which spring moves a fixed axis.
enum PositionSpring: Hashable, Sendable {
    case shape
    case text
}

/// Identifies "the same shape" across frames; reduce motion fades instead of morphing when it changes.
struct ShapeKey: Hashable, Sendable {
    var region: RegionID?
    var band: Bool
}

/// What the pointer should become for the current state; the morph springs toward it.
struct PointerTarget: Sendable {
    var logical: Point<Global>
    var x: AxisTarget
    var y: AxisTarget
    var xSpring: PositionSpring = .shape
    var ySpring: PositionSpring = .shape
    var width: Double
    var height: Double
    var radius: Double
    var alpha: Double = 1
    var path: Path<PointerLocal>? = nil
    var beneathContent = false
    var isPlatter = false
    /// The arrow style's arrow, its tip at the device, instead of the rounded rect (which
    /// stays invisible, on the arrow's bounds, for accessories, tone and morphs).
    var arrow = false
    /// Geometry must track exactly (band selection), no spring.
    var snap = false
    var key: ShapeKey
    /// Over a drawing region's frame: the pointer previews this tool.
    var tool: DrawingTool? = nil
}

/// Text magnetism: the beam rests on the centre of a text line and only moves to the next line
/// when the device strays well into it, further still while selecting (button held), so
/// vertical wobble during a selection drag does not jump lines.
struct TextLineSnap: Sendable {
    private(set) var region: RegionID?
    private(set) var line = 0

    mutating func reset() { region = nil }

    /// The most a line's hysteresis may be, as a fraction of a line (see `update`).
    static let maximumHysteresis = 0.45

    /// `coordinate` is the device's y (x for a horizontal beam); `start`/`extent` the frame's
    /// span on that axis; `pitch` the line height.
    mutating func update(region id: RegionID, coordinate: Double, start: Double, extent: Double,
                         pitch: Double, selecting: Bool, tuning: PointerTuning) {
        let lines = max(1, Int((extent / pitch).rounded(.down)))
        let position = (coordinate - start) / pitch
        let candidate = min(max(Int(position.rounded(.down).clamped(-1e9, 1e9)), 0), lines - 1)
        guard region == id else {
            region = id
            line = candidate
            return
        }
        // Under half a line: past that, a device resting on the next line's centre would stay
        // on the old line until the release lowered the slack, and a drag would end a line short.
        let slack = min(selecting ? tuning.textSelectingHysteresis : tuning.textHysteresis, Self.maximumHysteresis)
        if position < Double(line) - slack || position >= Double(line + 1) + slack {
            line = candidate
        }
    }

    func center(start: Double, pitch: Double) -> Double {
        start + (Double(line) + 0.5) * pitch
    }
}

extension Double {
    func clamped(_ lo: Double, _ hi: Double) -> Double { Swift.min(Swift.max(self, lo), hi) }
}

/// Magnetism: what the pointer becomes over a region and where clients see it.
/// The pointer engages at the hit region (before it touches the element), its shape is pulled
/// onto the element, and the logical position moves onto the element so a click lands there.
enum Magnetism {
    /// - Parameters:
    ///   - leaving: the region's exit delay is running (see `Targeting.isLeaving`): the shape
    ///     stays on the element, clients see the device.
    ///   - latched: axes a held click latched the region on (a slider's thumb): along them
    ///     clients see the device, so the drag moves the element with the hand.
    static func target(engaged: EngagedRegion?, device: Point<Global>, textLine: TextLineSnap,
                       leaving: Bool = false, latched: Axes = [], settings: PointerSettings) -> PointerTarget {
        let t = settings.tuning
        let size = settings.size
        let diameter = t.pointerDiameter * size
        guard let e = engaged else {
            return PointerTarget(logical: device, x: .device, y: .device, width: diameter,
                                 height: diameter, radius: diameter / 2, key: ShapeKey(region: nil, band: false))
        }
        let r = e.region
        let frame = r.frame
        let c = frame.center
        let offset = device - c
        let motion = settings.reduceMotion ? 0.0 : 1.0
        let parallax = (offset * (t.parallax * motion)).clamped(toLength: t.maximumSlip)
        let slip = (offset * (t.slipFactor * motion)).clamped(toLength: t.maximumSlip)
        let inner = frame.outset(by: -min(1, frame.width / 2, frame.height / 2))

        var target = PointerTarget(logical: device, x: .device, y: .device, width: diameter,
                                   height: diameter, radius: diameter / 2, key: ShapeKey(region: r.id, band: false))
        if e.attracts { target.logical = inner.clamp(c + parallax) }
        // A drawing region: over its frame the pointer is a circle as wide as the stroke, in
        // its ink, exactly at the device (no magnetism: the stroke lands under the pointer).
        // In the hit padding around the frame it stays the plain circle.
        if let tool = r.drawingTool {
            guard frame.contains(device) else { return target }
            target.width = tool.diameter
            target.height = tool.diameter
            target.radius = tool.diameter / 2
            target.tool = tool
            return target
        }

        switch r.style.shape {
        case .effectDefault:
            switch e.effect {
            case .highlight:
                let p = c + parallax
                target.x = .fixed(p.x); target.y = .fixed(p.y)
                target.width = frame.width + t.platterGrowth
                target.height = frame.height + t.platterGrowth
                target.radius = r.cornerRadius
                target.beneathContent = true
                target.isPlatter = true
            case .lift:
                // The pointer becomes the lifted element's outline and fades out beneath it.
                let p = c + slip
                let growth = t.liftGrowth
                let scale = (max(frame.width, frame.height) + growth) / max(frame.width, frame.height, 1)
                target.x = .fixed(p.x); target.y = .fixed(p.y)
                target.width = frame.width * scale
                target.height = frame.height * scale
                target.radius = r.cornerRadius * scale
                target.alpha = 0
                target.beneathContent = true
            case .none, .hover:
                target.becomeArrow(settings) // the circle (or the arrow), following the device
            }
        case .circle:
            target.becomeArrow(settings)
        case .hidden:
            target.alpha = 0
        case .roundedRect(let radius):
            let p = c + parallax
            target.x = .fixed(p.x); target.y = .fixed(p.y)
            target.width = frame.width
            target.height = frame.height
            target.radius = radius
        case .verticalBeam(let length):
            target.width = t.beamWidth * size
            target.height = length.clamped(t.beamMinimumLength, t.beamMaximumLength)
            target.radius = target.width / 2
            target.logical = device
            if e.attracts {
                let y = textLine.center(start: frame.minY, pitch: length)
                target.y = .fixed(y)
                target.ySpring = .text
                target.logical = inner.clamp(Point(x: device.x, y: y))
            }
        case .horizontalBeam(let length):
            target.width = length.clamped(t.beamMinimumLength, t.beamMaximumLength)
            target.height = t.beamWidth * size
            target.radius = target.height / 2
            target.logical = device
            if e.attracts {
                let x = textLine.center(start: frame.minX, pitch: length)
                target.x = .fixed(x)
                target.xSpring = .text
                target.logical = inner.clamp(Point(x: x, y: device.y))
            }
        case .path(let path):
            let b = path.bounds
            target.path = e.path ?? path
            target.width = b.width * size
            target.height = b.height * size
            target.radius = min(target.width, target.height) / 2
        }

        if latched.contains(.horizontal) { target.logical.x = device.x }
        if latched.contains(.vertical) { target.logical.y = device.y }
        // Constrained axes recentre the pointer (and what clients see) on the region's centre.
        if r.constrainedAxes.contains(.horizontal) {
            if case .device = target.x { target.x = .fixed(c.x) }
            target.logical.x = c.x
        }
        if r.constrainedAxes.contains(.vertical) {
            if case .device = target.y { target.y = .fixed(c.y) }
            target.logical.y = c.y
        }
        if leaving { target.logical = device }
        return target
    }
}

extension PointerTarget {
    /// In the arrow style, the plain pointer that follows the device is the arrow: its tip
    /// at the device, the (invisible) rounded rect on its bounds. The circle style keeps the circle.
    mutating func becomeArrow(_ settings: PointerSettings) {
        guard settings.style == .arrow else { return }
        let b = PointerArrow.unitBounds, size = settings.size
        arrow = true
        width = b.width * size
        height = b.height * size
        radius = min(width, height) / 2
        x = .offset(b.midX * size)
        y = .offset(b.midY * size)
    }
}
