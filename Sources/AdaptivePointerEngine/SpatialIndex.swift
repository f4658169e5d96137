/// A region's indexed rectangle as listed in a grid cell. The edges are `Float`s rounded
/// outward, so testing a point against them never misses a region (the exact `Double` test
/// follows) while a cell scan reads only 20 bytes per candidate.
struct CellEntry: Sendable {
    var minX, minY, maxX, maxY: Float
    var slot: Int32

    init(_ r: Rect<Global>, slot: Int32) {
        minX = Float(r.minX).nextDown
        minY = Float(r.minY).nextDown
        maxX = Float(r.maxX).nextUp
        maxY = Float(r.maxY).nextUp
        self.slot = slot
    }

    static let empty = CellEntry(.zero, slot: -1)

    /// `x`/`y` already converted with `Float(_:)`; rounding is monotonic, so a point inside
    /// the exact rectangle is always inside this one.
    @inline(__always) func mayContain(_ x: Float, _ y: Float) -> Bool {
        x >= minX && x < maxX && y >= minY && y < maxY
    }
}

/// Which cells a region occupies, and on which level of the grid.
struct CellRange: Hashable, Sendable {
    enum Level: UInt8, Sendable { case fine, coarse, oversized, none }
    var level: Level
    var c0: Int32, r0: Int32, c1: Int32, r1: Int32

    static let none = CellRange(level: .none, c0: 0, r0: 0, c1: -1, r1: -1)
}

/// One uniform grid over the output bounds. Each cell's entries live in a block of one shared
/// pool (no array per cell: a query touches one contiguous run of memory and retains nothing).
/// A full block moves to the end of the pool with twice the room; the pool is compacted once
/// a third of it is abandoned blocks. Points and rectangles outside the bounds are clamped to the
/// border cells, which keeps queries anywhere correct: clamping is monotonic, so a point
/// inside a rectangle always falls in a cell of that rectangle's clamped range.
struct BucketGrid: Sendable {
    private struct Bucket: Sendable {
        var start: Int32 = 0
        var count: Int32 = 0
        var capacity: Int32 = 0
    }

    let originX: Double
    let originY: Double
    let inverseCell: Double
    let columns: Int
    let rows: Int
    private var buckets: [Bucket]
    private var pool: [CellEntry] = []
    private var abandoned = 0

    init(bounds: Rect<Global>, cellSize: Double) {
        let size = max(cellSize, 1)
        originX = bounds.minX
        originY = bounds.minY
        inverseCell = 1 / size
        columns = max(1, min(4096, Int((max(bounds.width, 1) / size).rounded(.up))))
        rows = max(1, min(4096, Int((max(bounds.height, 1) / size).rounded(.up))))
        buckets = Array(repeating: Bucket(), count: columns * rows)
    }

    @inline(__always) private func column(_ x: Double) -> Int {
        Int(min(max((x - originX) * inverseCell, 0), Double(columns - 1)))
    }

    @inline(__always) private func row(_ y: Double) -> Int {
        Int(min(max((y - originY) * inverseCell, 0), Double(rows - 1)))
    }

    func range(for r: Rect<Global>, level: CellRange.Level) -> CellRange {
        CellRange(level: level, c0: Int32(column(r.minX)), r0: Int32(row(r.minY)),
                  c1: Int32(column(r.maxX)), r1: Int32(row(r.maxY)))
    }

    /// Static, so mutating callers do not hold a read access to `self` (which would make the
    /// pool non-unique and copy it on every write).
    @inline(__always) private static func forEachCell(_ range: CellRange, columns: Int, _ body: (Int) -> Void) {
        guard range.c1 >= range.c0, range.r1 >= range.r0 else { return }
        for r in Int(range.r0)...Int(range.r1) {
            for c in Int(range.c0)...Int(range.c1) { body(r * columns + c) }
        }
    }

    mutating func insert(_ entry: CellEntry, _ range: CellRange) {
        Self.forEachCell(range, columns: columns) { cell in
            var b = buckets[cell]
            if b.count == b.capacity { b = grow(b) }
            pool[Int(b.start + b.count)] = entry
            b.count += 1
            buckets[cell] = b
        }
        if abandoned > 4096 && abandoned > pool.count / 3 { compact() }
    }

    mutating func remove(_ slot: Int32, _ range: CellRange) {
        Self.forEachCell(range, columns: columns) { cell in
            var b = buckets[cell]
            let start = Int(b.start), end = start + Int(b.count)
            for i in start..<end where pool[i].slot == slot {
                pool[i] = pool[end - 1]
                b.count -= 1
                buckets[cell] = b
                return
            }
        }
    }

    /// The same cells, a new rectangle (a region moved or resized within its cells).
    mutating func replace(_ entry: CellEntry, _ range: CellRange) {
        Self.forEachCell(range, columns: columns) { cell in
            let b = buckets[cell]
            for i in Int(b.start)..<Int(b.start + b.count) where pool[i].slot == entry.slot {
                pool[i] = entry
                return
            }
        }
    }

    private mutating func grow(_ b: Bucket) -> Bucket {
        let capacity = max(4, b.capacity * 2)
        let start = pool.count
        pool.append(contentsOf: repeatElement(CellEntry.empty, count: Int(capacity)))
        for i in 0..<Int(b.count) { pool[start + i] = pool[Int(b.start) + i] }
        abandoned += Int(b.capacity)
        return Bucket(start: Int32(start), count: b.count, capacity: capacity)
    }

    private mutating func compact() {
        var fresh: [CellEntry] = []
        fresh.reserveCapacity(pool.count - abandoned)
        for cell in buckets.indices {
            let b = buckets[cell]
            let start = fresh.count
            fresh.append(contentsOf: pool[Int(b.start)..<Int(b.start + b.capacity)])
            buckets[cell].start = Int32(start)
        }
        pool = fresh
        abandoned = 0
    }

    /// Slots whose rectangle may contain (x, y), from the one cell holding it. Allocation-free.
    @inline(__always)
    func forEachCandidate(x: Double, y: Double, fx: Float, fy: Float, _ body: (Int32) -> Void) {
        let b = buckets[row(y) * columns + column(x)]
        guard b.count > 0 else { return }
        pool.withUnsafeBufferPointer { p in
            for i in Int(b.start)..<Int(b.start + b.count) where p[i].mayContain(fx, fy) {
                body(p[i].slot)
            }
        }
    }

    /// Entries listed over all cells (a region appears once per cell it covers).
    var entryCount: Int { buckets.reduce(0) { $0 + Int($1.count) } }

    /// Every slot listed in the cells `area` covers (repeats possible).
    func forEachSlot(in area: Rect<Global>, _ body: (Int32) -> Void) {
        pool.withUnsafeBufferPointer { p in
            Self.forEachCell(range(for: area, level: .fine), columns: columns) { cell in
                let b = buckets[cell]
                for i in Int(b.start)..<Int(b.start + b.count) { body(p[i].slot) }
            }
        }
    }
}

/// The spatial index: a fine grid for ordinary controls, a coarse grid (8× the cell) for
/// panels that would fill too many fine cells, and a short list for the few regions too large
/// even for that (a full-screen canvas). A hit test reads one fine cell, one coarse cell and
/// the list; an update touches a handful of cells.
struct UniformGrid: Sendable {
    /// Cells a region may cover on one level before it moves up a level.
    static let maximumCells = 48

    private var fine: BucketGrid
    private var coarse: BucketGrid
    private var oversized: [CellEntry] = []

    init(bounds: Rect<Global>, cellSize: Double) {
        fine = BucketGrid(bounds: bounds, cellSize: cellSize)
        coarse = BucketGrid(bounds: bounds, cellSize: cellSize * 8)
    }

    func range(for r: Rect<Global>) -> CellRange {
        let f = fine.range(for: r, level: .fine)
        if Int(f.c1 - f.c0 + 1) * Int(f.r1 - f.r0 + 1) <= Self.maximumCells { return f }
        let c = coarse.range(for: r, level: .coarse)
        if Int(c.c1 - c.c0 + 1) * Int(c.r1 - c.r0 + 1) <= Self.maximumCells { return c }
        return CellRange(level: .oversized, c0: 0, r0: 0, c1: -1, r1: -1)
    }

    mutating func insert(_ entry: CellEntry, _ range: CellRange) {
        switch range.level {
        case .fine: fine.insert(entry, range)
        case .coarse: coarse.insert(entry, range)
        case .oversized: oversized.append(entry)
        case .none: break
        }
    }

    mutating func remove(_ slot: Int32, _ range: CellRange) {
        switch range.level {
        case .fine: fine.remove(slot, range)
        case .coarse: coarse.remove(slot, range)
        case .oversized:
            if let i = oversized.firstIndex(where: { $0.slot == slot }) {
                oversized.swapAt(i, oversized.count - 1)
                oversized.removeLast()
            }
        case .none: break
        }
    }

    /// A region's rectangle changed: rewrites it in place when it stays in the same cells.
    mutating func update(_ entry: CellEntry, from old: CellRange, to new: CellRange) {
        if old == new && old.level != .oversized && old.level != .none {
            old.level == .fine ? fine.replace(entry, old) : coarse.replace(entry, old)
        } else {
            remove(entry.slot, old)
            insert(entry, new)
        }
    }

    /// Slots whose indexed rectangle may contain `p` (a superset; the caller tests exactly).
    @inline(__always)
    func forEachCandidate(at p: Point<Global>, _ body: (Int32) -> Void) {
        let fx = Float(p.x), fy = Float(p.y)
        fine.forEachCandidate(x: p.x, y: p.y, fx: fx, fy: fy, body)
        coarse.forEachCandidate(x: p.x, y: p.y, fx: fx, fy: fy, body)
        oversized.withUnsafeBufferPointer { list in
            for e in list where e.mayContain(fx, fy) { body(e.slot) }
        }
    }

    /// Entries on all levels; zero once every region is gone (tests check for leftovers).
    var entryCount: Int { fine.entryCount + coarse.entryCount + oversized.count }

    /// Slots whose cells meet `area` (repeats possible).
    func forEachSlot(in area: Rect<Global>, _ body: (Int32) -> Void) {
        fine.forEachSlot(in: area, body)
        coarse.forEachSlot(in: area, body)
        for e in oversized { body(e.slot) }
    }
}
