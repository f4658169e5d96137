import AdaptivePointerEngine

/// The form Lodestone's own adaptive pointer (drawn by `AdaptivePointerOverlay` or the cursor
/// plane) takes for an app's cursor name: how the adaptive pointer shows a cursor name (the table in docs/accessibility.md, "Cursor
/// names"). Apps without regions still say what their cursor means; this turns the name
/// into the engine's terms, the way iPadOS draws its standard controls.
package struct AdaptivePointerForm: Equatable, Sendable {
    package init(style: PointerStyle, spins: Bool = false) {
        self.style = style
        self.spins = spins
    }

    /// The style where no region targets the pointer (`PointerInput.untargetedStyle`).
    package var style: PointerStyle
    /// Busy: the accessory orbits the pointer (wait, progress).
    package var spins = false

    /// The plain circle.
    package static let circle = AdaptivePointerForm(style: PointerStyle())
    /// An app that hid its cursor (a null `set_cursor`).
    package static let hidden = AdaptivePointerForm(style: PointerStyle(shape: .hidden))

    /// Seconds per turn of a busy accessory.
    package static let spinPeriod = 1.2
    /// The beam over text whose line height is unknown (the shortest iPadOS beam).
    package static let textBeamLength = 24.0

    /// One turn of the busy accessory `fraction` of the way round.
    package func spinning(at fraction: Double) -> AdaptivePointerForm {
        guard spins, let dot = style.accessories.first else { return self }
        var s = self
        var a = dot
        a.position.angle = fraction * 2 * Double.pi
        s.style.accessories = (try? AccessorySet([a])) ?? style.accessories
        return s
    }
}

extension CursorName {
    /// The adaptive form of this cursor, or nil where there is none worth having: then the
    /// theme's own image is drawn (`CursorThemes.standardCursor`).
    package var adaptiveForm: AdaptivePointerForm? {
        func with(_ accessories: [(AccessoryShape, Double)], shape: PointerShape = .circle) -> AdaptivePointerForm {
            let set = (try? AccessorySet(accessories.map { PointerAccessory($0.0, position: AccessoryPosition(degrees: $0.1)) })) ?? .empty
            return AdaptivePointerForm(style: PointerStyle(effect: .none, shape: shape, accessories: set))
        }
        switch self {
        case .default, .pointer, .grab, .grabbing: return .circle
        case .text: return with([], shape: .verticalBeam(length: AdaptivePointerForm.textBeamLength))
        case .verticalText: return with([], shape: .horizontalBeam(length: AdaptivePointerForm.textBeamLength))
        case .crosshair: return with([], shape: .path(Self.thinCross))
        case .wait, .progress:
            var busy = with([(.path(Self.dot), 0)])
            busy.spins = true
            return busy
        case .copy: return with([(.plus, 0)])
        case .alias: return with([(.arrow, 45)])
        case .noDrop, .notAllowed: return with([(.circleSlash, 0)])
        case .zoomIn: return with([(.plus, 0)])
        case .zoomOut: return with([(.minus, 0)])
        // Ask: the copy's plus with a move arrow, for the target will offer both.
        case .dndAsk: return with([(.plus, 0), (.arrow, 90)])
        case .move, .allScroll, .allResize: return with([(.arrow, 0), (.arrow, 90), (.arrow, 180), (.arrow, 270)])
        case .nResize: return with([(.arrow, 0)])
        case .neResize: return with([(.arrow, 45)])
        case .eResize: return with([(.arrow, 90)])
        case .seResize: return with([(.arrow, 135)])
        case .sResize: return with([(.arrow, 180)])
        case .swResize: return with([(.arrow, 225)])
        case .wResize: return with([(.arrow, 270)])
        case .nwResize: return with([(.arrow, 315)])
        case .ewResize, .colResize: return with([(.arrow, 270), (.arrow, 90)])
        case .nsResize, .rowResize: return with([(.arrow, 0), (.arrow, 180)])
        case .neswResize: return with([(.arrow, 45), (.arrow, 225)])
        case .nwseResize: return with([(.arrow, 315), (.arrow, 135)])
        case .contextMenu, .help, .cell: return nil
        }
    }

    /// A thin cross 21 points across, lines 2 points wide (crosshair).
    private static let thinCross: Path<PointerLocal> = {
        typealias P = Point<PointerLocal>
        let r = 10.5, w = 1.0
        return Path([.move(to: P(x: -w, y: -r)), .line(to: P(x: w, y: -r)), .line(to: P(x: w, y: -w)),
                     .line(to: P(x: r, y: -w)), .line(to: P(x: r, y: w)), .line(to: P(x: w, y: w)),
                     .line(to: P(x: w, y: r)), .line(to: P(x: -w, y: r)), .line(to: P(x: -w, y: w)),
                     .line(to: P(x: -r, y: w)), .line(to: P(x: -r, y: -w)), .line(to: P(x: -w, y: -w)), .close])
    }()

    /// A dot (the busy accessory), 6 points across.
    private static let dot: Path<PointerLocal> = {
        typealias P = Point<PointerLocal>
        let r = 3.0, k = 0.5522847498 * r
        var p = Path<PointerLocal>()
        p.move(to: P(x: 0, y: -r))
        p.addCurve(to: P(x: r, y: 0), control1: P(x: k, y: -r), control2: P(x: r, y: -k))
        p.addCurve(to: P(x: 0, y: r), control1: P(x: r, y: k), control2: P(x: k, y: r))
        p.addCurve(to: P(x: -r, y: 0), control1: P(x: -k, y: r), control2: P(x: -r, y: k))
        p.addCurve(to: P(x: 0, y: -r), control1: P(x: -r, y: -k), control2: P(x: -k, y: -r))
        p.close()
        return p
    }()
}
