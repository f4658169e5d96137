import TOMLKit

/// A parsed TOML value as plain Swift: what the parse child (`ForkedTOMLParser`) hands back,
/// and what every key of `config.toml` is checked against. Nothing here calls into toml++.
indirect enum TOMLNode: Equatable {
    case string(String)
    case integer(Int)
    case float(Double)
    case boolean(Bool)
    /// Keys in TOMLKit's order.
    case table([Member])
    case array([TOMLNode])
    /// A date, a time or a date-time: the config has none, so only its kind and text.
    case other(kind: String, text: String)

    struct Member: Equatable {
        var key: String
        var value: TOMLNode
    }

    /// How deep tables and arrays may nest: far more than config.toml needs (3), far less
    /// than would strain a stack.
    static let maximumDepth = 32

    var string: String? { if case .string(let s) = self { s } else { nil } }
    var bool: Bool? { if case .boolean(let b) = self { b } else { nil } }
    /// An integer or a float, as a Double.
    var number: Double? {
        switch self {
        case .integer(let i): Double(i)
        case .float(let x): x
        default: nil
        }
    }
    var table: [Member]? { if case .table(let m) = self { m } else { nil } }

    /// "the string \"yes\"", "a table", "the integer 9": the value in a message.
    var description: String {
        switch self {
        case .string(let s): "the string \"\(s)\""
        case .integer(let i): "the integer \(i)"
        case .float(let x): "the number \(x)"
        case .boolean(let b): "\(b)"
        case .table: "a table"
        case .array: "an array"
        case .other(let kind, let text): "the \(kind) \(text)"
        }
    }
}

// MARK: The wire form, child to parent

/// What the parse child writes into its pipe, as bytes:
///
///     answer := "T" table                     the document
///             | "E" int int string            a syntax error: line, column, message
///             | "D"                           nested deeper than `TOMLNode.maximumDepth`
///     value  := "s" string | "i" int | "f" int (the Double's bit pattern) | "b0" | "b1"
///             | "t" table | "a" int value...  (an array: its count, then its values)
///             | "o" string string             (a date or time: its kind, its text)
///     table  := int (string value)...         its count, then keys and values
///     int    := "-"? digits ";"        string := int bytes   (the length, then UTF-8)
///
/// Lengths instead of escapes: nothing in a string needs quoting.
enum TOMLWire {
    /// A document's answer (child side): TOMLKit's table, or why there is none.
    static func encode(document: TOMLTable) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "T")]
        guard encode(table: document, depth: 1, into: &out) else { return [UInt8(ascii: "D")] }
        return out
    }

    static func encode(syntaxError message: String, line: Int, column: Int) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "E")]
        int(line, &out)
        int(column, &out)
        string(message, &out)
        return out
    }

    private static func encode(table: TOMLTable, depth: Int, into out: inout [UInt8]) -> Bool {
        guard depth <= TOMLNode.maximumDepth else { return false }
        let keys = table.keys
        int(keys.count, &out)
        for key in keys {
            string(key, &out)
            guard let value = table[key], encode(value: value, depth: depth, into: &out) else { return false }
        }
        return true
    }

    private static func encode(value: TOMLValueConvertible, depth: Int, into out: inout [UInt8]) -> Bool {
        switch value.type {
        case .string: out.append(UInt8(ascii: "s")); string(value.string ?? "", &out)
        case .int: out.append(UInt8(ascii: "i")); int(value.int ?? 0, &out)
        case .double: out.append(UInt8(ascii: "f")); int(Int(bitPattern: UInt((value.double ?? 0).bitPattern)), &out)
        case .bool: out += [UInt8(ascii: "b"), value.bool == true ? UInt8(ascii: "1") : UInt8(ascii: "0")]
        case .table:
            guard let table = value.table else { return false }
            out.append(UInt8(ascii: "t"))
            return encode(table: table, depth: depth + 1, into: &out)
        case .array:
            guard depth < TOMLNode.maximumDepth, let array = value.array else { return false }
            out.append(UInt8(ascii: "a"))
            int(array.count, &out)
            for element in array { guard encode(value: element, depth: depth + 1, into: &out) else { return false } }
        case .date, .time, .dateTime:
            out.append(UInt8(ascii: "o"))
            string("\(value.type)", &out)
            string(value.tomlValue.debugDescription, &out)
        }
        return true
    }

    private static func int(_ i: Int, _ out: inout [UInt8]) { out += Array("\(i);".utf8) }
    private static func string(_ s: String, _ out: inout [UInt8]) { int(s.utf8.count, &out); out += s.utf8 }

    /// What the child answered (parent side); nil when the bytes are not a whole answer.
    enum Answer: Equatable {
        case document([TOMLNode.Member])
        case syntaxError(line: Int, column: Int, message: String)
        case tooDeep
    }

    static func decode(_ bytes: [UInt8]) -> Answer? {
        var r = Reader(bytes: bytes)
        let answer: Answer?
        switch r.byte() {
        case UInt8(ascii: "T"): answer = r.table(depth: 1).map { .document($0) }
        case UInt8(ascii: "E"):
            guard let line = r.int(), let column = r.int(), let message = r.string() else { return nil }
            answer = .syntaxError(line: line, column: column, message: message)
        case UInt8(ascii: "D"): answer = .tooDeep
        default: return nil
        }
        return r.atEnd ? answer : nil
    }

    /// Reads the wire form strictly: any surprise is nil, never a trap.
    private struct Reader {
        let bytes: [UInt8]
        var at = 0

        var atEnd: Bool { at == bytes.count }

        mutating func byte() -> UInt8? {
            guard at < bytes.count else { return nil }
            defer { at += 1 }
            return bytes[at]
        }

        mutating func int() -> Int? {
            guard let end = bytes[at...].firstIndex(of: UInt8(ascii: ";")), end - at <= 20 else { return nil }
            defer { at = end + 1 }
            return Int(String(decoding: bytes[at..<end], as: UTF8.self))
        }

        mutating func string() -> String? {
            guard let count = int(), count >= 0, count <= bytes.count - at else { return nil }
            defer { at += count }
            return String(validating: bytes[at..<at + count], as: UTF8.self)
        }

        /// A count no larger than the bytes left (each entry takes at least two).
        mutating func count() -> Int? {
            guard let n = int(), n >= 0, n <= bytes.count - at else { return nil }
            return n
        }

        mutating func table(depth: Int) -> [TOMLNode.Member]? {
            guard depth <= TOMLNode.maximumDepth, let n = count() else { return nil }
            var members: [TOMLNode.Member] = []
            for _ in 0..<n {
                guard let key = string(), let value = value(depth: depth) else { return nil }
                members.append(.init(key: key, value: value))
            }
            return members
        }

        mutating func value(depth: Int) -> TOMLNode? {
            switch byte() {
            case UInt8(ascii: "s"): return string().map { .string($0) }
            case UInt8(ascii: "i"): return int().map { .integer($0) }
            case UInt8(ascii: "f"): return int().map { .float(Double(bitPattern: UInt64(UInt(bitPattern: $0)))) }
            case UInt8(ascii: "b"):
                switch byte() {
                case UInt8(ascii: "0"): return .boolean(false)
                case UInt8(ascii: "1"): return .boolean(true)
                default: return nil
                }
            case UInt8(ascii: "t"): return table(depth: depth + 1).map { .table($0) }
            case UInt8(ascii: "a"):
                guard depth < TOMLNode.maximumDepth, let n = count() else { return nil }
                var elements: [TOMLNode] = []
                for _ in 0..<n {
                    guard let element = value(depth: depth + 1) else { return nil }
                    elements.append(element)
                }
                return .array(elements)
            case UInt8(ascii: "o"):
                guard let kind = string(), let text = string() else { return nil }
                return .other(kind: kind, text: text)
            default: return nil
            }
        }
    }
}
