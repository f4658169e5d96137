/// What Scribble reads of a field's text to type into it well: pure functions of what the app
/// reported (`set_surrounding_text`).
enum ScribbleText {
    /// The text before the caret, as the app last reported it (nil: it reports none).
    static func beforeCaret(_ input: any AppTextInput) -> String? {
        guard let s = input.current.surrounding, s.cursor >= 0 else { return nil }
        return String(decoding: s.text.utf8.prefix(Int(s.cursor)), as: UTF8.self)
    }

    /// A word written after a word: a space between them, as iPadOS puts one.
    static func separated(_ text: String, after surrounding: (text: String, cursor: Int32, anchor: Int32)?) -> String {
        guard let s = surrounding, s.cursor > 0, let first = text.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic || first.properties.numericType != nil else { return text }
        let before = s.text.utf8.prefix(Int(s.cursor))
        guard let last = before.last, last > 0x20, last < 0x80 else { return text }
        let c = Character(Unicode.Scalar(last))
        return c.isLetter || c.isNumber || c.isPunctuation ? " " + text : text
    }
}
