import Foundation
import LodestoneTesting

/// `--scribble RECOGNIZER`: how much of the committed handwriting (Tests/data/scribble/strokes.txt:
/// English words traced from handwriting fonts, Japanese characters from KanjiVG) Scribble's
/// recogniser reads exactly, per language, and how long a recognition takes. Each sample is
/// sent in the recogniser's own protocol, in its own language (`en`, `ja`), as config.toml's
/// `[scribble] languages` would have it first.
func benchmarkScribble(recognizer: String, samples file: String) {
    guard let samples = try? ScribbleSample.load(file), !samples.isEmpty else {
        print("scribble: cannot read \(file)")
        exit(1)
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: recognizer)
    let requests = Pipe(), answers = Pipe()
    process.standardInput = requests
    process.standardOutput = answers
    do { try process.run() } catch {
        print("scribble: cannot start \(recognizer): \(error)")
        exit(1)
    }
    var buffered = Data()
    func readLine() -> String? {
        while true {
            if let newline = buffered.firstIndex(of: 0x0a) {
                let line = String(decoding: buffered[buffered.startIndex..<newline], as: UTF8.self)
                buffered.removeSubrange(buffered.startIndex...newline)
                return line
            }
            let chunk = answers.fileHandleForReading.availableData
            if chunk.isEmpty { return nil }
            buffered += chunk
        }
    }
    var exact: [String: Int] = [:], total: [String: Int] = [:], misses: [String: [String]] = [:]
    var times: [String: [Double]] = [:]
    let clock = ContinuousClock()
    for (i, sample) in samples.enumerated() {
        let start = clock.now
        requests.fileHandleForWriting.write(Data("recognize \(i + 1) \(sample.language) \(sample.encoded)\n".utf8))
        guard let line = readLine() else {
            print("scribble: the recogniser ended")
            exit(1)
        }
        times[sample.language, default: []].append(milliseconds(clock.now - start))
        let words = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        let text = words.count > 2 && words[0] == "text" ? String(words[2]) : "(\(line))"
        total[sample.language, default: 0] += 1
        if text == sample.text { exact[sample.language, default: 0] += 1 } else {
            misses[sample.language, default: []].append("\(sample.text)→\(text.isEmpty ? "∅" : text)")
        }
    }
    requests.fileHandleForWriting.closeFile()
    process.waitUntilExit()
    print("Scribble recognition (\(file.split(separator: "/").suffix(3).joined(separator: "/"))):")
    for language in total.keys.sorted() {
        let n = total[language] ?? 0, ok = exact[language] ?? 0
        let t = (times[language] ?? []).sorted()
        let median = t.isEmpty ? 0 : t[t.count / 2]
        print(String(format: "  %@: %d of %d read exactly (%.0f%%), median %.0f ms a recognition", language, ok, n, 100 * Double(ok) / Double(max(n, 1)), median))
        print("    missed: " + (misses[language] ?? []).joined(separator: ", "))
    }
}
