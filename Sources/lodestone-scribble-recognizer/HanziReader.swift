import CZinnia
import LodestoneSystem
import Rendering

/// Japanese and Chinese: Zinnia classifies each character from its strokes with the Tegaki
/// models Debian packages (`tegaki-zinnia-japanese`, `tegaki-zinnia-simplified-chinese`).
/// Zinnia reads one character at a time: the strokes are cut into characters left to right,
/// a stroke that starts more than `advance` line heights right of its character's left edge
/// beginning the next (written characters are about as wide as the line is tall).
final class HanziReader {
    /// `zinnia_recognizer_t *`, open on one model.
    private let recognizer: OpaquePointer

    static let models = ["ja": "/usr/share/tegaki/models/zinnia/handwriting-ja.model",
                         "zh": "/usr/share/tegaki/models/zinnia/handwriting-zh_CN.model"]
    /// Where a stroke begins the next character, in line heights from the character's left.
    static let advance = 0.9
    /// The square Zinnia is given each character in.
    static let size = 300.0

    init(language: String) throws(SystemError) {
        guard let path = Self.models[language] else { throw SystemError("no Zinnia model for '\(language)'") }
        guard let r = zinnia_recognizer_new() else { throw SystemError("zinnia_recognizer_new failed") }
        guard zinnia_recognizer_open(r, path) != 0 else {
            let reason = String(cString: zinnia_recognizer_strerror(r))
            zinnia_recognizer_destroy(r)
            throw SystemError("cannot open the Zinnia model \(path)", reason: reason)
        }
        recognizer = r
    }

    deinit { zinnia_recognizer_destroy(recognizer) }

    func read(_ strokes: [[InkPoint]]) -> String {
        Self.characters(strokes).map(classify).joined()
    }

    /// The strokes cut into characters, left to right.
    static func characters(_ strokes: [[InkPoint]]) -> [[[InkPoint]]] {
        let line = max(bounds(strokes).height, 1)
        var characters: [[[InkPoint]]] = []
        var left = -Double.infinity
        for stroke in strokes {
            let x = stroke.map(\.x).min() ?? 0
            if characters.isEmpty || x > left + advance * line {
                characters.append([])
                left = x
            }
            characters[characters.count - 1].append(stroke)
        }
        return characters
    }

    /// Zinnia's best guess for one character ("" when it has none).
    private func classify(_ strokes: [[InkPoint]]) -> String {
        let b = bounds(strokes)
        let side = max(b.width, b.height, 1)
        // Centred in the square, as the models' samples are.
        let (dx, dy) = ((side - b.width) / 2, (side - b.height) / 2)
        let scale = Self.size / side
        guard let character = zinnia_character_new() else { return "" }
        defer { zinnia_character_destroy(character) }
        zinnia_character_set_width(character, Int(Self.size))
        zinnia_character_set_height(character, Int(Self.size))
        for (id, stroke) in strokes.enumerated() {
            for p in stroke {
                zinnia_character_add(character, id, Int32(((p.x - b.x + dx) * scale).rounded()), Int32(((p.y - b.y + dy) * scale).rounded()))
            }
        }
        guard let result = zinnia_recognizer_classify(recognizer, character, 5) else { return "" }
        defer { zinnia_result_destroy(result) }
        guard zinnia_result_size(result) > 0, let value = zinnia_result_value(result, 0) else { return "" }
        return String(cString: value)
    }
}
