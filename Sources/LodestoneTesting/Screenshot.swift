import Rendering

/// A captured frame, for asserting pixels.
public struct Screenshot: Sendable {
    public let width: Int, height: Int
    /// 0xAARRGGBB, row-major.
    public let pixels: [UInt32]

    public init(width: Int, height: Int, pixels: [UInt32]) {
        self.width = width; self.height = height; self.pixels = pixels
    }

    public init(png path: String) throws {
        let (w, h, p) = try PNG.read(path)
        self.init(width: w, height: h, pixels: p)
    }

    public subscript(x: Int, y: Int) -> UInt32 { pixels[y * width + x] & 0x00ff_ffff }

    /// How many pixels of a rect (clipped to the image) are not `color`.
    public func countDiffering(from color: UInt32, x: Int, y: Int, width w: Int, height h: Int) -> (differing: Int, total: Int) {
        var differing = 0, total = 0
        for py in max(0, y)..<min(height, y + h) {
            for px in max(0, x)..<min(width, x + w) {
                total += 1
                if self[px, py] != color & 0x00ff_ffff { differing += 1 }
            }
        }
        return (differing, total)
    }

    /// Number of distinct colours in a rect: real content has many.
    public func distinctColors(x: Int, y: Int, width w: Int, height h: Int) -> Int {
        var seen = Set<UInt32>()
        for py in max(0, y)..<min(height, y + h) {
            for px in max(0, x)..<min(width, x + w) { seen.insert(self[px, py]) }
        }
        return seen.count
    }

    /// Writes the `width`×`height` part centred on (x, y), moved inside the frame, as an
    /// opaque PNG (the pictures in docs/).
    public func writePNG(to path: String, centredOn x: Int, _ y: Int, width w: Int, height h: Int) throws {
        let w = min(w, width), h = min(h, height)
        let left = min(max(0, x - w / 2), width - w), top = min(max(0, y - h / 2), height - h)
        let image = Image(width: Int32(w), height: Int32(h), format: .xrgb8888)
        let stride = Int(image.stride / 4)
        image.withPixels { data in
            for row in 0..<h {
                for column in 0..<w { data[row * stride + column] = pixels[(top + row) * width + left + column] | 0xff00_0000 }
            }
        }
        try PNG.write(image, to: path)
    }
}
