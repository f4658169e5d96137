import Glibc
import LodestoneSystem
import Rendering

/// Latin script: the ink drawn as a picture (black on white) and read by Tesseract's LSTM
/// model (`tesseract-ocr-eng`). Debian packages no on-device recogniser of Latin handwriting
/// from strokes (Zinnia's Tegaki models are Japanese and Chinese only, and no model for Latin
/// is packaged); Tesseract reads printed text, and reads handwriting rendered from the strokes
/// as well as `make bench` reports.
///
/// One rendering reads some words and misses others (the letters' size and the line's width
/// change what Tesseract sees), so the ink is drawn in a few `renderings` and read as one
/// line and as one word; the reading Tesseract is surest of (its mean word confidence) wins.
/// `make bench` measured each alone at 39–52% of the English samples.
struct LatinReader {
    /// Where pictures and Tesseract's output go (a private directory of the helper's).
    let directory: String

    struct Rendering {
        /// The ink's height in the picture, pixels.
        var height: Double
        /// The line's width, as a share of the pen's.
        var width: Double
        /// Tesseract's page segmentation: 7 one line, 8 one word.
        var segmentation: String
    }
    static let renderings = [Rendering(height: 64, width: 1.4, segmentation: "7"), Rendering(height: 64, width: 1.4, segmentation: "8"),
                             Rendering(height: 96, width: 1.4, segmentation: "8"), Rendering(height: 80, width: 0.7, segmentation: "8")]
    static let margin = 24.0

    func read(_ strokes: [[InkPoint]], language: String) throws(SystemError) -> String {
        var best: (text: String, confidence: Double)?
        for (i, r) in Self.renderings.enumerated() {
            guard let reading = try read(strokes, language: language, rendering: r, name: "\(i)") else { continue }
            if reading.confidence > best?.confidence ?? -1 { best = reading }
        }
        return best?.text ?? ""
    }

    private func read(_ strokes: [[InkPoint]], language: String, rendering r: Rendering, name: String) throws(SystemError) -> (text: String, confidence: Double)? {
        let b = bounds(strokes)
        guard b.width > 0 || b.height > 0 else { return nil }
        // A flat stroke (a dash) keeps its own size.
        let scale = b.height > 8 ? r.height / b.height : 1
        let w = Int32((b.width * scale + 2 * Self.margin).rounded(.up)), h = Int32((b.height * scale + 2 * Self.margin).rounded(.up))
        guard w < 8192, h < 8192 else { throw SystemError("the ink is too large to read (\(w)×\(h) pixels)") }
        let image = Image(width: w, height: h, format: .xrgb8888)
        image.fill(PixelRect(x: 0, y: 0, width: w, height: h), color: 0xffff_ffff)
        InkPainter.draw(strokes, into: image, origin: (b.x - Self.margin / scale, b.y - Self.margin / scale), scale: scale,
                        base: 3.5 / max(scale, 0.5) * r.width, color: 0xff00_0000)
        let picture = directory + "/ink\(name).png", out = directory + "/text\(name)"
        try PNG.write(image, to: picture)
        defer { unlink(picture); unlink(out + ".tsv") }
        // Its progress messages go nowhere: stdout is Lodestone's pipe, stderr the log.
        let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        defer { close(null) }
        let tesseract = try ChildProcess(["tesseract", picture, out, "--psm", r.segmentation, "-l", language == "en" ? "eng" : language, "tsv"],
                                         environment: ["OMP_THREAD_LIMIT": "1"], passing: [(null, 1), (null, 2)])
        var status: Int32 = 0
        while waitpid(tesseract.pid, &status, 0) < 0 && lastErrno == EINTR {}
        guard status == 0 else { throw SystemError("tesseract exited with status \(status >> 8)") }
        return Self.words(tsv: readFile(out + ".tsv"))
    }

    /// The words of Tesseract's TSV (level 5 rows: `… conf text`) and their mean confidence.
    static func words(tsv: String) -> (text: String, confidence: Double)? {
        var words: [String] = [], confidences: [Double] = []
        for row in tsv.split(separator: "\n").dropFirst() {
            let columns = row.split(separator: "\t", omittingEmptySubsequences: false)
            guard columns.count >= 12, columns[0] == "5", let conf = Double(columns[10]), conf >= 0 else { continue }
            let word = columns[11...].joined(separator: " ").split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
            guard !word.isEmpty else { continue }
            words.append(word)
            confidences.append(conf)
        }
        guard !words.isEmpty else { return nil }
        return (words.joined(separator: " "), confidences.reduce(0, +) / Double(confidences.count))
    }
}

func readFile(_ path: String) -> String {
    guard let f = fopen(path, "r") else { return "" }
    defer { fclose(f) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
        let n = fread(&chunk, 1, chunk.count, f)
        if n <= 0 { break }
        bytes += chunk[..<n]
    }
    return String(decoding: bytes, as: UTF8.self)
}
