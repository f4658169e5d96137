import AdaptivePointerEngine

/// Selecting text through AT-SPI, for Scribble's line through text: text input has no way to
/// set an app's selection (zwp_text_input_v3 has no such event), AT-SPI's Text interface has.
extension Accessibility {
    /// Selects the characters of `toplevel`'s writable text from the one at the global point
    /// `from` to the one at `to`, both included (`Text.GetOffsetAtPoint` at each, then `Text.SetSelection`, else
    /// `AddSelection`). `done` hears, from the loop, whether the app selected something; false
    /// at once when no walk knows a writable element at `from`, or it has no AT-SPI node.
    package func selectText(in toplevel: AdaptedWindow, from: Point<Global>, to: Point<Global>, done: @escaping (Bool) -> Void) {
        guard enabled, let bus, let window = windows[ObjectIdentifier(toplevel)] else { return done(false) }
        let origin = toplevel.adaptedFrame.origin
        let (x, y) = (from.x - origin.x, from.y - origin.y)
        let hit = window.elements.filter { $0.x <= x && x < $0.x + $0.width && $0.y <= y && y < $0.y + $0.height }
            .max { $0.depth < $1.depth }
        guard let hit, hit.writable, let source = hit.source else { return done(false) }
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
        offset(at: from) { start in
            offset(at: to) { end in
                guard let start, let end, start != end else { return done(false) }
                // Both characters the line's ends are on are selected: the end offset is past the last.
                let range: [DBusArgument] = [.int32(min(start, end)), .int32(max(start, end) + 1)]
                let called = bus.call(source.app, source.path, "org.a11y.atspi.Text", "SetSelection", [.int32(0)] + range) { reply in
                    if case .success(let m) = reply, m.readBool() == true { return done(true) }
                    let added = bus.call(source.app, source.path, "org.a11y.atspi.Text", "AddSelection", range) { reply in
                        if case .success(let m) = reply, m.readBool() == true { return done(true) }
                        done(false)
                    }
                    if !added { done(false) }
                }
                if !called { done(false) }
            }
        }
    }
}
