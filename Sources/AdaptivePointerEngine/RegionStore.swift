/// What the hit test reads about a region, packed apart from the full `Region` (which holds
/// strings and paths) so scanning candidates touches little memory.
struct HitEntry: Sendable {
    var hit: Rect<Global>
    var frame: Rect<Global>
    var area: Double
    var stackingOrder: Int32
    var id: RegionID
    /// Magnetism decided from the region's own settings (the global switch is applied later).
    var attracts: Bool
    var live: Bool

    static let dead = HitEntry(hit: .zero, frame: .zero, area: 0, stackingOrder: 0,
                               id: RegionID(0), attracts: false, live: false)

    /// The hit test's total order (distances squared): higher stacking order, then the frame nearest the point
    /// (so overlapping padded hit regions of neighbours in a bar split down the middle), then
    /// the smaller element (a button inside a card), then the lower id.
    @inline(__always)
    static func isBetter(_ a: HitEntry, distance da: Double, than b: HitEntry, distance db: Double) -> Bool {
        if a.stackingOrder != b.stackingOrder { return a.stackingOrder > b.stackingOrder }
        if da != db { return da < db }
        if a.area != b.area { return a.area < b.area }
        return a.id < b.id
    }
}

/// All regions known to the engine, keyed by `RegionID`, with a spatial index kept up to
/// date one region at a time (clients change a few regions per commit, not all of them).
public struct RegionStore: Sendable {
    private var regions: [Region?] = []
    private var entries: [HitEntry] = []
    private var ranges: [CellRange] = []
    private var versions: [UInt64] = []
    private var slotByID: [RegionID: Int32] = [:]
    private var freeSlots: [Int32] = []
    private var grid: UniformGrid
    private let cellSize: Double
    private let largeElementSide: Double
    /// Bumped by every change; the engine re-reads its targeted region only when it moves.
    public private(set) var generation: UInt64 = 0

    init(bounds: Rect<Global>, cellSize: Double, largeElementSide: Double) {
        self.cellSize = cellSize
        self.largeElementSide = largeElementSide
        grid = UniformGrid(bounds: bounds, cellSize: cellSize)
    }

    public var count: Int { slotByID.count }

    public subscript(id: RegionID) -> Region? {
        guard let s = slotByID[id] else { return nil }
        return regions[Int(s)]
    }

    /// Every region, in no particular order.
    public var all: [Region] { regions.compactMap { $0 } }

    /// Cell entries in the spatial index (for consistency checks).
    var indexedEntryCount: Int { grid.entryCount }

    /// Changes counter of one region (engine uses it to notice a restyled target).
    func version(of id: RegionID) -> UInt64? {
        guard let s = slotByID[id] else { return nil }
        return versions[Int(s)]
    }

    /// Inserts a region or replaces the one with the same id. Validates first, so nothing
    /// malformed (NaN, negative sizes, bad paths) reaches the index or the renderer.
    public mutating func upsert(_ region: Region) throws(RegionError) {
        try region.validate()
        let entry = makeEntry(region)
        let indexed = entry.hit.union(entry.frame)
        let range = grid.range(for: indexed)
        if let s = slotByID[region.id] {
            let i = Int(s)
            grid.update(CellEntry(indexed, slot: s), from: ranges[i], to: range)
            ranges[i] = range
            regions[i] = region
            entries[i] = entry
            versions[i] &+= 1
        } else {
            let s: Int32
            if let free = freeSlots.popLast() {
                s = free
                regions[Int(s)] = region
                entries[Int(s)] = entry
                ranges[Int(s)] = range
                versions[Int(s)] &+= 1
            } else {
                s = Int32(regions.count)
                regions.append(region)
                entries.append(entry)
                ranges.append(range)
                versions.append(0)
            }
            slotByID[region.id] = s
            grid.insert(CellEntry(indexed, slot: s), range)
        }
        generation &+= 1
    }

    @discardableResult
    public mutating func remove(id: RegionID) -> Region? {
        guard let s = slotByID.removeValue(forKey: id) else { return nil }
        let i = Int(s)
        let old = regions[i]
        grid.remove(s, ranges[i])
        regions[i] = nil
        entries[i] = .dead
        ranges[i] = .none
        versions[i] &+= 1
        freeSlots.append(s)
        generation &+= 1
        return old
    }

    /// Drops every region of a surface (surface destroyed, client gone). Returns how many.
    @discardableResult
    public mutating func removeAll(owner: SurfaceID) -> Int {
        var doomed: [RegionID] = []
        for case let r? in regions where r.owner == owner { doomed.append(r.id) }
        for id in doomed { remove(id: id) }
        return doomed.count
    }

    /// Re-creates the grid for new output bounds (outputs added, removed or resized).
    mutating func rebuild(bounds: Rect<Global>) {
        grid = UniformGrid(bounds: bounds, cellSize: cellSize)
        for i in regions.indices where entries[i].live {
            let indexed = entries[i].hit.union(entries[i].frame)
            ranges[i] = grid.range(for: indexed)
            grid.insert(CellEntry(indexed, slot: Int32(i)), ranges[i])
        }
        generation &+= 1
    }

    private func makeEntry(_ r: Region) -> HitEntry {
        let effect = r.resolvedEffect(largeElementSide: largeElementSide)
        let attracts: Bool
        switch r.drawingTool == nil ? r.magnetism : .off {
        case .on: attracts = true
        case .off: attracts = false
        case .automatic: attracts = effect.attractsByDefault || r.style.shape.isBeam
        }
        return HitEntry(hit: r.hitRect, frame: r.frame, area: r.frame.width * r.frame.height,
                        stackingOrder: r.stackingOrder, id: r.id, attracts: attracts, live: true)
    }

    // MARK: Queries

    /// The region under `p`: its hit rectangle (or, with `framesOnly`, its frame) contains
    /// `p`, ties broken by `HitEntry.isBetter`. Allocation-free.
    public func hitTest(_ p: Point<Global>, framesOnly: Bool = false) -> RegionID? {
        guard p.isFinite else { return nil }
        let slot = bestSlot(at: p, framesOnly: framesOnly)
        return slot < 0 ? nil : entries[Int(slot)].id
    }

    func bestSlot(at p: Point<Global>, framesOnly: Bool) -> Int32 {
        var best: Int32 = -1
        var bestDistance = 0.0
        entries.withUnsafeBufferPointer { es in
            @inline(__always) func consider(_ s: Int32) {
                let e = es[Int(s)]
                guard (framesOnly ? e.frame : e.hit).contains(p) else { return }
                let d = e.frame.squaredDistance(to: p)
                if best < 0 || HitEntry.isBetter(e, distance: d, than: es[Int(best)], distance: bestDistance) {
                    best = s
                    bestDistance = d
                }
            }
            grid.forEachCandidate(at: p) { consider($0) }
        }
        return best
    }

    /// The same answer as `hitTest` by scanning every region: the benchmark's baseline and
    /// the tests' oracle for the index.
    public func linearHitTest(_ p: Point<Global>, framesOnly: Bool = false) -> RegionID? {
        guard p.isFinite else { return nil }
        var best = -1
        var bestDistance = 0.0
        for i in entries.indices {
            let e = entries[i]
            guard e.live, (framesOnly ? e.frame : e.hit).contains(p) else { continue }
            let d = e.frame.squaredDistance(to: p)
            if best < 0 || HitEntry.isBetter(e, distance: d, than: entries[best], distance: bestDistance) {
                best = i
                bestDistance = d
            }
        }
        return best < 0 ? nil : entries[best].id
    }

    /// Calls `body` for every attracting region whose hit rectangle meets `area` (possibly
    /// more than once each). Used by flick prediction; allocation-free.
    func forEachAttracting(in area: Rect<Global>, _ body: (HitEntry) -> Void) {
        guard area.isFinite else { return }
        entries.withUnsafeBufferPointer { es in
            grid.forEachSlot(in: area) { s in
                let e = es[Int(s)]
                if e.live, e.attracts, e.hit.intersects(area) { body(e) }
            }
        }
    }

    /// Whether `p`, outside region `id`'s hit area (its frame with `framesOnly`), lies in the
    /// gap between it and a neighbour in the same bar — a region whose hit area is at most
    /// `maxGap` away along one axis and overlaps it along the other — with `heading` not
    /// pointing away from that neighbour (a pointer at rest is on its way). Allocation-free.
    func isBetweenBarNeighbours(leaving id: RegionID, at p: Point<Global>, heading v: Vector<Global>,
                                maxGap: Double, framesOnly: Bool) -> Bool {
        guard let s = slotByID[id], maxGap >= 0, maxGap.isFinite, p.isFinite else { return false }
        let a = framesOnly ? entries[Int(s)].frame : entries[Int(s)].hit
        var found = false
        entries.withUnsafeBufferPointer { es in
            grid.forEachSlot(in: a.outset(by: maxGap + 1)) { n in
                guard !found, n != s, es[Int(n)].live else { return }
                let b = framesOnly ? es[Int(n)].frame : es[Int(n)].hit
                found = Self.gap(between: a, and: b, holds: p, heading: v, maxGap: maxGap)
            }
        }
        return found
    }

    /// `a` and `b` side by side with a gap of at most `maxGap` (a row or a column), `p` in
    /// that gap, `v` not pointing from `b` back toward `a`.
    private static func gap(between a: Rect<Global>, and b: Rect<Global>, holds p: Point<Global>,
                            heading v: Vector<Global>, maxGap: Double) -> Bool {
        let yLo = max(a.minY, b.minY), yHi = min(a.maxY, b.maxY)
        if yHi > yLo && p.y >= yLo && p.y <= yHi {
            if b.minX >= a.maxX && b.minX - a.maxX <= maxGap && p.x >= a.maxX && p.x <= b.minX && v.dx >= 0 { return true }
            if a.minX >= b.maxX && a.minX - b.maxX <= maxGap && p.x >= b.maxX && p.x <= a.minX && v.dx <= 0 { return true }
        }
        let xLo = max(a.minX, b.minX), xHi = min(a.maxX, b.maxX)
        if xHi > xLo && p.x >= xLo && p.x <= xHi {
            if b.minY >= a.maxY && b.minY - a.maxY <= maxGap && p.y >= a.maxY && p.y <= b.minY && v.dy >= 0 { return true }
            if a.minY >= b.maxY && a.minY - b.maxY <= maxGap && p.y >= b.maxY && p.y <= a.minY && v.dy <= 0 { return true }
        }
        return false
    }

    /// Magnetism of a region from its own settings.
    func attracts(_ id: RegionID) -> Bool {
        guard let s = slotByID[id] else { return false }
        return entries[Int(s)].attracts
    }
}
