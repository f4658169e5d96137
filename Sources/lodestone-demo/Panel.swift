import AdaptivePointerClient

/// One sample surface of the demo: it declares its adaptive pointer regions,
/// draws itself, and reacts to the pointer (positions are window-local, the
/// logical position the compositor sends, so a captured pointer clicks the element).
protocol Panel: AnyObject {
    /// Shown above the panel: what it demonstrates.
    var caption: String { get }
    /// Where the panel sits in the window; `nil` for panels without a card (the toolbars).
    var card: Box? { get }
    /// Declares the panel's regions once; changes go through `PointerRegion.apply` and
    /// take effect with the window's next commit (every redraw commits).
    func declare(on regions: SurfaceRegions, _ invalidate: @escaping () -> Void)
    func draw(_ c: Canvas)
    /// Each returns true when the panel must be redrawn.
    func pointerMoved(to p: Point, dragging: Bool) -> Bool
    /// The press is given to the panel under it, and so is the matching release.
    func contains(_ p: Point) -> Bool
    func pointerPressed(at p: Point) -> Bool
    func pointerReleased(at p: Point) -> Bool
}

extension Panel {
    func pointerMoved(to p: Point, dragging: Bool) -> Bool { false }
    func contains(_ p: Point) -> Bool { card?.contains(p) ?? false }
    func pointerPressed(at p: Point) -> Bool { false }
    func pointerReleased(at p: Point) -> Bool { false }

    /// The content area of the card, under its caption.
    var content: Box {
        guard let card else { return Box(0, 0, 0, 0) }
        return Box(card.x + 14, card.y + 30, card.width - 28, card.height - 42)
    }
}

/// Stable region identifiers: the tour and its test assert them.
enum RegionID {
    static let barButtons: UInt32 = 101        // 101...104
    static let segments: UInt32 = 111          // 111...114
    static let icons: UInt32 = 201             // 201...208
    static let cards: UInt32 = 301             // 301, 302
    static let text: UInt32 = 401
    static let writingArea: UInt32 = 402      // below the text's last line (Scribble)
    static let splitHandle: UInt32 = 501
    static let dragChip: UInt32 = 601
    static let dropZone: UInt32 = 602
    static let lockSwitch: UInt32 = 603
    static let bandCanvas: UInt32 = 701
    static let graph: UInt32 = 801
    static let sketch: UInt32 = 901
    static let sketchClear: UInt32 = 902
    static let revealEdge: UInt32 = 1001
    static let hiddenBar: UInt32 = 1010
    static let hiddenBarButtons: UInt32 = 1011 // 1011...1015
}
