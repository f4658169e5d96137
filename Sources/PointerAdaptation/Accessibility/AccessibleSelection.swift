import AdaptivePointerEngine

/// Selecting text through AT-SPI, for Scribble's line through text or circle around it: text input has no way to
/// set an app's selection (zwp_text_input_v3 has no such event), AT-SPI's Text interface has.
extension Accessibility {
    /// Selects the characters of `toplevel`'s writable text from the one at the global point
    /// `from` to the one at `to`, both included (`Text.GetOffsetAtPoint` at each, then `Text.SetSelection`, else
    /// `AddSelection`). An end that falls beside the text (a circle's ink lies around it) is
    /// moved towards the other, 3 points at a time, up to 8 times, until the app names a
    /// character there. `done` hears, from the loop, whether the app selected something; false
    /// at once when no walk knows a writable element between them, or it has no AT-SPI node.
    package func selectText(in toplevel: AdaptedWindow, from: Point<Global>, to: Point<Global>, done: @escaping (Bool) -> Void) {
        guard enabled, let bus, let window = windows[ObjectIdentifier(toplevel)] else { return done(false) }
        let origin = toplevel.adaptedFrame.origin
        // The element under the gesture's middle: its ends may lie beside the field's text,
        // and a circle's beside the field itself (Qt 6's find field starts at its text).
        let (x, y) = ((from.x + to.x) / 2 - origin.x, (from.y + to.y) / 2 - origin.y)
        let hit = window.elements.filter { $0.x <= x && x < $0.x + $0.width && $0.y <= y && y < $0.y + $0.height }
            .max { $0.depth < $1.depth }
        guard let hit, hit.writable, let source = hit.source else {
            log.debug("accessibility: no writable text at \(Int(x)),\(Int(y)) to select in")
            return done(false)
        }
        // The element's place as the app reported it: the points in the app's coordinates.
        let (dx, dy) = (source.x - hit.x - origin.x, source.y - hit.y - origin.y)
        func offset(at p: Point<Global>, _ answer: @escaping (Int32?) -> Void) {
            let called = bus.call(source.app, source.path, "org.a11y.atspi.Text", "GetOffsetAtPoint",
                                  [.int32(Int32(clamping: Int((p.x + dx).rounded()))), .int32(Int32(clamping: Int((p.y + dy).rounded()))), .uint32(0)]) { reply in
                guard case .success(let m) = reply, let o = m.readInt32(), o >= 0 else { return answer(nil) }
                answer(o)
            }
            if !called { answer(nil) }
        }
        // The first character from `p` towards `q`, within 8 steps of 3 points.
        func offset(near p: Point<Global>, towards q: Point<Global>, tries: Int = 8, _ answer: @escaping (Int32?) -> Void) {
            offset(at: p) { found in
                let (dx, dy) = (q.x - p.x, q.y - p.y), length = (dx * dx + dy * dy).squareRoot()
                guard found == nil, tries > 0, length > 3 else { return answer(found) }
                offset(near: Point(x: p.x + dx / length * 3, y: p.y + dy / length * 3), towards: q, tries: tries - 1, answer)
            }
        }
        // `SetSelection` with each range in turn, else `AddSelection` with the first.
        func select(_ ranges: [[DBusArgument]], _ done: @escaping (Bool) -> Void, at index: Int = 0) {
            guard index < ranges.count else {
                let added = bus.call(source.app, source.path, "org.a11y.atspi.Text", "AddSelection", ranges[0]) { reply in
                    if case .success(let m) = reply, m.readBool() == true { return done(true) }
                    done(false)
                }
                if !added { done(false) }
                return
            }
            let called = bus.call(source.app, source.path, "org.a11y.atspi.Text", "SetSelection", [.int32(0)] + ranges[index]) { reply in
                if case .success(let m) = reply, m.readBool() == true { return done(true) }
                select(ranges, done, at: index + 1)
            }
            if !called { done(false) }
        }
        offset(near: from, towards: to) { start in
            offset(near: to, towards: from) { end in
                guard let start, let end, start != end else {
                    self.log.debug("accessibility: no text to select between \(Int(from.x)),\(Int(from.y)) (\(start.map(String.init) ?? "none")) and \(Int(to.x)),\(Int(to.y)) (\(end.map(String.init) ?? "none"))")
                    return done(false)
                }
                // Both characters the line's ends are on are selected: the end offset is past the
                // last. A point past the text's end is named by the offset after its last
                // character (Qt 6), and one past that is refused: then the range ends there.
                let (first, last) = (min(start, end), max(start, end))
                select([[.int32(first), .int32(last + 1)], [.int32(first), .int32(last)]], done)
            }
        }
    }
}
