/// Wayland's wire format (little-endian words, strings and arrays padded to 4), written and read.
extension [UInt8] {
    mutating func append(word: UInt32) { append(contentsOf: [UInt8(word & 0xff), UInt8(word >> 8 & 0xff), UInt8(word >> 16 & 0xff), UInt8(word >> 24)]) }

    /// A wire string: length with its NUL, the bytes, NUL, padded to 4.
    mutating func append(string: [UInt8]) {
        append(word: UInt32(string.count + 1))
        append(contentsOf: string + [0])
        while count % 4 != 0 { append(0) }
    }

    mutating func append(array: [UInt8]) {
        append(word: UInt32(array.count))
        append(contentsOf: array)
        while count % 4 != 0 { append(0) }
    }

    func word(at i: Int) -> UInt32 {
        UInt32(self[i]) | UInt32(self[i + 1]) << 8 | UInt32(self[i + 2]) << 16 | UInt32(self[i + 3]) << 24
    }
}
