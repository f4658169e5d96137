import LodestoneSystem
import TOMLKit

/// Parses TOML with TOMLKit (toml++) in a forked child (`ForkedComputation`), so that no
/// byte sequence in config.toml can crash or hang Lodestone.
///
/// Why: toml++ asserts on some malformed input (a file ending in `[[[` aborts in
/// `parse_key()`), and at start-up or on a live reload that abort took the whole session
/// with it. A pre-check would have to know every input toml++ mishandles, and a parser of
/// our own would have to promise it never traps, loops or overflows its stack; a child
/// process survives all of these, whatever their cause, and keeps the well-kept library.
/// The child parses, writes the tree back in `TOMLWire`'s form and exits; the checks of
/// each key then run here on plain values (`TOMLNode`). A fork and a parse take about a
/// millisecond; the file is read once at start and once per save.
///
/// A syntax error the library reports keeps its line and column. When the child dies of a
/// signal, the line to blame is found by parsing growing prefixes of the file, each in a
/// child of its own (a bisection over line counts, about log2(lines) children).
enum ForkedTOMLParser {
    /// The limits the child runs under (2 s, 512 MiB more than the parent's address space).
    static let limits = ForkedComputation()

    /// The file's tables and keys, or a `ConfigurationError` naming the file and the line.
    static func parse(_ text: String, file: String) throws(ConfigurationError) -> [TOMLNode.Member] {
        let outcome = try run(file: file) {
            do { return TOMLWire.encode(document: try TOMLTable(string: text)) } catch let error as TOMLParseError {
                return TOMLWire.encode(syntaxError: error.description, line: error.source.begin.line, column: error.source.begin.column)
            } catch {
                return TOMLWire.encode(syntaxError: "\(error)", line: 0, column: 0)
            }
        }
        switch outcome {
        case .finished(let bytes):
            switch TOMLWire.decode(bytes) {
            case .document(let members): return members
            case .syntaxError(let line, let column, let message):
                throw ConfigurationError(file: file, line: line > 0 ? line : nil, column: column > 0 ? column : nil, reason: "syntax error: \(message)")
            case .tooDeep:
                throw ConfigurationError(file: file, reason: "tables and arrays nest more than \(TOMLNode.maximumDepth) deep")
            case nil:
                throw ConfigurationError(file: file, reason: "the TOML parser's answer could not be read")
            }
        case .crashed(let signal):
            let line = blame(text, file: file)
            throw ConfigurationError(file: file, line: line, reason: "the TOML parser crashed reading \(line == nil ? "this file" : "this line") (signal \(signal))")
        case .timedOut:
            throw ConfigurationError(file: file, reason: "the TOML parser did not finish within \(Int(limits.timeout)) seconds")
        }
    }

    /// The line that makes the parser crash: the first lines up to it crash it, those before
    /// it do not. Nil for an empty file.
    static func blame(_ text: String, file: String) -> Int? {
        var ends: [String.Index] = []
        var i = text.startIndex
        while let newline = text[i...].firstIndex(of: "\n") {
            i = text.index(after: newline)
            ends.append(i)
        }
        if i != text.endIndex { ends.append(text.endIndex) }
        func crashes(_ lines: Int) -> Bool {
            let prefix = String(text[..<ends[lines - 1]])
            let outcome = try? run(file: file) { _ = try? TOMLTable(string: prefix); return [] }
            if case .crashed = outcome { return true }
            return false
        }
        // Invariant: the first `good` lines parse, the first `bad` crash (the whole file did).
        var good = 0, bad = ends.count
        guard bad > 0 else { return nil }
        while bad - good > 1 {
            let middle = (good + bad) / 2
            if crashes(middle) { bad = middle } else { good = middle }
        }
        return bad
    }

    private static func run(file: String, _ body: () -> [UInt8]) throws(ConfigurationError) -> ForkedComputation.Outcome {
        do {
            return try limits.run(body)
        } catch {
            throw ConfigurationError(file: file, reason: "cannot be parsed: \(error)")
        }
    }
}
