import Glibc
import LodestoneSystem

// Scribble's recogniser (issue 40), started by Lodestone with its requests on stdin and its
// answers on stdout, one line each (ScribbleRecognizer.swift, docs/scribble.md). It runs
// until stdin ends.

/// Reads each request by its languages in order; the first that finds text answers.
final class Recognizer {
    let latin: LatinReader
    private var hanzi: [String: HanziReader] = [:]

    init(directory: String) { latin = LatinReader(directory: directory) }

    func answer(_ request: Request) -> String {
        var problems: [String] = []
        for language in request.languages {
            do {
                let text: String
                switch language {
                case "en": text = try latin.read(request.strokes, language: language)
                case "ja", "zh":
                    let reader = try hanzi[language] ?? HanziReader(language: language)
                    hanzi[language] = reader
                    text = reader.read(request.strokes)
                default: throw SystemError("no recogniser for the language '\(language)'")
                }
                if !text.isEmpty { return "text \(request.id) \(text)" }
            } catch {
                problems.append("\(language): \(error)")
            }
        }
        return problems.isEmpty ? "text \(request.id) " : "error \(request.id) \(problems.joined(separator: "; "))"
    }
}

/// One line to Lodestone, at once (stdout is a pipe: C's stdio would hold it back).
func say(_ line: String, to fd: Int32 = 1) {
    let bytes = Array((line + "\n").utf8)
    var offset = 0
    while offset < bytes.count {
        let n = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        if n < 0 && lastErrno == EINTR { continue }
        guard n > 0 else { exit(1) }
        offset += n
    }
}

let base = getenv("XDG_RUNTIME_DIR").map { String(cString: $0) } ?? "/tmp"
var template = Array("\(base)/lodestone-scribble-XXXXXX".utf8CString)
guard let made = mkdtemp(&template) else {
    say("lodestone-scribble-recognizer: cannot make a working directory in \(base)", to: 2)
    exit(1)
}
let directory = String(cString: made)
let recognizer = Recognizer(directory: directory)
while let line = readLine(strippingNewline: true) {
    var problem = ""
    guard let request = Request(line: Substring(line), problem: &problem) else {
        say("error 0 \(problem)")
        continue
    }
    say(recognizer.answer(request))
}
// Each reading removed its own files.
rmdir(directory)
