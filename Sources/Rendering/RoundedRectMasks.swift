import CPixman
import AdaptivePointerEngine

/// The plain adaptive pointer (a filled rounded rect, the circle being the common case) drawn
/// without cairo: an a8 coverage mask, rendered once by cairo per (size, radius, subpixel
/// phase), is composited with pixman under a solid colour, OVER, clipped to the damage.
///
/// Why: a pointer-only frame touches a few hundred pixels, yet a cairo context, its clip and a
/// path fill cost far more than that and allocate every frame. In steady state (the pointer
/// moving at a fixed size) this path allocates nothing and does one pixman call per damage
/// rect. The effects' solid fills (the lift/hover shadow, hover tints), the pointer in effect
/// frames and the outline that clips a lifted or hovered element's pixels and specular
/// (`EffectComposite.swift`, `withMask`) use the same caches; paths, borders and accessories
/// stay on cairo.
///
/// Geometry is quantized to 1/8 device pixel, so an edge moves at most 1/16 px from where
/// cairo would put it: visually the same pointer, and a moving pointer at integral logical
/// positions (the usual case at scale 1 and 2) hits the same few masks.
final class RoundedRectMasks {
    /// What a mask holds, apart from where it sits: size and radius in 1/8 device pixels and,
    /// for a shadow, its blur radius (1/8 px) and opacity (1/1024); both 0 for a plain fill.
    private struct Shape: Equatable {
        var width, height, radius: Int32
        var blur: Int32 = 0, opacity: Int32 = 0
    }
    /// A shape at one subpixel phase (1/8 device pixel) of the mask's origin.
    private struct Key: Equatable {
        var shape: Shape
        var phaseX, phaseY: Int32
    }
    private struct Entry {
        var key: Key
        /// An a8 `pixman_image_t` of the coverage, its rect starting at the pixel the shape's
        /// origin falls in.
        var mask: OpaquePointer
        var width, height: Int32
        var lastUse: UInt64
    }

    /// Subpixel steps a device pixel: 8 for fills (see above); finer for an outline that clips
    /// content, whose edge has the content's contrast rather than a translucent fill's.
    private let steps: Double
    /// Every subpixel phase (64 at 1/8 pixel) of the shape at rest, or the phases a lifted
    /// element's outline passes through as it follows the pointer; each mask is only a few
    /// hundred bytes to a few kilobytes.
    private static let capacity = 64

    // `entries`, `uses` and `lastShape` skip the dynamic exclusivity check (~60 instructions
    // each, every pointer frame, issue 29): private, and touched only by this class's methods,
    // which call only pixman and cairo while they hold them.
    @exclusivity(unchecked) private var entries: [Entry] = []
    @exclusivity(unchecked) private var uses: UInt64 = 0
    /// The size and radius last asked for: a mask is only made for a shape that holds still
    /// for two frames. While it morphs every frame has a new size, and making a mask (an
    /// image, a cairo surface and context) would cost more than the cairo fill it replaces.
    @exclusivity(unchecked) private var lastShape = Shape(width: 0, height: 0, radius: 0)
    /// A 1×1 repeating image standing for the solid colour: its pixel is rewritten per draw,
    /// where `pixman_image_create_solid_fill` would allocate on every colour or alpha change.
    private let source: OpaquePointer
    private let sourcePixel: UnsafeMutablePointer<UInt32>

    init(steps: Int = 8) {
        self.steps = Double(steps)
        sourcePixel = .allocate(capacity: 1)
        sourcePixel.initialize(to: 0)
        source = pixman_image_create_bits(PIXMAN_a8r8g8b8, 1, 1, sourcePixel, 4)!
        pixman_image_set_repeat(source, PIXMAN_REPEAT_NORMAL)
        entries.reserveCapacity(Self.capacity)
    }

    deinit {
        for e in entries { pixman_image_unref(e.mask) }
        pixman_image_unref(source)
        sourcePixel.deallocate()
    }

    /// Fills the rounded rect (device pixels) with a colour (straight, not premultiplied,
    /// components in 0…1) over `target`, only inside `clip`. Returns false if no mask was
    /// drawn (the shape is changing, or no mask could be made): the caller falls back to cairo.
    func fill(x: Double, y: Double, width: Double, height: Double, radius: Double,
              red: Double, green: Double, blue: Double, alpha: Double, into target: Image, clip: PixelRegion) -> Bool {
        guard x.isFinite, y.isFinite, width.isFinite, height.isFinite, radius.isFinite,
              abs(x) < 1e6, abs(y) < 1e6, width < 8192, height < 8192 else { return false }
        guard width > 0, height > 0, alpha > 0 else { return true }
        let shape = Shape(width: q(width), height: q(height), radius: q(max(0, min(radius, width / 2, height / 2))))
        guard shape.width > 0, shape.height > 0 else { return true }
        return composite(shape, x: x, y: y, color: Self.premultiplied(red, green, blue, alpha), into: target, clip: clip,
                         transient: false)
    }

    /// Draws the lift/hover shadow of a rounded rect (device pixels, the rect already offset):
    /// black at `opacity` inside, fading out over `blur` beyond the outline like a Gaussian
    /// blur (σ = blur / 2, the CSS and Core Animation convention) and reaching nothing at
    /// `blur`, so the effect's damage bounds hold all of it. The coverage is computed from
    /// the rounded rect's distance field (`ShadowProfile`): a round element casts a round
    /// shadow. A shape that holds still is a cached mask; one that animates gets a mask of
    /// its own for the frame. Returns false only for geometry it cannot draw.
    func fillShadow(x: Double, y: Double, width: Double, height: Double, radius: Double, blur: Double, opacity: Double,
                    into target: Image, clip: PixelRegion) -> Bool {
        guard x.isFinite, y.isFinite, width.isFinite, height.isFinite, radius.isFinite, blur.isFinite, opacity.isFinite,
              abs(x) < 1e6, abs(y) < 1e6, width < 8192, height < 8192, blur >= 0, blur < 1024 else { return false }
        guard opacity > 0, width > 0, height > 0 else { return true }
        let shape = Shape(width: q(width), height: q(height), radius: q(max(0, min(radius, width / 2, height / 2))),
                          blur: max(1, q(blur)), opacity: Int32((min(1, opacity) * 1024).rounded()))
        return composite(shape, x: x - blur, y: y - blur, color: 0xFF00_0000, into: target, clip: clip, transient: true)
    }

    private func q(_ v: Double) -> Int32 { Int32((v * steps).rounded()) }

    /// Composites `color` (premultiplied) through the shape's mask, its origin at (x, y). A
    /// `transient` shape with no cached mask gets one for this call only.
    private func composite(_ shape: Shape, x: Double, y: Double, color: UInt32, into target: Image, clip: PixelRegion,
                           transient: Bool) -> Bool {
        withMask(shape, x: x, y: y, transient: transient) { mask, area in
            sourcePixel.pointee = color
            let bounds = area.intersection(PixelRect(x: 0, y: 0, width: target.width, height: target.height))
            guard bounds.width > 0, bounds.height > 0 else { return }
            clip.forEachRect { r in
                let d = r.intersection(bounds)
                guard d.width > 0, d.height > 0 else { return }
                pixman_image_composite32(PIXMAN_OP_OVER, source, mask, target.pointer,
                                         0, 0, d.x - area.x, d.y - area.y, d.x, d.y, d.width, d.height)
            }
        }
    }

    /// Runs `body` with the coverage mask of the rounded rect (device pixels) as a clip for
    /// other sources: the a8 image and the device pixels it covers (its (0, 0) at the rect's
    /// top-left). A shape that holds still is a cached mask; one that changes every frame (an
    /// element scaling up) gets a mask of its own for the call. Returns false only for
    /// geometry it cannot draw (then `body` does not run).
    func withMask(x: Double, y: Double, width: Double, height: Double, radius: Double,
                  _ body: (_ mask: OpaquePointer, _ area: PixelRect) -> Void) -> Bool {
        guard x.isFinite, y.isFinite, width.isFinite, height.isFinite, radius.isFinite,
              abs(x) < 1e6, abs(y) < 1e6, width > 0, height > 0, width < 8192, height < 8192 else { return false }
        let shape = Shape(width: q(width), height: q(height), radius: q(max(0, min(radius, width / 2, height / 2))))
        guard shape.width > 0, shape.height > 0 else { return false }
        return withMask(shape, x: x, y: y, transient: true, body)
    }

    /// The shape's mask with its origin at (x, y): cached, made for the call (`transient`), or
    /// none (returns false).
    private func withMask(_ shape: Shape, x: Double, y: Double, transient: Bool,
                          _ body: (_ mask: OpaquePointer, _ area: PixelRect) -> Void) -> Bool {
        var originX = x.rounded(.down), originY = y.rounded(.down)
        var phaseX = q(x - originX), phaseY = q(y - originY)
        if phaseX == Int32(steps) { phaseX = 0; originX += 1 }
        if phaseY == Int32(steps) { phaseY = 0; originY += 1 }
        let key = Key(shape: shape, phaseX: phaseX, phaseY: phaseY)
        let mask: OpaquePointer, width: Int32, height: Int32
        var owned: OpaquePointer?
        if let entry = entry(for: key) {
            (mask, width, height) = (entry.mask, entry.width, entry.height)
        } else if transient, let made = render(key) {
            (mask, width, height) = (made.mask, made.width, made.height)
            owned = made.mask
        } else {
            return false
        }
        defer { if let owned { pixman_image_unref(owned) } }
        body(mask, PixelRect(x: Int32(originX), y: Int32(originY), width: width, height: height))
        return true
    }

    /// 0xAARRGGBB premultiplied, rounded as cairo rounds a source colour.
    private static func premultiplied(_ r: Double, _ g: Double, _ b: Double, _ a: Double) -> UInt32 {
        let a = min(1, max(0, a))
        func byte(_ v: Double) -> UInt32 { UInt32((min(1, max(0, v)) * 255).rounded()) }
        return byte(a) << 24 | byte(r * a) << 16 | byte(g * a) << 8 | byte(b * a)
    }

    private func entry(for key: Key) -> Entry? {
        uses &+= 1
        if let i = entries.firstIndex(where: { $0.key == key }) {
            entries[i].lastUse = uses
            lastShape = key.shape
            return entries[i]
        }
        defer { lastShape = key.shape }
        guard key.shape == lastShape, let made = render(key) else { return nil }
        let entry = Entry(key: key, mask: made.mask, width: made.width, height: made.height, lastUse: uses)
        if entries.count < Self.capacity {
            entries.append(entry)
        } else if let i = entries.indices.min(by: { entries[$0].lastUse < entries[$1].lastUse }) {
            pixman_image_unref(entries[i].mask)
            entries[i] = entry
        }
        return entry
    }

    /// Rasterizes the shape into a fresh a8 image: a fill with cairo, exactly as the cairo path
    /// would (same rounded-rect path, default antialiasing); a shadow from its distance field.
    private func render(_ key: Key) -> (mask: OpaquePointer, width: Int32, height: Int32)? {
        let fx = Double(key.phaseX) / steps, fy = Double(key.phaseY) / steps
        let s = key.shape
        let w = Double(s.width) / steps, h = Double(s.height) / steps, r = Double(s.radius) / steps
        let blur = Double(s.blur) / steps
        let pw = Int32((fx + w + 2 * blur).rounded(.up)), ph = Int32((fy + h + 2 * blur).rounded(.up))
        guard pw > 0, ph > 0, let mask = pixman_image_create_bits(PIXMAN_a8, pw, ph, nil, 0) else { return nil }
        let data = UnsafeMutableRawPointer(pixman_image_get_data(mask)).assumingMemoryBound(to: UInt8.self)
        let stride = pixman_image_get_stride(mask)
        if s.opacity != 0 {
            ShadowProfile(width: w, height: h, radius: r, blur: blur, opacity: Double(s.opacity) / 1024)
                .rasterize(into: data, stride: Int(stride), width: Int(pw), height: Int(ph),
                           originX: fx + blur, originY: fy + blur)
            return (mask, pw, ph)
        }
        guard let surface = CairoSurface(data: data, format: .a8, width: pw, height: ph, stride: stride) else {
            pixman_image_unref(mask)
            return nil
        }
        defer { surface.destroy() }
        guard let cr = CairoContext(drawingOn: surface) else {
            pixman_image_unref(mask)
            return nil
        }
        cr.roundedRect(x: fx, y: fy, width: w, height: h, radius: r)
        cr.setSource(red: 0, green: 0, blue: 0, alpha: 1)
        cr.fill()
        cr.destroy()
        surface.flush()
        return (mask, pw, ph)
    }
}

/// A soft shadow's coverage: `opacity` × the share of a Gaussian (σ = blur / 2) across the
/// rounded rect's outline, from its signed distance field, eased to exactly 0 at `blur`
/// outside. What a blurred rounded rect looks like, without the blur.
struct ShadowProfile {
    let width, height, radius, blur, opacity: Double

    /// The coverage at signed distance `d` from the outline (negative inside), 0…1.
    func coverage(atDistance d: Double) -> Double {
        if d >= blur { return 0 }
        let sigma = max(blur / 2, 0.25)
        // Φ(−d/σ), less its value at the cut-off (Φ(−2) ≈ 0.0228), rescaled to 0…1.
        let cut = 0.022_750_131_948_179
        let phi = 0.5 * Self.erfc(d / (sigma * 2.squareRoot()))
        return opacity * max(0, min(1, (phi - cut) / (1 - cut)))
    }

    /// Fills an a8 buffer, the rect's top-left corner at (originX, originY) pixels. The
    /// coverage is tabulated once per call at 1/8 pixel of distance (on the stack), so a pixel
    /// costs a distance and a lookup.
    func rasterize(into data: UnsafeMutablePointer<UInt8>, stride: Int, width pw: Int, height ph: Int,
                   originX: Double, originY: Double) {
        let hx = width / 2, hy = height / 2, r = min(radius, hx, hy)
        let cx = originX + hx, cy = originY + hy
        let steps = 8.0, span = max(blur, 0.5)
        let count = Int((2 * span * steps).rounded(.up)) + 2
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { table in
            for i in 0..<count {
                table[i] = UInt8((coverage(atDistance: Double(i) / steps - span) * 255).rounded())
            }
            let last = count - 1
            // The table index of a signed distance d is (d + span) × steps, rounded: with the
            // offset folded in, a pixel costs a few multiplies (and a root near the corners).
            let bias = (span - r) * steps + 0.5
            withUnsafeTemporaryAllocation(of: Double.self, capacity: pw) { columns in
                for px in 0..<pw { columns[px] = (abs(Double(px) + 0.5 - cx) - (hx - r)) * steps }
                for py in 0..<ph {
                    let qy = (abs(Double(py) + 0.5 - cy) - (hy - r)) * steps
                    let row = data + py * stride
                    for px in 0..<pw {
                        let qx = columns[px]
                        let d: Double
                        if qx > 0 && qy > 0 { d = (qx * qx + qy * qy).squareRoot() } else { d = max(qx, qy) }
                        let i = Int(max(0, min(Double(last), d + bias)))
                        row[px] = table[i]
                    }
                }
            }
        }
    }

    /// The complementary error function (Abramowitz & Stegun 7.1.26, error below 1.5e-7).
    static func erfc(_ x: Double) -> Double {
        let z = abs(x)
        let t = 1 / (1 + 0.327_591_1 * z)
        let poly = t * (0.254_829_592 + t * (-0.284_496_736 + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))))
        let e = poly * Math.exp(-z * z)
        return x >= 0 ? e : 2 - e
    }
}
