/// How a hovered element tints itself under the hover effect.
public enum HoverTint: Hashable, Sendable {
    case none
    /// A translucent wash over the element.
    case overlay
    /// A translucent platter behind the element.
    case underlay
}

/// The content effect a region asks for (HIG "Pointer shape and content effects").
public enum PointerEffect: Hashable, Sendable {
    /// Chosen from the element: small and transparent → highlight, small and opaque → lift,
    /// large → hover (the HIG's guidance for standard effects).
    case automatic
    /// The pointer changes shape only if the region's shape says so.
    case none
    /// The pointer becomes a translucent platter behind the element, with parallax.
    case highlight
    /// The element scales up with shadow and specular highlight; the pointer fades beneath.
    case lift
    /// Custom tint/shadow/scale on the element; the pointer keeps its shape, no magnetism.
    case hover(tint: HoverTint = .overlay, shadow: Bool = false, scale: Bool = true)
}

/// What the automatic effect needs to know about an element's pixels.
public enum ElementBackground: Hashable, Sendable {
    case transparent
    case opaque
}

/// The pointer's shape over a region.
public enum PointerShape: Hashable, Sendable {
    /// Whatever the effect implies: platter for highlight, the element's outline for lift,
    /// the circle otherwise.
    case effectDefault
    case circle
    /// The region's frame with this corner radius.
    case roundedRect(radius: Double)
    /// An I-beam; `length` is the text line height (presented within 24…100).
    case verticalBeam(length: Double)
    /// The I-beam for vertical text; `length` is the column width.
    case horizontalBeam(length: Double)
    case hidden
    /// A custom outline around the pointer's centre; reached by cross-fade, not morph.
    case path(Path<PointerLocal>)

    /// Text shapes: they get text magnetism by default.
    public var isBeam: Bool {
        switch self {
        case .verticalBeam, .horizontalBeam: return true
        default: return false
        }
    }
}

/// Whether a region attracts the pointer.
public enum MagnetismMode: Hashable, Sendable {
    /// On for highlight, lift and text; off for hover and none (HIG "Pointer magnetism").
    case automatic
    case on
    case off
}

/// A set of axes (latching, constrained).
public struct Axes: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let horizontal = Axes(rawValue: 1)
    public static let vertical = Axes(rawValue: 2)
    public static let both: Axes = [.horizontal, .vertical]
}

/// Effect, shape and accessories of a region, as the client asked for them.
public struct PointerStyle: Hashable, Sendable {
    public var effect: PointerEffect
    public var shape: PointerShape
    public var accessories: AccessorySet

    public init(effect: PointerEffect = .automatic, shape: PointerShape = .effectDefault,
                accessories: AccessorySet = .empty) {
        self.effect = effect
        self.shape = shape
        self.accessories = accessories
    }
}

/// An effect after `automatic` has been decided.
public enum ResolvedEffect: Hashable, Sendable {
    case none
    case highlight
    case lift
    case hover(tint: HoverTint, shadow: Bool, scale: Bool)

    /// Magnetism under `MagnetismMode.automatic`.
    var attractsByDefault: Bool {
        switch self {
        case .highlight, .lift: return true
        case .none, .hover: return false
        }
    }
}

extension PointerStyle {
    /// Applies the HIG's rules for `automatic`. Text shapes never get a content effect.
    public func resolvedEffect(frame: Rect<Global>, background: ElementBackground,
                               largeElementSide: Double) -> ResolvedEffect {
        switch effect {
        case .none: return .none
        case .highlight: return .highlight
        case .lift: return .lift
        case .hover(let tint, let shadow, let scale): return .hover(tint: tint, shadow: shadow, scale: scale)
        case .automatic:
            if shape.isBeam { return .none }
            if frame.width > largeElementSide || frame.height > largeElementSide {
                // Large elements would crowd their neighbours if scaled: tint only.
                return .hover(tint: .overlay, shadow: false, scale: false)
            }
            return background == .opaque ? .lift : .highlight
        }
    }
}
