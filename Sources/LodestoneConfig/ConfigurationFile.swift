import Compositor
import Glibc
import PointerEngine
import TOMLKit

/// `$XDG_CONFIG_HOME/lodestone/config.toml`: reading it into a `Configuration`, with every
/// key checked. A file with a syntax error, an unknown key, a value of the wrong type or out
/// of range is refused as a whole, with a message naming the key and its line.
public enum ConfigurationFile {
    /// `$XDG_CONFIG_HOME/lodestone/config.toml`, or `~/.config/lodestone/config.toml`.
    public static func defaultPath(environment: (String) -> String? = { getenv($0).map { String(cString: $0) } }) -> String {
        if let config = environment("XDG_CONFIG_HOME"), config.hasPrefix("/") { return config + "/lodestone/config.toml" }
        let home = environment("HOME") ?? "/"
        return (home.hasSuffix("/") ? home : home + "/") + ".config/lodestone/config.toml"
    }

    /// Every key the file knows, dotted (`appearance.size`), in the README's order.
    public static var keyNames: [String] {
        ConfigurationKey.topLevel.map(\.name) + ["appearance", "behaviour", "tuning"].flatMap { table in
            (ConfigurationKey.tables[table] ?? []).map { "\(table).\($0.name)" }
        }
    }

    /// Reads and parses `path`; nil when there is no such file (the defaults apply).
    public static func load(_ path: String) throws(ConfigurationError) -> Configuration? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT { return nil }
            throw ConfigurationError(file: path, reason: "cannot be read: \(String(cString: strerror(code)))")
        }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16384)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw ConfigurationError(file: path, reason: "cannot be read: \(String(cString: strerror(errno)))")
            }
            if n == 0 { break }
            bytes += chunk[0..<n]
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ConfigurationError(file: path, reason: "is not UTF-8 text")
        }
        return try parse(text, file: path)
    }

    /// Parses a whole file: the defaults, changed by what the file says.
    public static func parse(_ text: String, file: String = "config.toml") throws(ConfigurationError) -> Configuration {
        let root: TOMLTable
        do {
            root = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            let at = error.source.begin
            throw ConfigurationError(file: file, line: at.line, reason: "syntax error at column \(at.column): \(error.description)")
        } catch {
            throw ConfigurationError(file: file, reason: "syntax error: \(error)")
        }
        var configuration = Configuration()
        // Keys in the order the file has them: the first fault is the one reported.
        var problems: [ConfigurationError] = []
        func fault(_ path: [String], _ reason: String) {
            problems.append(ConfigurationError(file: file, line: line(of: path, in: text), key: path.joined(separator: "."), reason: reason))
        }
        for name in root.keys {
            guard let value = root[name] else { continue }
            if let keys = ConfigurationKey.tables[name] {
                guard let table = value.table else { fault([name], "must be a table ([\(name)]), not \(describe(value))"); continue }
                for key in table.keys {
                    guard let inner = table[key] else { continue }
                    guard let known = keys.first(where: { $0.name == key }) else {
                        fault([name, key], "unknown key; [\(name)] has \(keys.map(\.name).joined(separator: ", "))")
                        continue
                    }
                    do { try known.apply(inner, &configuration) } catch let p as ConfigurationKey.Problem {
                        fault([name, key] + p.subkey, p.reason)
                    } catch {}
                }
            } else if let known = ConfigurationKey.topLevel.first(where: { $0.name == name }) {
                do { try known.apply(value, &configuration) } catch let p as ConfigurationKey.Problem {
                    fault([name] + p.subkey, p.reason)
                } catch {}
            } else {
                let all = ConfigurationKey.topLevel.map(\.name) + ConfigurationKey.tables.keys.sorted().map { "[\($0)]" }
                fault([name], "unknown key; the top level has \(all.joined(separator: ", "))")
            }
        }
        if let first = problems.min(by: { ($0.line ?? .max) < ($1.line ?? .max) }) { throw first }
        return configuration
    }

    /// The line (from 1) where the key `path` is set, found in the text: TOMLKit keeps no
    /// positions for values. Knows `[table]` headers, dotted keys and inline tables (the
    /// line of `spring = { ... }` for `spring.response`).
    static func line(of path: [String], in text: String) -> Int? {
        var header: [String] = []
        var number = 0
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            let line = trimmed(Substring(raw))
            if line.hasPrefix("[") {
                let inside = line.drop(while: { $0 == "[" }).prefix(while: { $0 != "]" })
                header = dotted(inside)
                if header == path { return number }
                continue
            }
            guard !line.hasPrefix("#"), let equals = line.firstIndex(of: "=") else { continue }
            let key = header + dotted(line[..<equals])
            if !key.isEmpty, key.count <= path.count, Array(path.prefix(key.count)) == key { return number }
        }
        return nil
    }

    private static func dotted(_ s: Substring) -> [String] {
        s.split(separator: ".").map { part in
            var p = trimmed(part)
            if p.count >= 2, let f = p.first, f == "\"" || f == "'", p.last == f { p = p.dropFirst().dropLast() }
            return String(p)
        }
    }

    private static func trimmed(_ s: Substring) -> Substring {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let first = s.firstIndex(where: { !blank($0) }), let last = s.lastIndex(where: { !blank($0) }) else { return "" }
        return s[first...last]
    }

    static func describe(_ value: TOMLValueConvertible) -> String {
        switch value.type {
        case .string: "the string \"\(value.string ?? "")\""
        case .table: "a table"
        case .array: "an array"
        default: "\(value.type) \(value.tomlValue.debugDescription)"
        }
    }
}
