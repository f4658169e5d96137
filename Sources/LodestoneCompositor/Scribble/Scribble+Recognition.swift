import AdaptivePointerEngine
import PointerAdaptation
import Rendering
import WaylandServer

/// After the pen rests: the strokes read (`ScribbleRecognizer`), or taken for a gesture
/// (`ScribbleGesture`), and what the answer becomes: text committed through the field's text
/// input or sent to an app's writing area, a selection, a deletion; then the ink fades.
extension Scribble {
    // MARK: Text

    /// The text input of the field written on, when it is the active one.
    private var fieldInput: (any AppTextInput)? {
        guard writingArea == nil, let active = textInputs.active, let field, active.focus === field, active.current.enabled else { return nil }
        return active
    }

    /// The first stroke in an empty field (or one that reports no text): its placeholder hides
    /// at once (a preedit). A field with text has no placeholder, and a composition begun
    /// there could end after a line's selection and collapse it (Firefox).
    func beganWriting() {
        guard let input = fieldInput, input.current.surrounding?.text.isEmpty ?? true else { return }
        input.apply(preedit: (Self.preedit, Self.preeditEnd, Self.preeditEnd), commit: nil, delete: (0, 0))
    }

    /// The pen rested: the strokes go to the recogniser.
    func paused() {
        guard press == nil, !ink.isEmpty else { return }
        if ScribbleGesture.isScratch(ink.strokes) { return scratched() }
        recognizing = true
        log.debug("scribble: \(ink.strokes.count) strokes: line \(ScribbleGesture.isLine(ink.strokes)), circle \(ScribbleGesture.isCircle(ink.strokes))")
        if let (a, b) = ScribbleGesture.selection(ink.strokes), writingArea == nil, let surface = field, let window = scene.window(of: surface) {
            // A line through text, or a circle around it, selects it (AT-SPI); with no text
            // there, it is writing (a dash, an "o"). The stroke's preedit goes first: ending a
            // composition collapses Firefox's selection.
            fieldInput?.apply(preedit: nil, commit: nil, delete: (0, 0))
            lineAsked += 1
            let asked = lineAsked
            accessibility.selectText(in: window, from: Point(x: a.x, y: a.y), to: Point(x: b.x, y: b.y)) { [weak self] selected in
                guard let self, self.recognizing, self.lineAsked == asked else { return }
                if selected { return self.selectedByLine() }
                self.recognize()
            }
            return
        }
        recognize()
    }

    /// The strokes go to the recogniser, the field showing the preedit meanwhile.
    private func recognize() {
        log.debug("scribble: reading \(ink.strokes.count) strokes, \(ink.strokes.joined().count) points")
        fieldInput?.apply(preedit: (Self.preedit, Self.preeditEnd, Self.preeditEnd), commit: nil, delete: (0, 0))
        recognizer.recognize(ink.strokes, languages: settings.languages)
    }

    func answered(_ outcome: ScribbleRecognizer.Outcome) {
        guard recognizing else { return }
        recognizing = false
        switch outcome {
        case .text(let text) where !text.isEmpty:
            if let area = writingArea { return wroteInArea(area, text) }
            guard let input = fieldInput else {
                log.notice("scribble: recognised '\(text)', but its field has no active text input: nothing typed")
                return withdraw()
            }
            let spaced = ScribbleText.separated(text, after: input.current.surrounding)
            log.info("scribble: recognised '\(text)'")
            input.apply(preedit: nil, commit: spaced, delete: (0, 0))
            if let b = ink.bounds { lastTyped = Typed(surface: field, text: spaced, ink: b, before: ScribbleText.beforeCaret(input)) }
            fade()
        case .text:
            log.info("scribble: nothing recognised in the ink")
            withdraw()
        case .failed(let reason):
            log.warning("scribble: nothing typed: \(reason)")
            withdraw()
        }
    }

    /// A line selected the text it crossed: nothing is typed, the ink fades.
    private func selectedByLine() {
        recognizing = false
        log.info("scribble: a line through text selected it")
        fade()
    }

    /// Text read in a writing area goes to its region, with where the ink was (surface-local).
    private func wroteInArea(_ area: AdaptivePointerRegion, _ text: String) {
        guard let surface = field, let origin = scene.origin(of: surface), let b = ink.bounds else { return withdraw() }
        log.info("scribble: recognised '\(text)' in a writing area")
        let r = Rect<SurfaceLocal>(x: Double(b.x - origin.0), y: Double(b.y - origin.1), width: Double(b.width), height: Double(b.height))
        area.sendWritten(text, r)
        writingArea = nil
        fade()
    }

    /// A scratch: across what Scribble typed last in this field, that text is deleted
    /// (`delete_surrounding_text`, its bytes before the caret), if the caret is still after it
    /// as far as the app says (its surrounding text, when it reports one that ends there, or
    /// none changed since). Anywhere else nothing is deleted: Lodestone does not know which
    /// text lies under the ink.
    private func scratched() {
        guard let typed = lastTyped, typed.surface === field, let input = fieldInput, let b = ink.bounds,
              !b.intersection(typed.ink).isEmpty else {
            log.info("scribble: a scratch over no text it typed: nothing deleted")
            return withdraw()
        }
        // The caret is after it: the app says so, or has said nothing new since.
        let now = ScribbleText.beforeCaret(input)
        guard now == nil || now == typed.before || now!.hasSuffix(typed.text) else {
            log.info("scribble: a scratch, but the caret moved away from '\(typed.text)': nothing deleted")
            return withdraw()
        }
        log.info("scribble: scratched out '\(typed.text)'")
        lastTyped = nil
        input.apply(preedit: nil, commit: nil, delete: (UInt32(typed.text.utf8.count), 0))
        fade()
    }

    /// The writing is abandoned (nothing recognised, the recogniser failed, another field):
    /// the preedit goes, the ink at once.
    func withdraw() {
        if recognizing { recognizer.cancel(); recognizing = false }
        fieldInput?.apply(preedit: nil, commit: nil, delete: (0, 0))
        pauseTimer?.arm(milliseconds: 0)
        fadeTimer?.arm(milliseconds: 0)
        damageInk()
        ink.clear()
        field = nil
        writingArea = nil
    }

    /// The committed text is there: the ink fades out over ~200 ms.
    private func fade() {
        field = nil
        fadeStep()
    }

    func fadeStep() {
        damageInk()
        ink.alpha -= 0.125
        if ink.alpha <= 0 { ink.clear(); return }
        fadeTimer?.arm(milliseconds: 25)
    }
}
