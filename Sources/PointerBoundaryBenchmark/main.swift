import CLodestonePointer
import CValgrind
import Glibc
import AdaptivePointerEngine

// PointerBoundaryBenchmark: what liblodestone-pointer's C boundary adds per call. The same
// scenario as c-api/tests/pointer-bench.c (a 1920×1080 output, a toolbar of 40 highlight
// buttons, the pointer sweeping across it, 1 ms of engine time per call) runs twice in this
// process: on PointerEngine directly, and through the C API of the built library, loaded with
// dlopen and called through dlsym'd C function pointers as a C host calls it. Prints ns per
// call, best of 5 rounds, and the difference. `make bench` runs it on the release build:
//
//     PointerBoundaryBenchmark .build/release/liblodestone-pointer.so

let iterations = 20_000
let rounds = 25

func x(_ i: Int) -> Double { 20 + Double(i % 3680 < 1840 ? i % 3680 : 3680 - i % 3680) }

/// Nanoseconds per iteration of `body`, which runs `iterations` iterations once.
func nanoseconds(_ body: (Int) -> Void) -> Double {
    let clock = ContinuousClock()
    let start = clock.now
    body(0)
    let d = clock.now - start
    return (Double(d.components.seconds) * 1e9 + Double(d.components.attoseconds) / 1e9) / Double(iterations)
}

var sink = 0

/// The three operations (0 motion, 1 step, 2 motion + step + events), each run `count` times.
@MainActor protocol Bench { mutating func run(_ op: Int, count: Int) }

extension Bench {
    /// One timed round of each operation: ns per call.
    mutating func round() -> [Double] {
        var ns: [Double] = []
        for op in 0..<3 { ns.append(nanoseconds { _ in run(op, count: iterations) }) }
        return ns
    }
}

struct Direct: Bench {
    var engine = PointerEngine(outputBounds: Rect(x: 0, y: 0, width: 1920, height: 1080))
    var t = 0.0

    init() {
        for i in 0..<40 {
            try! engine.regions.upsert(Region(id: RegionID(UInt64(i) + 1), owner: SurfaceID(1), identifier: UInt32(i),
                                              frame: Rect(x: 20 + 46 * Double(i), y: 20, width: 40, height: 30),
                                              style: PointerStyle(effect: .highlight)))
        }
    }

    mutating func run(_ op: Int, count: Int) {
        for i in 0..<count {
            t += 0.001
            if op != 1 { engine.handle(.motion(to: Point(x: x(i), y: 35)), at: Instant(seconds: t)) }
            if op != 0 { sink &+= engine.step(to: Instant(seconds: t)).isAnimating ? 1 : 0 }
            if op == 2 { engine.drainEvents { _ in sink &+= 1 } }
        }
    }
}

func symbol<T>(_ library: UnsafeMutableRawPointer, _ name: String, as: T.Type) -> T {
    guard let address = dlsym(library, name) else {
        print("PointerBoundaryBenchmark: \(name) is not exported")
        exit(1)
    }
    return unsafeBitCast(address, to: T.self)
}

struct ThroughC: Bench {
    typealias Engine = OpaquePointer
    let motionCall: @convention(c) (Engine?, Double, Double, Double) -> Void
    let stepCall: @convention(c) (Engine?, Double, UnsafeMutablePointer<lodestone_pointer_presentation>?) -> Bool
    let nextEvent: @convention(c) (Engine?, UnsafeMutablePointer<lodestone_pointer_event>?) -> Bool
    let e: Engine?
    var p = lodestone_pointer_presentation()
    var ev = lodestone_pointer_event()
    var t = 0.0

    init(_ path: String) {
        guard let library = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
            print("PointerBoundaryBenchmark: cannot load \(path): \(String(cString: dlerror()))")
            exit(1)
        }
        let create = symbol(library, "lodestone_pointer_engine_create", as: (@convention(c) (Double, Double, Double, Double) -> Engine?).self)
        let regionInit = symbol(library, "lodestone_pointer_region_init",
                                as: (@convention(c) (UnsafeMutablePointer<lodestone_pointer_region>?, UInt32) -> Void).self)
        let setRegion = symbol(library, "lodestone_pointer_engine_set_region",
                               as: (@convention(c) (Engine?, UInt64, UnsafePointer<lodestone_pointer_region>?) -> Int32).self)
        motionCall = symbol(library, "lodestone_pointer_engine_motion", as: (@convention(c) (Engine?, Double, Double, Double) -> Void).self)
        stepCall = symbol(library, "lodestone_pointer_engine_step",
                          as: (@convention(c) (Engine?, Double, UnsafeMutablePointer<lodestone_pointer_presentation>?) -> Bool).self)
        nextEvent = symbol(library, "lodestone_pointer_engine_next_event",
                           as: (@convention(c) (Engine?, UnsafeMutablePointer<lodestone_pointer_event>?) -> Bool).self)
        e = create(0, 0, 1920, 1080)
        for i in 0..<40 {
            var r = lodestone_pointer_region()
            regionInit(&r, UInt32(MemoryLayout<lodestone_pointer_region>.size))
            r.surface = 1
            r.identifier = UInt32(i)
            r.x = 20 + 46 * Double(i); r.y = 20; r.width = 40; r.height = 30
            r.effect = LODESTONE_POINTER_EFFECT_HIGHLIGHT.rawValue
            _ = setRegion(e, UInt64(i) + 1, &r)
        }
        p.size = UInt32(MemoryLayout<lodestone_pointer_presentation>.size)
        ev.size = UInt32(MemoryLayout<lodestone_pointer_event>.size)
    }

    mutating func run(_ op: Int, count: Int) {
        for i in 0..<count {
            t += 0.001
            if op != 1 { motionCall(e, t, x(i), 35) }
            if op != 0 { sink &+= stepCall(e, t, &p) ? 1 : 0 }
            if op == 2 { while nextEvent(e, &ev) { sink &+= 1 } }
        }
    }
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard let libraryPath = arguments.last, arguments.count == 1 || (arguments.count == 2 && arguments[0] == "--instructions") else {
    print("usage: PointerBoundaryBenchmark [--instructions] path/to/liblodestone-pointer.so")
    exit(2)
}
let names = ["motion", "step (presentation out)", "motion + step + events"]

/// Under callgrind (--collect-atstart=no): each operation's instructions, 2 000 calls after a
/// warm-up, dumped as parts labelled swift-N and c-N (Scripts/bench-pointer-library reads them).
if arguments[0] == "--instructions" {
    var direct = Direct(), throughC = ThroughC(libraryPath)
    for op in 0..<3 {
        direct.run(op, count: 2_000)
        throughC.run(op, count: 2_000)
        cvg_toggle_collect(); direct.run(op, count: 2_000); cvg_toggle_collect(); cvg_dump_stats_at("swift-\(op)")
        cvg_toggle_collect(); throughC.run(op, count: 2_000); cvg_toggle_collect(); cvg_dump_stats_at("c-\(op)")
    }
    exit(0)
}
// Rounds alternate between the two so a busy machine slows both alike; the best round counts.
var direct = Direct(), throughC = ThroughC(libraryPath)
var swift = [Double](repeating: .infinity, count: 3), c = swift
for _ in 0..<rounds {
    swift = zip(swift, direct.round()).map { min($0, $1) }
    c = zip(c, throughC.round()).map { min($0, $1) }
}
print("liblodestone-pointer boundary (ns per call, best of \(rounds) alternating rounds × \(iterations); 40 highlight buttons, pointer sweeping):")
print("                          Swift engine   C API   C API − Swift")
/// `x` rounded to whole nanoseconds, right-aligned in `width` (with its sign when asked).
func column(_ x: Double, _ width: Int, sign: Bool = false) -> String {
    let n = Int(x.rounded())
    let text = (sign && n >= 0 ? "+" : "") + String(n)
    return String(repeating: " ", count: max(0, width - text.count)) + text
}
for (i, name) in names.enumerated() {
    let pad = String(repeating: " ", count: max(0, 24 - name.count))
    print("  \(name)\(pad)  \(column(swift[i], 9))  \(column(c[i], 7))  \(column(c[i] - swift[i], 9, sign: true))")
}
print("(sink \(sink % 10))")
