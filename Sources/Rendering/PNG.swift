import CPNG
import LodestoneSystem

/// PNG files through libpng's simplified API (no setjmp needed from Swift).
/// libpng reports failure as 0 with its own message in `png_image.message`,
/// which becomes the error's reason.
public enum PNG {
    /// Writes `image` (premultiplied ARGB) as an RGBA PNG. X-formats are written opaque.
    public static func write(_ image: Image, to path: String, opaque: Bool = true) throws(SystemError) {
        let w = Int(image.width), h = Int(image.height), stride = Int(image.stride / 4)
        var pixels = [UInt32](repeating: 0, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                let p = image.data[y * stride + x]
                let a = opaque ? 255 : p >> 24
                pixels[y * w + x] = unpremultiply(p, alpha: a)
            }
        }
        var png = png_image()
        png.version = UInt32(PNG_IMAGE_VERSION)
        png.width = UInt32(w)
        png.height = UInt32(h)
        png.format = UInt32(PNG_FORMAT_BGRA)
        let ok = pixels.withUnsafeBytes { png_image_write_to_file(&png, path, 0, $0.baseAddress, Int32(w * 4), nil) }
        if ok == 0 { throw SystemError("cannot write PNG '\(path)'", call: "png_image_write_to_file", reason: message(&png)) }
    }

    /// Reads a PNG as 0xAARRGGBB pixels (not premultiplied), row-major.
    public static func read(_ path: String) throws(SystemError) -> (width: Int, height: Int, pixels: [UInt32]) {
        var png = png_image()
        png.version = UInt32(PNG_IMAGE_VERSION)
        guard png_image_begin_read_from_file(&png, path) != 0 else {
            throw SystemError("cannot read PNG '\(path)'", call: "png_image_begin_read_from_file", reason: message(&png))
        }
        png.format = UInt32(PNG_FORMAT_BGRA)
        let w = Int(png.width), h = Int(png.height)
        var pixels = [UInt32](repeating: 0, count: w * h)
        let ok = pixels.withUnsafeMutableBytes { png_image_finish_read(&png, nil, $0.baseAddress, Int32(w * 4), nil) }
        if ok == 0 { throw SystemError("cannot decode PNG '\(path)'", call: "png_image_finish_read", reason: message(&png)) }
        return (w, h, pixels)
    }

    private static func unpremultiply(_ p: UInt32, alpha a: UInt32) -> UInt32 {
        let pa = p >> 24
        guard a == 255 || pa == 0 || pa == 255 else {
            let r = min(255, ((p >> 16) & 0xff) * 255 / pa), g = min(255, ((p >> 8) & 0xff) * 255 / pa), b = min(255, (p & 0xff) * 255 / pa)
            return pa << 24 | r << 16 | g << 8 | b
        }
        return a << 24 | (p & 0xffffff)
    }

    private static func message(_ png: inout png_image) -> String {
        withUnsafeBytes(of: &png.message) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
    }
}
