import AdaptivePointerEngine
import PointerAdaptation
import WaylandServer

/// Where the pen may write: a text field, found in the order the app is best known by.
///
/// 1. The focused field: the active text input (zwp_text_input_v3, or v1) on the surface the
///    pen touched, unless its content purpose is `password` or `pin`. Text input tells no
///    field's extent, only the caret's rectangle: the pen writes on the caret's line, from
///    one line above it to two below, across the surface (`band`). Without a rectangle,
///    anywhere on the surface.
/// 2. Editable text the app publishes through AT-SPI (entries, text views, editable combo
///    boxes; never a `password text`), from the window's last walk: that field is not
///    focused yet, unless the caret is in it, so the first stroke clicks it.
///
/// A password field's active text input refuses writing on its whole surface, whatever
/// AT-SPI says.
struct ScribbleTarget {
    /// The field already has the keyboard's text input: no click first.
    var isFocused: Bool

    /// Lines above and below the caret's that still count as its line.
    static let band = (above: 1.0, below: 2.0)

    /// zwp_text_input_v3's content purposes `password` (8) and `pin` (9): never written in.
    static func refuses(purpose: UInt32) -> Bool { purpose == 8 || purpose == 9 }

    static func find(at point: Point<Global>, surface: WlSurface, local: (x: Double, y: Double), textInputs: TextInputs,
                     window: DesktopWindow?, accessibility: Accessibility) -> ScribbleTarget? {
        var caret: (x: Double, y: Double)?
        if let active = textInputs.active, active.focus === surface, active.current.enabled {
            if refuses(purpose: active.current.purpose) { return nil }
            guard let c = active.current.cursor else { return ScribbleTarget(isFocused: true) }
            let h = Double(max(c.height, 8))
            let top = Double(c.y) - band.above * h, bottom = Double(c.y) + h + band.below * h
            if local.y >= top, local.y <= bottom { return ScribbleTarget(isFocused: true) }
            caret = (point.x - local.x + Double(c.x), point.y - local.y + Double(c.y) + h / 2)
        }
        guard let window, let e = accessibility.writableText(in: window, at: point) else { return nil }
        let inside = caret.map { $0.x >= e.x && $0.x <= e.x + e.width && $0.y >= e.y && $0.y <= e.y + e.height } ?? false
        return ScribbleTarget(isFocused: inside)
    }
}
