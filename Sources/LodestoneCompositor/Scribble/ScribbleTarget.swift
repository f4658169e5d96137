import AdaptivePointerEngine
import PointerAdaptation
import WaylandServer

/// Where the pen may write: a text field, found in the order the app is best known by.
///
/// 0. A writing area the app declared (adaptive_pointer_region_v1 `set_writing_area`, since
///    4) under the point: the text goes to the region (`written`), not to a text input.
/// 1. A password field's active text input (content purpose `password` or `pin`) refuses
///    writing on its whole surface.
/// 2. What the app publishes through AT-SPI, from the window's last walk: editable text
///    (entries, text views, editable combo boxes) that is not greyed out is written in; any
///    other element there (a `password text`, a button, a label) is the app's. A field is
///    focused already when the active text input's caret is in it; else the first stroke
///    clicks it.
/// 3. Where AT-SPI knows nothing (no walk, no accessibility bus, an app that publishes no
///    geometry; not while a window walked before is walked again): the focused field, the
///    active text input on the surface the pen touched. Text input tells no field's extent,
///    only the caret's rectangle: the pen writes on the caret's line, from one line above it
///    to one below, across the surface (`band`). Without a rectangle, anywhere on the surface.
struct ScribbleTarget {
    /// The field already has the keyboard's text input: no click first.
    var isFocused: Bool
    /// The app's writing area, when the pen writes in one.
    var writingArea: AdaptivePointerRegion?

    /// Lines above and below the caret's that still count as its line.
    static let band = (above: 1.0, below: 1.0)

    /// zwp_text_input_v3's content purposes `password` (8) and `pin` (9): never written in.
    static func refuses(purpose: UInt32) -> Bool { purpose == 8 || purpose == 9 }

    static func find(at point: Point<Global>, surface: WlSurface, local: (x: Double, y: Double), regions: SceneRegions, textInputs: TextInputs,
                     window: DesktopWindow?, accessibility: Accessibility) -> ScribbleTarget? {
        if let area = regions.writingArea(of: surface, at: Point(x: local.x, y: local.y)) {
            return ScribbleTarget(isFocused: true, writingArea: area)
        }
        var caret: (x: Double, y: Double)?, onCaretLine = false, focusedSurface = false
        if let active = textInputs.active, active.focus === surface, active.current.enabled {
            if refuses(purpose: active.current.purpose) { return nil }
            focusedSurface = true
            if let c = active.current.cursor {
                let h = Double(max(c.height, 8))
                let top = Double(c.y) - band.above * h, bottom = Double(c.y) + h + band.below * h
                onCaretLine = local.y >= top && local.y <= bottom
                caret = (point.x - local.x + Double(c.x), point.y - local.y + Double(c.y) + h / 2)
            } else {
                onCaretLine = true
            }
        }
        if let window, let e = accessibility.writableText(in: window, at: point) {
            guard e.writable else { return nil }
            let inside = caret.map { $0.x >= e.x && $0.x <= e.x + e.width && $0.y >= e.y && $0.y <= e.y + e.height } ?? false
            return ScribbleTarget(isFocused: inside)
        }
        // The app's tree is being read again (a field took focus): what is under the pen is not
        // known yet, and the caret's line is the field focused before, which may be another
        // one (a CI run wrote into an entry with strokes over the password field below it).
        if let window, accessibility.isRereading(window) { return nil }
        return focusedSurface && onCaretLine ? ScribbleTarget(isFocused: true) : nil
    }
}
