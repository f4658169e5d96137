import Glibc
import LodestoneSystem
import Rendering

/// Latin script: the ink drawn as a picture (black on white, the word's height scaled to
/// the size Tesseract reads best) and read by Tesseract's LSTM model (`tesseract-ocr-eng`),
/// one line of text (`--psm 7`). Debian packages no on-device recogniser of Latin
/// handwriting from strokes (Zinnia's Tegaki models are Japanese and Chinese only, and no
/// model for Latin is packaged); Tesseract reads printed text, and reads handwriting
/// rendered from the strokes as well as `make bench` reports.
struct LatinReader {
    /// Where pictures and Tesseract's output go (a private directory of the helper's).
    let directory: String
    /// The ink's height in the picture, pixels: Tesseract reads letters about 30–40 px tall best.
    static let height = 64.0
    static let margin = 24.0

    func read(_ strokes: [[InkPoint]], language: String) throws(SystemError) -> String {
        let b = bounds(strokes)
        guard b.width > 0 || b.height > 0 else { return "" }
        // A flat stroke (a dash) keeps its own size.
        let scale = b.height > 8 ? Self.height / b.height : 1
        let w = Int32((b.width * scale + 2 * Self.margin).rounded(.up)), h = Int32((b.height * scale + 2 * Self.margin).rounded(.up))
        guard w < 8192, h < 8192 else { throw SystemError("the ink is too large to read (\(w)×\(h) pixels)") }
        let image = Image(width: w, height: h, format: .xrgb8888)
        image.fill(PixelRect(x: 0, y: 0, width: w, height: h), color: 0xffff_ffff)
        InkPainter.draw(strokes, into: image, origin: (b.x - Self.margin / scale, b.y - Self.margin / scale), scale: scale,
                        base: 3.5 / max(scale, 0.5) * 1.4, color: 0xff00_0000)
        let picture = directory + "/ink.png", out = directory + "/text"
        try PNG.write(image, to: picture)
        unlink(out + ".txt")
        // Its progress messages go nowhere: stdout is Lodestone's pipe, stderr the log.
        let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        defer { close(null) }
        let tesseract = try ChildProcess(["tesseract", picture, out, "--psm", "7", "-l", language == "en" ? "eng" : language],
                                         environment: ["OMP_THREAD_LIMIT": "1"], passing: [(null, 1), (null, 2)])
        var status: Int32 = 0
        while waitpid(tesseract.pid, &status, 0) < 0 && lastErrno == EINTR {}
        guard status == 0 else { throw SystemError("tesseract exited with status \(status >> 8)") }
        return clean(readFile(out + ".txt"))
    }

    /// Tesseract's text on one line, trimmed.
    private func clean(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
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
