/// An RGBA colour, components in 0…1 (straight alpha).
public struct PointerColor: Hashable, Sendable {
    public var red, green, blue, alpha: Double

    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// The translucent grey of the iPadOS pointer.
    public static let standard = PointerColor(red: 0.33, green: 0.33, blue: 0.35, alpha: 0.72)
    public static let white = PointerColor(red: 1, green: 1, blue: 1)
    public static let black = PointerColor(red: 0, green: 0, blue: 0)
}

/// A stroke around the pointer (accessibility: border / increased contrast).
public struct PointerBorder: Hashable, Sendable {
    public var width: Double
    public var color: PointerColor

    public init(width: Double, color: PointerColor) {
        self.width = width
        self.color = color
    }
}

/// The user's accessibility choices. Change them with `PointerEngine.updateSettings(_:)`.
public struct PointerSettings: Hashable, Sendable {
    /// The pointer's form where it follows the hand.
    ///
    /// Both styles keep every content effect (highlight, lift, hover), the beam over text,
    /// accessories, band selection and annotations. Where the circle would morph into a
    /// platter, a beam, an element's outline or a custom shape, the arrow cross-fades into it
    /// instead (the custom-morph spring, 0.24 s; a quick fade with reduce motion): the arrow
    /// fades out where the hand is while the shape grows in from the arrow's bounds, and back.
    public enum Style: String, CaseIterable, Hashable, Sendable {
        /// The iPadOS 13–18 adaptive pointer: a translucent circle, magnetic by default.
        case circle
        /// iPadOS 26: a pointed arrow (`PointerArrow`) whose tip is the hotspot and tracks the
        /// hand 1:1; magnetism is off unless asked for.
        case arrow
    }

    public var style: Style
    /// Scales the circle, beam width and accessories (1…4).
    public var sizeMultiplier: Double
    public var color: PointerColor
    /// Draw `border` around the pointer.
    public var showsBorder: Bool
    public var border: PointerBorder
    /// Opaque pointer colour and always a border.
    public var increaseContrast: Bool
    /// No overshoot, no parallax or slip, quick fades instead of shape morphs.
    public var reduceMotion: Bool
    /// Magnetism as the user set it; nil follows the style (on for the circle, off for the arrow).
    public var magnetism: Bool?
    /// Off: no pull on entry, no flick capture, no text snapping; regions engage at their frames.
    /// Setting it sets `magnetism`, which then wins over the style's default.
    public var magnetismEnabled: Bool {
        get { magnetism ?? (style == .circle) }
        set { magnetism = newValue }
    }
    /// Hide after inactivity and while typing.
    public var autoHide: Bool
    /// Shaking the pointer grows it, to find it (`ShakeToFind`).
    public var shakeToFind: Bool
    /// How much a shake grows the pointer (1…8).
    public var shakeMagnification: Double
    /// Reference defaults; tests and experiments adjust them here.
    public var tuning: PointerTuning

    public init(style: Style = .circle, sizeMultiplier: Double = 1, color: PointerColor = .standard, showsBorder: Bool = false,
                border: PointerBorder = PointerBorder(width: 1.5, color: .white),
                increaseContrast: Bool = false, reduceMotion: Bool = false,
                magnetismEnabled: Bool? = nil, autoHide: Bool = true, shakeToFind: Bool = true,
                shakeMagnification: Double = 3, tuning: PointerTuning = PointerTuning()) {
        self.style = style
        self.sizeMultiplier = sizeMultiplier
        self.color = color
        self.showsBorder = showsBorder
        self.border = border
        self.increaseContrast = increaseContrast
        self.reduceMotion = reduceMotion
        self.magnetism = magnetismEnabled
        self.autoHide = autoHide
        self.shakeToFind = shakeToFind
        self.shakeMagnification = shakeMagnification
        self.tuning = tuning
    }

    /// `sizeMultiplier` limited to what the renderer supports.
    var size: Double { sizeMultiplier.isFinite ? min(max(sizeMultiplier, 1), 4) : 1 }

    /// `shakeMagnification` limited to what stays on screen and crisp.
    var shakeGrowth: Double { shakeMagnification.isFinite ? min(max(shakeMagnification, 1), 8) : 1 }
}

/// The reference defaults observed in iPadOS 18 (the "Reference defaults" table in docs/configuration.md), in
/// points and seconds. One place, so the numbers are not scattered through the motion code.
public struct PointerTuning: Hashable, Sendable {
    public var pointerDiameter = 19.0
    public var pressedScale = 0.9
    public var beamWidth = 3.0
    public var beamMinimumLength = 24.0
    public var beamMaximumLength = 100.0
    /// Highlight platter = element + 4 (2 per side).
    public var platterGrowth = 4.0
    public var parallax = 0.3
    public var slipFactor = 0.1
    public var maximumSlip = 15.0
    public var liftGrowth = 7.6
    /// Press feedback of a lifted element, whose pointer is hidden beneath it: while the
    /// button is held it shrinks slightly, to this fraction of its lifted size.
    public var liftPressedScale = 0.95
    public var hoverGrowth = 6.0
    public var specularMinimumOpacity = 0.05
    public var specularMaximumOpacity = 0.08
    /// The lift/hover shadow: opacity at its darkest, blur radius (σ = radius / 2, gone at the
    /// radius) and how far it falls below the element, soft and low like iPadOS's lift.
    public var shadowOpacity = 0.25
    public var shadowRadius = 20.0
    public var shadowOffsetY = 8.0
    public var tintOpacity = 0.1

    public var shapeSpring = Spring.shape
    public var customMorphSpring = Spring.customMorph
    public var accessorySpring = Spring.accessory
    public var textSpring = Spring.text
    /// The pointer catching up with the device after magnetism lets go: quick for a mouse,
    /// softer for a trackpad whose flicks carry momentum.
    public var mouseRecenterSpring = Spring(response: 0.12, dampingRatio: 1)
    public var trackpadRecenterSpring = Spring(response: 0.22, dampingRatio: 1)
    public var pressSpring = Spring(response: 0.1, dampingRatio: 1)
    public var visibilitySpring = Spring(response: 0.2, dampingRatio: 1)
    /// Reduce motion replaces morphs by this quick fade.
    public var quickFadeSpring = Spring(response: 0.08, dampingRatio: 1)

    public var flickSpeedThreshold = 250.0
    public var velocitySmoothing = 0.75
    /// How far past the projected landing point (and its path) a target may lie.
    public var flickSearchRadius = 60.0
    /// Where a flick would land: UIKit's projection with the normal scroll-view deceleration
    /// (per millisecond), distance = speed / 1000 × rate / (1 − rate), about half a second of
    /// travel at the smoothed speed.
    public var flickDecelerationRate = 0.998
    /// Full opening angle of the search cone, degrees.
    public var flickConeAngle = 30.0

    public var regionExitDelay = 0.2
    /// Hit regions at most this far apart count as touching: one contiguous bar, whose gaps
    /// the exit delay bridges. The pointer's diameter: a gap too narrow to show the circle in
    /// without the flicker the guidelines warn about. Wider gaps separate elements, and
    /// leaving one lets it go at once.
    public var barGapTolerance = 19.0
    public var trackpadAutoHideDelay = 3.25
    public var mouseAutoHideDelay = 8.0

    public var accessorySize = 11.0
    public var accessoryGap = 2.0
    public var annotationCharacterWidth = 7.0
    public var annotationHeight = 22.0
    public var annotationGap = 6.0

    /// Drag distance before a press in a band region becomes a band selection.
    public var bandActivationDistance = 4.0
    /// Elements larger than this on a side get hover under `automatic`.
    public var largeElementSide = 120.0
    /// Fraction of a line the pointer may stray into the next line before the beam follows…
    public var textHysteresis = 0.15
    /// …and while selecting (button held), where wobble must not jump lines. Both stay under
    /// half a line (larger values act as 0.45): on a line's centre the pointer is on that line.
    public var textSelectingHysteresis = 0.45

    /// Shake to find (`ShakeToFind`): the window the shake is measured over, seconds; how
    /// many times the diagonal of its box the path must be; the least path, points; how long
    /// the pointer stays grown after the last shaking motion; the spring it grows and shrinks by.
    public var shakeWindow = 0.6
    public var shakeRatio = 4.0
    public var shakeMinimumPath = 400.0
    public var shakeHold = 0.5
    public var shakeSpring = Spring(response: 0.3, dampingRatio: 0.85)

    public init() {}
}
