import CPixman

/// Int32 arithmetic that saturates at the type's bounds instead of trapping.
///
/// Every integer a client sends (positions, offsets, sizes, hotspots, scales) is
/// combined through these or through `PixelRect`, whose operations use them: a
/// client at the edge of int32 gets a clamped answer, never a Swift overflow trap
/// that would end the session for every app (issue 17).
extension Int32 {
    /// `self + other`, clamped to Int32.
    @inlinable public func clampedAdding(_ other: Int32) -> Int32 { Int32(clamping: Int64(self) + Int64(other)) }
    /// `self - other`, clamped to Int32.
    @inlinable public func clampedSubtracting(_ other: Int32) -> Int32 { Int32(clamping: Int64(self) - Int64(other)) }
    /// `self * other`, clamped to Int32.
    @inlinable public func clampedMultiplied(by other: Int32) -> Int32 { Int32(clamping: Int64(self) * Int64(other)) }
}

/// An integer rectangle in some pixel space.
///
/// Its operations cannot trap: edges, offsets and scales saturate at the bounds of
/// Int32 (see `Int32.clampedAdding`), so a rect built from client numbers is safe to
/// move, scale, intersect and join.
public struct PixelRect: Hashable, Sendable, CustomStringConvertible {
    public var x: Int32, y: Int32, width: Int32, height: Int32

    public init(x: Int32, y: Int32, width: Int32, height: Int32) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    /// A rect from client-supplied numbers, limited to ±2^24 so no arithmetic on
    /// it can overflow (clients damage with INT32_MAX to mean "everything").
    public static func sanitized(x: Int32, y: Int32, width: Int32, height: Int32) -> PixelRect {
        let limit: Int64 = 1 << 24
        func c(_ v: Int32) -> Int64 { min(max(Int64(v), -limit), limit) }
        let x0 = c(x), y0 = c(y)
        let x1 = min(x0 + max(0, c(width)), limit), y1 = min(y0 + max(0, c(height)), limit)
        return PixelRect(x: Int32(x0), y: Int32(y0), width: Int32(x1 - x0), height: Int32(y1 - y0))
    }

    /// The rect from (x0, y0) to (x1, y1), computed wide and clamped to Int32.
    public static func spanning(x0: Int64, y0: Int64, x1: Int64, y1: Int64) -> PixelRect {
        let cx0 = Int32(clamping: x0), cy0 = Int32(clamping: y0)
        return PixelRect(x: cx0, y: cy0, width: Int32(clamping: max(0, x1 - Int64(cx0))), height: Int32(clamping: max(0, y1 - Int64(cy0))))
    }

    public var isEmpty: Bool { width <= 0 || height <= 0 }
    /// The right edge, saturating at Int32.max.
    public var maxX: Int32 { x.clampedAdding(width) }
    /// The bottom edge, saturating at Int32.max.
    public var maxY: Int32 { y.clampedAdding(height) }
    public var description: String { "\(x),\(y) \(width)×\(height)" }

    public func contains(x px: Double, y py: Double) -> Bool {
        px >= Double(x) && py >= Double(y) && px < Double(maxX) && py < Double(maxY)
    }

    public func intersection(_ o: PixelRect) -> PixelRect {
        let x0 = max(x, o.x), y0 = max(y, o.y), x1 = min(maxX, o.maxX), y1 = min(maxY, o.maxY)
        return x1 > x0 && y1 > y0 ? PixelRect(x: x0, y: y0, width: x1.clampedSubtracting(x0), height: y1.clampedSubtracting(y0))
            : PixelRect(x: 0, y: 0, width: 0, height: 0)
    }

    public func union(_ o: PixelRect) -> PixelRect {
        if isEmpty { return o }
        if o.isEmpty { return self }
        let x0 = min(x, o.x), y0 = min(y, o.y)
        return PixelRect(x: x0, y: y0, width: max(maxX, o.maxX).clampedSubtracting(x0), height: max(maxY, o.maxY).clampedSubtracting(y0))
    }

    public func offsetBy(dx: Int32, dy: Int32) -> PixelRect {
        PixelRect(x: x.clampedAdding(dx), y: y.clampedAdding(dy), width: width, height: height)
    }

    /// Every side multiplied by `s` (logical to output pixels).
    public func scaled(by s: Int32) -> PixelRect {
        PixelRect(x: x.clampedMultiplied(by: s), y: y.clampedMultiplied(by: s), width: width.clampedMultiplied(by: s), height: height.clampedMultiplied(by: s))
    }
}

/// A set of rectangles: `pixman_region32_t`, owned.
public final class PixelRegion {
    /// Heap-allocated so pixman always sees one stable address.
    let raw = UnsafeMutablePointer<pixman_region32_t>.allocate(capacity: 1)

    public init() { pixman_region32_init(raw) }
    public convenience init(_ rect: PixelRect) {
        self.init()
        add(rect)
    }
    deinit {
        pixman_region32_fini(raw)
        raw.deallocate()
    }

    public var isEmpty: Bool { pixman_region32_not_empty(raw) == 0 }
    public var extents: PixelRect {
        let e = pixman_region32_extents(raw)!.pointee
        return PixelRect(x: e.x1, y: e.y1, width: e.x2.clampedSubtracting(e.x1), height: e.y2.clampedSubtracting(e.y1))
    }
    public var rects: [PixelRect] {
        var n: Int32 = 0
        guard let boxes = pixman_region32_rectangles(raw, &n) else { return [] }
        return (0..<Int(n)).map { PixelRect(x: boxes[$0].x1, y: boxes[$0].y1, width: boxes[$0].x2.clampedSubtracting(boxes[$0].x1), height: boxes[$0].y2.clampedSubtracting(boxes[$0].y1)) }
    }
    /// Calls `body` with each rect, without building an array (per-frame paths must not allocate).
    public func forEachRect(_ body: (PixelRect) -> Void) {
        var n: Int32 = 0
        guard let boxes = pixman_region32_rectangles(raw, &n) else { return }
        for i in 0..<Int(n) {
            body(PixelRect(x: boxes[i].x1, y: boxes[i].y1, width: boxes[i].x2.clampedSubtracting(boxes[i].x1), height: boxes[i].y2.clampedSubtracting(boxes[i].y1)))
        }
    }
    /// How many rectangles pixman holds the region as.
    public var rectangleCount: Int { Int(pixman_region32_n_rects(raw)) }
    /// Total area in pixels, for damage statistics.
    public var area: Int { rects.reduce(0) { $0 + Int($1.width) * Int($1.height) } }

    public func add(_ rect: PixelRect) {
        guard !rect.isEmpty else { return }
        // pixman adds width to x in C: keep the far edge inside Int32.
        pixman_region32_union_rect(raw, raw, rect.x, rect.y, UInt32(rect.maxX.clampedSubtracting(rect.x)), UInt32(rect.maxY.clampedSubtracting(rect.y)))
    }
    public func add(_ other: PixelRegion) { pixman_region32_union(raw, raw, other.raw) }

    /// Adds many rects at once: pixman sorts them into bands (n log n) and joins the result
    /// in one pass, where adding them one by one walks the whole region for each.
    public func add(_ rects: [PixelRect]) {
        let boxes = rects.compactMap { r in r.isEmpty ? nil : pixman_box32_t(x1: r.x, y1: r.y, x2: r.maxX, y2: r.maxY) }
        guard !boxes.isEmpty else { return }
        var batch = pixman_region32_t()
        _ = boxes.withUnsafeBufferPointer { pixman_region32_init_rects(&batch, $0.baseAddress, Int32(boxes.count)) }
        pixman_region32_union(raw, raw, &batch)
        pixman_region32_fini(&batch)
    }
    public func subtract(_ rect: PixelRect) {
        var r = pixman_region32_t()
        pixman_region32_init_rect(&r, rect.x, rect.y, UInt32(max(0, rect.maxX.clampedSubtracting(rect.x))), UInt32(max(0, rect.maxY.clampedSubtracting(rect.y))))
        pixman_region32_subtract(raw, raw, &r)
        pixman_region32_fini(&r)
    }
    public func intersect(_ rect: PixelRect) {
        pixman_region32_intersect_rect(raw, raw, rect.x, rect.y, UInt32(max(0, rect.maxX.clampedSubtracting(rect.x))), UInt32(max(0, rect.maxY.clampedSubtracting(rect.y))))
    }
    public func contains(x: Int32, y: Int32) -> Bool { pixman_region32_contains_point(raw, x, y, nil) != 0 }
    /// Whether all of `rect` is inside the region.
    public func contains(_ rect: PixelRect) -> Bool {
        guard !rect.isEmpty else { return false }
        var box = pixman_box32_t(x1: rect.x, y1: rect.y, x2: rect.maxX, y2: rect.maxY)
        return pixman_region32_contains_rectangle(raw, &box) == PIXMAN_REGION_IN
    }
    /// Whether any of `rect` is inside the region.
    public func intersects(_ rect: PixelRect) -> Bool {
        guard !rect.isEmpty else { return false }
        var box = pixman_box32_t(x1: rect.x, y1: rect.y, x2: rect.maxX, y2: rect.maxY)
        return pixman_region32_contains_rectangle(raw, &box) != PIXMAN_REGION_OUT
    }
    public func clear() {
        pixman_region32_clear(raw)
    }
    public func copy() -> PixelRegion {
        let r = PixelRegion()
        pixman_region32_copy(r.raw, raw)
        return r
    }
}

/// Building a region from a client's requests: rects added and subtracted, in order.
extension PixelRegion {
    /// One `wl_region.add` (`adds`) or `wl_region.subtract`.
    public struct Edit: Sendable {
        public var rect: PixelRect, adds: Bool
        public init(_ rect: PixelRect, adds: Bool) { self.rect = rect; self.adds = adds }
    }

    /// Applies `edits` in order, exactly as adding and subtracting them one by one would,
    /// with two passes over the region instead of one per edit.
    ///
    /// A point ends up in the region when the last edit covering it adds it, or, when none
    /// covers it, when it was there before: the result is (region − covered) ∪ painted, where
    /// `covered` is the union of every edit and `painted` the points whose last edit adds.
    /// Both come from halving the edits: for a run L then R, painted = (painted(L) − covered(R))
    /// ∪ painted(R), and a run of one kind is a single sorted union (pixman sorts the boxes into
    /// bands, n log n). One by one, each edit walked the whole region: a region kept near its
    /// rectangle limit by alternating adds and subtracts cost time in the square of the requests.
    public func apply(_ edits: [Edit]) {
        guard !edits.isEmpty else { return }
        if !edits.contains(where: { !$0.adds }) { return add(edits.map(\.rect)) }
        let (covered, painted) = Self.paint(edits[...])
        pixman_region32_subtract(raw, raw, covered.raw)
        pixman_region32_union(raw, raw, painted.raw)
    }

    /// What `edits` cover, and what they leave added (see `apply`). The recursion halves the
    /// edits, so its depth is the logarithm of their count.
    private static func paint(_ edits: ArraySlice<Edit>) -> (covered: PixelRegion, painted: PixelRegion) {
        let adds = edits.first!.adds
        if edits.allSatisfy({ $0.adds == adds }) {
            let covered = PixelRegion()
            covered.add(edits.map(\.rect))
            return (covered, adds ? covered : PixelRegion())
        }
        let middle = edits.startIndex + edits.count / 2
        let (coveredLeft, paintedLeft) = paint(edits[..<middle]), (coveredRight, paintedRight) = paint(edits[middle...])
        // Fresh regions: a run of adds returns one region as both of its halves.
        let covered = PixelRegion(), painted = PixelRegion()
        pixman_region32_union(covered.raw, coveredLeft.raw, coveredRight.raw)
        pixman_region32_subtract(painted.raw, paintedLeft.raw, coveredRight.raw)
        pixman_region32_union(painted.raw, painted.raw, paintedRight.raw)
        return (covered, painted)
    }
}
