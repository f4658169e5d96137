import LodestoneModes
import PointerAdaptation
import Glibc
import AdaptivePointerEngine
import LodestoneSystem

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

    /// Every key the file knows, dotted (`appearance.size`), in docs/configuration.md's order.
    public static var keyNames: [String] {
        ConfigurationKey.topLevel.map(\.name) + ["appearance", "behaviour", "tuning", "scribble"].flatMap { table in
            (ConfigurationKey.tables[table] ?? []).map { "\(table).\($0.name)" }
        }
    }

    /// The largest config.toml read: a few kilobytes say everything there is to say.
    public static let maximumSize = 1 << 20

    /// Reads and parses `path`; nil when there is no such file (the defaults apply).
    ///
    /// Anything but a regular file is refused, and opening never blocks: a FIFO put in the
    /// file's place would otherwise stall the compositor's loop until someone writes to it.
    public static func load(_ path: String) throws(ConfigurationError) -> Configuration? {
        guard let bytes = try read(path) else { return nil }
        return try parse(bytes: bytes, file: path)
    }

    /// The file's bytes, or nil when it does not exist (a symbolic link to nothing does, and
    /// is refused: it names a file the user meant to have).
    static func read(_ path: String) throws(ConfigurationError) -> [UInt8]? {
        let fd: Int32
        do {
            fd = try syscall("open") { open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY) }
        } catch {
            guard error.errnoCode == ENOENT else { throw ConfigurationError(file: path, reason: "cannot be read: \(error.reason ?? "\(error)")") }
            if let target = danglingLinkTarget(path) {
                throw ConfigurationError(file: path, reason: "is a symbolic link to \(target), which does not exist")
            }
            return nil
        }
        defer { close(fd) }
        var info = stat()
        do { try syscall("fstat") { fstat(fd, &info) } } catch {
            throw ConfigurationError(file: path, reason: "cannot be read: \(error.reason ?? "\(error)")")
        }
        let kind: String? = switch info.st_mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "a directory"
        case S_IFIFO: "a named pipe (FIFO)"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "not a regular file"
        }
        if let kind { throw ConfigurationError(file: path, reason: "is \(kind), not a regular file") }
        let tooBig = ConfigurationError(file: path, reason: "is larger than \(maximumSize >> 20) MiB: that is not a configuration file")
        guard info.st_size <= maximumSize else { throw tooBig }
        // Read to the end (a file in /proc says its size is 0), but never past the limit.
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16384)
        while true {
            let n: Int
            do { n = try syscall("read") { chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) } } } catch {
                throw ConfigurationError(file: path, reason: "cannot be read: \(error.reason ?? "\(error)")")
            }
            if n == 0 { break }
            bytes += chunk[0..<n]
            guard bytes.count <= maximumSize else { throw tooBig }
        }
        return bytes
    }

    /// Where the symbolic link `path` points when that is nowhere; nil when `path` is no link.
    private static func danglingLinkTarget(_ path: String) -> String? {
        var info = stat()
        guard (try? syscall("lstat", { lstat(path, &info) })) != nil, info.st_mode & S_IFMT == S_IFLNK else { return nil }
        var target = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard let n = try? syscall("readlink", { readlink(path, &target, target.count - 1) }) else { return "a missing file" }
        return String(decoding: target[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Parses a file's bytes: they must be UTF-8 text without NUL bytes, at most
    /// `maximumSize` long. The public door for anything untrusted (the fuzzer's too).
    public static func parse(bytes: [UInt8], file: String = "config.toml") throws(ConfigurationError) -> Configuration {
        guard bytes.count <= maximumSize else {
            throw ConfigurationError(file: file, reason: "is larger than \(maximumSize >> 20) MiB: that is not a configuration file")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            let valid = bytes.prefix { $0 < 0x80 }  // the line of the first byte that may be at fault
            throw ConfigurationError(file: file, line: valid.count { $0 == 0x0a } + 1, reason: "is not UTF-8 text")
        }
        return try parse(text, file: file)
    }

    /// Parses a whole file: the defaults, changed by what the file says. TOMLKit runs in a
    /// child process (`ForkedTOMLParser`): whatever the text, this returns or throws.
    public static func parse(_ text: String, file: String = "config.toml") throws(ConfigurationError) -> Configuration {
        // TOMLKit hands toml++ a C string: a NUL would silently end the file there.
        if let nul = text.utf8.firstIndex(of: 0) {
            throw ConfigurationError(file: file, line: text.utf8[..<nul].count { $0 == 0x0a } + 1, reason: "contains a NUL byte")
        }
        let root = try ForkedTOMLParser.parse(text, file: file)
        var configuration = Configuration()
        // Keys in the order the file has them: the first fault is the one reported.
        var problems: [ConfigurationError] = []
        func fault(_ path: [String], _ reason: String) {
            problems.append(ConfigurationError(file: file, line: line(of: path, in: text), key: path.joined(separator: "."), reason: reason))
        }
        for (name, value) in root.map({ ($0.key, $0.value) }) {
            if let keys = ConfigurationKey.tables[name] {
                guard let table = value.table else { fault([name], "must be a table ([\(name)]), not \(value.description)"); continue }
                for (key, inner) in table.map({ ($0.key, $0.value) }) {
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
}
