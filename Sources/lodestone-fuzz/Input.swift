/// The fuzzer's bytes, read front to back; past the end, zeros.
struct Input {
    private let bytes: UnsafeRawBufferPointer
    private var offset = 0
    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    var isEmpty: Bool { offset >= bytes.count }

    mutating func byte() -> UInt8 {
        defer { offset += 1 }
        return offset < bytes.count ? bytes[offset] : 0
    }

    mutating func bytes(_ n: Int) -> [UInt8] { (0..<n).map { _ in byte() } }

    /// Half the time one of the integers that break arithmetic, else four raw bytes.
    mutating func integer() -> UInt32 {
        let extremes: [UInt32] = [0, 1, 2, 0xFFFF_FFFF, 0x7FFF_FFFF, 0x8000_0000, 0x7FFF_FFFE, 0x8000_0001,
                                  1 << 24, 0xFF00_0000, 64, 120, 256, 4096, 16384, 65535]
        let selector = byte()
        if selector < 128 { return extremes[Int(selector) % extremes.count] }
        return UInt32(byte()) | UInt32(byte()) << 8 | UInt32(byte()) << 16 | UInt32(byte()) << 24
    }
}
