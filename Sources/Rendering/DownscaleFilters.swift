import CPixman
import Glibc

/// pixman separable-convolution filters for shrinking a surface by more than 4/3 (a
/// buffer_scale 2 window on a 1.25 output is sampled down by 1.6): bilinear reads only
/// the 2×2 source pixels around each sample, so finer detail aliases into moiré there;
/// a box filter over each output pixel's footprint averages all it covers (what cairo's
/// GOOD filter does). The parameters are made once per factor and kept: a frame that
/// shows the same windows makes none.
final class DownscaleFilters {
    /// Factors up to this use bilinear (the 4/3 of a buffer_scale 2 window at 1.5 does).
    static let threshold = 1.34
    /// Different factors in use at once are few (a window per buffer scale); beyond this
    /// many the cache starts again.
    private static let capacity = 16

    struct Params { let values: UnsafeMutablePointer<pixman_fixed_t>, count: Int32 }
    private var cache: [Int64: Params] = [:]

    deinit { for p in cache.values { free(p.values) } }

    /// The filter for an axis-aligned map whose factors are `sx`, `sy` (source pixels per
    /// output pixel), or nil when bilinear does (neither shrinks by more than the threshold).
    func params(sx: Double, sy: Double) -> Params? {
        let x = abs(sx), y = abs(sy)
        guard x > Self.threshold || y > Self.threshold, x.isFinite, y.isFinite else { return nil }
        // A factor below 1 (stretched on that axis) filters as 1: bilinear's reach.
        let fx = pixman_fixed_t(clamping: Int64((min(max(x, 1), 16) * 65536).rounded()))
        let fy = pixman_fixed_t(clamping: Int64((min(max(y, 1), 16) * 65536).rounded()))
        let key = Int64(fx) << 32 | Int64(UInt32(bitPattern: fy))
        if let p = cache[key] { return p }
        var count: Int32 = 0
        guard let values = pixman_filter_create_separable_convolution(&count, fx, fy, PIXMAN_KERNEL_BOX, PIXMAN_KERNEL_BOX,
                                                                       PIXMAN_KERNEL_BOX, PIXMAN_KERNEL_BOX, 4, 4) else { return nil }
        if cache.count >= Self.capacity {
            for p in cache.values { free(p.values) }
            cache.removeAll()
        }
        let p = Params(values: values, count: count)
        cache[key] = p
        return p
    }
}
