import AllocationCounter
import AdaptivePointerEngine
import Glibc

/// Re-run of this executable with the malloc interposer preloaded.
let allocationsFlag = "--count-allocations"

// PointerEngineBenchmark: how fast the pointer engine answers the questions a compositor asks
// on every input event and frame. Run with `swift run -c release PointerEngineBenchmark`.

/// Nanoseconds per iteration of `body` run `iterations` times, best of `rounds`.
func nanoseconds(iterations: Int, rounds: Int = 5, _ body: (Int) -> Void) -> Double {
    var best = Double.infinity
    let clock = ContinuousClock()
    for _ in 0..<rounds {
        let start = clock.now
        for i in 0..<iterations { body(i) }
        let d = clock.now - start
        let ns = Double(d.components.seconds) * 1e9 + Double(d.components.attoseconds) / 1e9
        best = min(best, ns / Double(iterations))
    }
    return best
}

func pad(_ s: String, _ n: Int) -> String { s.count >= n ? s : String(repeating: " ", count: n - s.count) + s }
func fmt(_ x: Double) -> String {
    let r = (x * 10).rounded() / 10
    return r >= 100 ? String(Int(r.rounded())) : String(r)
}

var sink = 0   // keeps results alive so the optimiser cannot drop the work

/// Child mode (see AllocationCounter): only the frame loop, counted.
@MainActor func countFrameAllocations() {
    var engine = makeFrameEngine()
    let path = pointerPath(100_000)
    var t = 0.0, i = 0
    func frame() {
        t += 1.0 / 120
        engine.handle(.motion(to: path[i % path.count]), at: Instant(seconds: t))
        let p = engine.step(to: Instant(seconds: t))
        engine.drainEvents { _ in sink &+= 1 }
        sink &+= p.isAnimating ? 1 : 0
        i += 1
    }
    for _ in 0..<20_000 { frame() }
    var control: [[Int]] = []
    guard let check = AllocationCounter.record({ for k in 0..<1000 { control.append([k]) } }), check.allocations >= 1000 else {
        print("Heap allocations per steady-state frame: counter broken (control loop not seen)")
        exit(1)
    }
    sink &+= control.count
    let frames = 50_000
    guard let counted = AllocationCounter.record({ for _ in 0..<frames { frame() } }) else { exit(1) }
    print("Heap allocations per steady-state frame: \(fmt(Double(counted.allocations) / Double(frames))) "
          + "(\(counted.allocations) mallocs, \(counted.frees) frees in \(frames) frames; "
          + "counter checked: \(check.allocations) for 1 000 arrays)")
}

if CommandLine.arguments.contains(allocationsFlag) {
    countFrameAllocations()
    exit(0)
}

print("PointerEngine benchmark (output 3840×2160, grid cell 32 pt)")
var rng = SplitMix64(seed: 99)
let randomQueries = (0..<8192).map { _ in Point<Global>(x: rng.double(0...3840), y: rng.double(0...2160)) }
let path = pointerPath(8192)
var report: [String: Double] = [:]

for layout in [Layout.ui, .stress] {
    print("")
    print("Hit test, \(layout) layout, ns/query   index   linear   speed-up   hits/point")
    for count in [100, 1_000, 10_000] {
        let regions = makeRegions(count, layout: layout)
        let engine = makeEngine(regions: count, layout: layout)
        let store = engine.regions
        let depth = overlapDepth(regions, randomQueries.prefix(500))
        for (name, queries) in [("random", randomQueries), ("path", path)] {
            // Index and scan must agree before their speeds mean anything.
            for q in queries.prefix(2000) where store.hitTest(q) != store.linearHitTest(q) {
                fatalError("index and linear scan disagree at \(q)")
            }
            let indexed = nanoseconds(iterations: 400_000) { i in
                if let id = store.hitTest(queries[i & 8191]) { sink &+= Int(id.rawValue) }
            }
            let linearIterations = max(2_000, 4_000_000 / count)
            let linear = nanoseconds(iterations: linearIterations, rounds: 3) { i in
                if let id = store.linearHitTest(queries[i & 8191]) { sink &+= Int(id.rawValue) }
            }
            report["\(layout)-\(name)\(count)"] = indexed
            print("  \(pad(String(count), 6)) regions, \(pad(name, 6))  \(pad(fmt(indexed), 9))  \(pad(fmt(linear), 7))  "
                  + "\(pad(fmt(linear / indexed), 8))×  \(pad(fmt(depth), 9))")
        }
    }
}

print("")
var updateEngine = makeEngine(regions: 10_000)
var moves = SplitMix64(seed: 5)
let originals = makeRegions(10_000, layout: .ui)
let moved = originals.map { region -> Region in
    var r = region
    r.frame = r.frame.offset(by: Vector(dx: moves.double(-40...40), dy: moves.double(-40...40)))
    return r
}
let update = nanoseconds(iterations: 20_000) { i in
    // Alternate between two frames per region so every update really moves it.
    let r = (i / 10_000) & 1 == 0 ? moved[i % 10_000] : originals[i % 10_000]
    try! updateEngine.regions.upsert(r)
}
print("Update one region (10 000 regions, moved up to 40 pt): \(fmt(update)) ns")

// A frame: one motion event plus one animation step, the pointer crossing a realistic mix
// of controls (1 000 regions, every effect), so shapes, effects and accessories animate.
var frameEngine = makeFrameEngine()
let framePath = pointerPath(100_000)
var clockTime = 0.0
var frameIndex = 0
@MainActor func frame() {
    clockTime += 1.0 / 120
    frameEngine.handle(.motion(to: framePath[frameIndex % framePath.count]), at: Instant(seconds: clockTime))
    let p = frameEngine.step(to: Instant(seconds: clockTime))
    frameEngine.drainEvents { _ in sink &+= 1 }
    sink &+= p.isAnimating ? 1 : 0
    frameIndex += 1
}
for _ in 0..<20_000 { frame() }          // warm up: buffers reach their working size
let frameCost = nanoseconds(iterations: 50_000) { _ in frame() }
print("Frame step (motion + step, 1 000 regions): \(fmt(frameCost)) ns")

// Allocations in steady state: the same frames, in a child process with the malloc interposer.
fflush(nil)   // flush everything before the child writes to the same stdout
if !AllocationCounter.runChild(flag: allocationsFlag) {
    print("Heap allocations per steady-state frame: counter unavailable (no libMallocInterposerSwift.so)")
}

print("")
let targets: [(String, Double, Double)] = [
    ("random hit test, 10 000 regions (ui layout)", report["ui-random10000"]!, 100),
    ("path hit test, 10 000 regions (ui layout)", report["ui-path10000"]!, 50),
    ("update one region", update, 5_000),
    ("frame step", frameCost, 2_000),
]
for (name, value, limit) in targets {
    print("\(value < limit ? "PASS" : "MISS") \(name): \(fmt(value)) ns (target < \(fmt(limit)) ns)")
}
if sink == 42 { print("") }
