import AdaptivePointerEngine

/// SplitMix64, so every run benchmarks the same layouts and queries.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func double(_ r: ClosedRange<Double>) -> Double { Double.random(in: r, using: &self) }
}

let screen = Rect<Global>(x: 0, y: 0, width: 3840, height: 2160)

/// The two layouts the hit test is measured on.
enum Layout: String {
    /// Controls tiled like a dense UI (toolbars, icon grids, spreadsheet cells): frames do not
    /// overlap, hit regions are contiguous (small padding) or HIG-padded (12) for a third.
    case ui
    /// Controls and panels dropped at random: with 10 000 of them about a dozen hit regions
    /// overlap at every point, so every query has to rank a dozen real hits.
    case stress
}

/// Region `id` of `count` in the UI layout: a jittered grid whose pitch fills the output.
func tiledRegion(_ id: Int, of count: Int, _ rng: inout SplitMix64) -> Region {
    let aspect = screen.width / screen.height
    let columns = Int((Double(count) * aspect).squareRoot().rounded(.up))
    let rows = (count + columns - 1) / columns
    let pitchX = screen.width / Double(columns), pitchY = screen.height / Double(rows)
    let w = pitchX * rng.double(0.55...0.8), h = pitchY * rng.double(0.55...0.8)
    let x = Double(id % columns) * pitchX + rng.double(0...(pitchX - w))
    let y = Double(id / columns) * pitchY + rng.double(0...(pitchY - h))
    let gap = min(pitchX - w, pitchY - h)
    return Region(id: RegionID(UInt64(id)), owner: SurfaceID(UInt64(id / 50)), identifier: UInt32(id),
                  frame: Rect(x: x, y: y, width: w, height: h),
                  hitArea: id % 3 == 0 ? .bezelled : .padding(gap / 2 + 1))
}

/// Region `id` of the stress layout: ordinary controls at random, a large panel in 97.
func randomRegion(_ id: Int, _ rng: inout SplitMix64) -> Region {
    let large = id % 97 == 0
    let w = large ? rng.double(300...900) : rng.double(16...120)
    let h = large ? rng.double(200...600) : rng.double(16...60)
    let frame = Rect<Global>(x: rng.double(0...(screen.width - w)), y: rng.double(0...(screen.height - h)), width: w, height: h)
    return Region(id: RegionID(UInt64(id)), owner: SurfaceID(UInt64(id / 50)), identifier: UInt32(id), frame: frame,
                  hitArea: id % 3 == 0 ? .bezelless : .bezelled, stackingOrder: Int32(id % 4))
}

func makeRegions(_ count: Int, layout: Layout, seed: UInt64 = 1) -> [Region] {
    var rng = SplitMix64(seed: seed)
    return (0..<count).map { layout == .ui ? tiledRegion($0, of: count, &rng) : randomRegion($0, &rng) }
}

func makeEngine(regions count: Int, layout: Layout = .ui, seed: UInt64 = 1) -> PointerEngine {
    var engine = PointerEngine(outputBounds: screen)
    for r in makeRegions(count, layout: layout, seed: seed) { try! engine.regions.upsert(r) }
    return engine
}

/// Average number of hit regions containing a query point (how much ranking a query needs).
func overlapDepth(_ regions: [Region], _ queries: ArraySlice<Point<Global>>) -> Double {
    var hits = 0
    for q in queries { for r in regions where r.hitRect.contains(q) { hits += 1 } }
    return Double(hits) / Double(queries.count)
}

/// A smooth pointer path: a slow Lissajous sweep over the whole output, `count` samples
/// about 2–3 points apart (what a 1 kHz mouse produces at a brisk pace).
func pointerPath(_ count: Int) -> [Point<Global>] {
    (0..<count).map { i in
        let t = Double(i) * 0.0004
        return Point(x: screen.midX + screen.width * 0.49 * Math.sin(t * 3.1),
                     y: screen.midY + screen.height * 0.49 * Math.sin(t * 4.3 + 0.5))
    }
}

/// The frame benchmark's scene: 1 000 regions with every effect, some accessories, text and
/// annotations, so a pointer crossing it keeps shapes, effects and accessories animating.
func makeFrameEngine() -> PointerEngine {
    var engine = makeEngine(regions: 1_000, seed: 7)
    var styles = SplitMix64(seed: 8)
    let effects: [PointerEffect] = [.highlight, .lift, .hover(tint: .overlay, shadow: true, scale: true), .automatic]
    for i in stride(from: 0, to: 1_000, by: 1) {
        guard var r = engine.regions[RegionID(UInt64(i))] else { continue }
        r.style.effect = effects[i % 4]
        if i % 5 == 0 { r.style.accessories = try! AccessorySet([PointerAccessory(.arrow, position: .left), PointerAccessory(.plus, position: .top)]) }
        if i % 7 == 0 { r.style.shape = .verticalBeam(length: styles.double(14...40)) }
        if i % 11 == 0 { r.annotation = "\(i)" }
        try! engine.regions.upsert(r)
    }
    return engine
}
