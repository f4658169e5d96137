/// The pointer where no region targets it: the circle, or the shape a compositor passed with
/// `PointerInput.untargetedStyle` (the app's cursor name, in the engine's terms). It always
/// follows the device: without an element there is nothing to be attracted to.
extension Magnetism {
    static func untargeted(_ style: PointerStyle, path scaled: Path<PointerLocal>?, device: Point<Global>,
                           settings: PointerSettings) -> PointerTarget {
        let t = settings.tuning
        let size = settings.size
        let diameter = t.pointerDiameter * size
        var target = PointerTarget(logical: device, x: .device, y: .device, width: diameter,
                                   height: diameter, radius: diameter / 2, key: ShapeKey(region: nil, band: false))
        switch style.shape {
        case .effectDefault, .circle:
            target.becomeArrow(settings)
        case .hidden:
            target.alpha = 0
        case .roundedRect(let radius):
            target.radius = min(radius, diameter / 2)
        case .verticalBeam(let length):
            target.width = t.beamWidth * size
            target.height = length.clamped(t.beamMinimumLength, t.beamMaximumLength)
            target.radius = target.width / 2
        case .horizontalBeam(let length):
            target.width = length.clamped(t.beamMinimumLength, t.beamMaximumLength)
            target.height = t.beamWidth * size
            target.radius = target.height / 2
        case .path(let path):
            let b = path.bounds
            target.path = scaled ?? path
            target.width = b.width * size
            target.height = b.height * size
            target.radius = min(target.width, target.height) / 2
        }
        return target
    }

    /// A custom shape scaled by the size multiplier, or nil when there is none (or size is 1).
    static func scaledPath(of style: PointerStyle, size: Double) -> Path<PointerLocal>? {
        guard case .path(let p) = style.shape, size != 1 else { return nil }
        return p.scaled(by: size)
    }

    /// The checks `Region.validate` makes on a shape, for a style that has no region.
    static func isUsableUntargeted(_ style: PointerStyle) -> Bool {
        switch style.shape {
        case .verticalBeam(let l), .horizontalBeam(let l): return l.isFinite && l > 0
        case .roundedRect(let r): return r.isFinite && r >= 0
        case .path(let p): return (try? p.validate()) != nil
        case .effectDefault, .circle, .hidden: return true
        }
    }
}
