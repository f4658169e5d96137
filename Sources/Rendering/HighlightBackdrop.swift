import CPixman
import Glibc
import AdaptivePointerEngine

/// The highlight platter beneath an element that has no preview surface.
///
/// On iPadOS the platter slides *behind* the element's content: the glyph stays crisp and keeps
/// its contrast. Without a preview surface the element's content is just pixels of its surface,
/// so the renderer takes them apart itself. The colour around the element (the most common one
/// in a one-pixel ring just outside its frame, `key`) is what the element sits on; each pixel of
/// the element becomes a foreground colour over that key with the least opacity that explains
/// it ("colour to alpha"): the key itself turns transparent, antialiased edges partly so, the
/// glyph and any opaque part of the element stay solid. A frame then draws, inside the frame,
/// the key (the content lifted off), the platter, and the foreground back over it:
/// `foreground over (platter over key)`, which is the element composited over the platter.
///
/// The platter's own colour comes from the key (`platterColor(over:)`): a few percent darker
/// than light content, lighter than dark content, so that anything drawn on the key keeps
/// more than 80% of its contrast (a glyph that was 15:1 stays above 12:1).
final class HighlightBackdrop {
    /// The colour the element sits on; nil until `prepare` found one.
    private(set) var key: RGB?
    /// The foreground, premultiplied ARGB, at `origin` in output pixels; reused while its size holds.
    private var foreground: Image?
    /// The scene's pixels the foreground was made from, and their key: while the element's
    /// pixels hold still (the platter sliding under them), the foreground is reused.
    private var source: Image?
    private var sourceKey: RGB?
    private var origin = (x: Int32(0), y: Int32(0))
    private var size = (width: Int32(0), height: Int32(0))
    private let votes = KeyVotes()

    /// What the platter over the key may change, as a contrast ratio between the key and the
    /// platter over it: 1.2 keeps 83% of a glyph's contrast and still reads as a platter.
    static let platterContrast = 1.2
    static let dark = RGB(red: 0, green: 0, blue: 0.02)
    static let light = RGB(red: 1, green: 1, blue: 1)

    /// Finds the key around `frame` (logical, output `scale`) in the composed `scene`, and with
    /// `liftsContent` also the element's foreground. False when the frame is off the image.
    @discardableResult
    func prepare(scene: Image, frame: Rect<Global>, scale: Double, liftsContent: Bool) -> Bool {
        key = nil
        guard frame.isFinite, scale.isFinite, abs(frame.minX * scale) < 1e6, abs(frame.minY * scale) < 1e6,
              frame.width * scale < 16384, frame.height * scale < 16384 else { return false }
        let x0 = Int32((frame.minX * scale).rounded()), y0 = Int32((frame.minY * scale).rounded())
        let x1 = Int32((frame.maxX * scale).rounded()), y1 = Int32((frame.maxY * scale).rounded())
        guard x1 > x0, y1 > y0, let key = ringKey(scene, x0: x0, y0: y0, x1: x1, y1: y1) else { return false }
        self.key = key
        guard liftsContent else {
            size = (0, 0)
            return true
        }
        let bounds = PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
            .intersection(PixelRect(x: 0, y: 0, width: scene.width, height: scene.height))
        guard bounds.width > 0, bounds.height > 0 else {
            size = (0, 0)
            return true
        }
        if origin == (bounds.x, bounds.y), size == (bounds.width, bounds.height), sourceKey == key,
           let source, Self.same(scene, bounds, as: source) {
            return true
        }
        let image: Image, copy: Image
        if let kept = foreground, let keptSource = source, keptSource.format == scene.format, kept.width >= bounds.width,
           kept.height >= bounds.height {
            (image, copy) = (kept, keptSource)
        } else {
            guard let madeImage = Image.clientSized(width: bounds.width, height: bounds.height, format: .argb8888, for: "a lifted element"),
                  let madeCopy = Image.clientSized(width: bounds.width, height: bounds.height, format: scene.format, for: "a lifted element's backdrop")
            else { return false }
            (image, copy) = (madeImage, madeCopy)
            foreground = image
            source = copy
        }
        origin = (bounds.x, bounds.y)
        size = (bounds.width, bounds.height)
        sourceKey = key
        pixman_image_composite32(PIXMAN_OP_SRC, scene.pointer, nil, copy.pointer, bounds.x, bounds.y, 0, 0, 0, 0,
                                 bounds.width, bounds.height)
        Self.separate(scene, bounds, key: key, into: image)
        return true
    }

    /// Inside the element: its key, where the content was (before the platter is drawn).
    func clearContent(into target: Image, clip: PixelRegion) {
        guard size.width > 0, let key else { return }
        let color = 0xff00_0000 | UInt32((key.red * 255).rounded()) << 16 | UInt32((key.green * 255).rounded()) << 8
            | UInt32((key.blue * 255).rounded())
        let area = PixelRect(x: origin.x, y: origin.y, width: size.width, height: size.height)
        clip.forEachRect { r in
            let d = r.intersection(area)
            guard d.width > 0, d.height > 0 else { return }
            target.fill(d, color: color)
        }
    }

    /// The element's content back over the platter.
    func drawContent(into target: Image, clip: PixelRegion) {
        guard size.width > 0, let foreground else { return }
        let area = PixelRect(x: origin.x, y: origin.y, width: size.width, height: size.height)
        clip.forEachRect { r in
            let d = r.intersection(area)
            guard d.width > 0, d.height > 0 else { return }
            pixman_image_composite32(PIXMAN_OP_OVER, foreground.pointer, nil, target.pointer,
                                     d.x - origin.x, d.y - origin.y, 0, 0, d.x, d.y, d.width, d.height)
        }
    }

    /// The platter for content on `key`: black over light content, white over dark, at the
    /// opacity that makes the platter over the key `platterContrast` from the key.
    static func platterColor(over key: RGB) -> PointerColor {
        let lk = key.luminance
        let ink = lk > 0.179 ? dark : light
        var lo = 0.0, hi = 1.0
        for _ in 0..<14 {
            let mid = (lo + hi) / 2
            if Contrast.ratio(key.under(ink, alpha: mid).luminance, lk) >= platterContrast { hi = mid } else { lo = mid }
        }
        return PointerColor(red: ink.red, green: ink.green, blue: ink.blue, alpha: hi)
    }

    /// The most common colour (within 8 levels a channel) of the one-pixel ring just outside the
    /// rect, where it is on the image; the rect's own outermost ring if none of it is.
    private func ringKey(_ image: Image, x0: Int32, y0: Int32, x1: Int32, y1: Int32) -> RGB? {
        let votes = self.votes
        votes.reset()
        let w = image.width, h = image.height
        func ring(_ ax: Int32, _ ay: Int32, _ bx: Int32, _ by: Int32) {
            let data = image.data, row = Int(image.stride / 4)
            let left = max(0, ax), right = min(w, bx + 1)
            for x in left..<max(left, right) {
                if ay >= 0 && ay < h { votes.add(data[Int(ay) * row + Int(x)]) }
                if by >= 0 && by < h && by != ay { votes.add(data[Int(by) * row + Int(x)]) }
            }
            let top = max(0, ay + 1), bottom = min(h, by)
            for y in top..<max(top, bottom) {
                if ax >= 0 && ax < w { votes.add(data[Int(y) * row + Int(ax)]) }
                if bx >= 0 && bx < w && bx != ax { votes.add(data[Int(y) * row + Int(bx)]) }
            }
        }
        ring(x0 - 1, y0 - 1, x1, y1)
        if votes.total == 0 { ring(x0, y0, x1 - 1, y1 - 1) }
        return votes.winner
    }

    /// Whether `rect` of `scene` holds the pixels `copy` kept (at its origin).
    private static func same(_ scene: Image, _ rect: PixelRect, as copy: Image) -> Bool {
        let bytes = Int(rect.width) * 4
        for y in 0..<Int(rect.height) {
            let a = scene.data + (Int(rect.y) + y) * Int(scene.stride / 4) + Int(rect.x)
            let b = copy.data + y * Int(copy.stride / 4)
            if memcmp(a, b, bytes) != 0 { return false }
        }
        return true
    }

    /// Colour to alpha: each pixel of `rect` in `scene` as the least opaque colour that, over
    /// `key`, gives it (premultiplied into `image`, at its origin).
    private static func separate(_ scene: Image, _ rect: PixelRect, key: RGB, into image: Image) {
        let kr = Int((key.red * 255).rounded()), kg = Int((key.green * 255).rounded()), kb = Int((key.blue * 255).rounded())
        let src = scene.data, srcRow = Int(scene.stride / 4)
        let dst = image.data, dstRow = Int(image.stride / 4)
        // 255 / (255 − k) and 255 / k per channel, in 16.16 fixed point: how fast a difference
        // from the key, above it and below it, turns into opacity.
        func gain(_ room: Int) -> Int { 255 * 65536 / max(1, room) }
        let upR = gain(255 - kr), upG = gain(255 - kg), upB = gain(255 - kb)
        let downR = gain(kr), downG = gain(kg), downB = gain(kb)
        for y in 0..<Int(rect.height) {
            let s = src + (Int(rect.y) + y) * srcRow + Int(rect.x)
            let d = dst + y * dstRow
            for x in 0..<Int(rect.width) {
                let p = s[x]
                let r = Int(p >> 16 & 0xff), g = Int(p >> 8 & 0xff), b = Int(p & 0xff)
                let dr = r - kr, dg = g - kg, db = b - kb
                // The key's own noise (dithering, rounding) stays transparent.
                if abs(dr) <= 2 && abs(dg) <= 2 && abs(db) <= 2 {
                    d[x] = 0
                    continue
                }
                // The least opacity that explains the pixel over the key: the largest share
                // any channel needs (rounded up, so the colour stays within range).
                let ar = (dr > 0 ? dr * upR : -dr * downR) + 65535
                let ag = (dg > 0 ? dg * upG : -dg * downG) + 65535
                let ab = (db > 0 ? db * upB : -db * downB) + 65535
                let a = min(255, max(ar, ag, ab) >> 16)
                let rest = 255 - a
                let cr = min(a, max(0, r - (rest * kr + 127) / 255))
                let cg = min(a, max(0, g - (rest * kg + 127) / 255))
                let cb = min(a, max(0, b - (rest * kb + 127) / 255))
                d[x] = UInt32(a) << 24 | UInt32(cr) << 16 | UInt32(cg) << 8 | UInt32(cb)
            }
        }
    }
}

/// A tally of colours in a few buckets (8 levels a channel), reused from frame to frame so
/// a highlight frame allocates nothing for it: the first eight distinct buckets seen take
/// part, which the background of a ring always is.
private final class KeyVotes {
    private var buckets = [UInt32](repeating: 0, count: 8)
    private var counts = [Int](repeating: 0, count: 8)
    private var sums = [SIMD4<Int>](repeating: .zero, count: 8)
    private var used = 0
    private(set) var total = 0

    func reset() { used = 0; total = 0 }

    func add(_ pixel: UInt32) {
        total += 1
        let bucket = pixel >> 3 & 0x1f_1f1f
        let rgb = SIMD4<Int>(Int(pixel >> 16 & 0xff), Int(pixel >> 8 & 0xff), Int(pixel & 0xff), 0)
        for i in 0..<used where buckets[i] == bucket {
            counts[i] += 1
            sums[i] &+= rgb
            return
        }
        guard used < buckets.count else { return }
        buckets[used] = bucket; counts[used] = 1; sums[used] = rgb
        used += 1
    }

    /// The mean colour of the fullest bucket.
    var winner: RGB? {
        guard used > 0 else { return nil }
        var best = 0
        for i in 1..<used where counts[i] > counts[best] { best = i }
        let n = Double(counts[best]) * 255
        return RGB(red: Double(sums[best][0]) / n, green: Double(sums[best][1]) / n, blue: Double(sums[best][2]) / n)
    }
}
