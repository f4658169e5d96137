import CLodestonePointer
import Glibc
import PointerEngine

// PointerBoundaryBenchmark: what liblodestone-pointer's C boundary adds per call. The same
// scenario as c-api/tests/pointer-bench.c (a 1920×1080 output, a toolbar of 40 highlight
// buttons, the pointer sweeping across it, 1 ms of engine time per call) runs twice in this
// process: on PointerEngine directly, and through the C API of the built library, loaded with
// dlopen and called through dlsym'd C function pointers as a C host calls it. Prints ns per
// call, best of 5 rounds, and the difference. `make bench` runs it on the release build:
//
//     PointerBoundaryBenchmark .build/release/liblodestone-pointer.so

let iterations = 200_000

func x(_ i: Int) -> Double { 20 + Double(i % 3680 < 1840 ? i % 3680 : 3680 - i % 3680) }

/// Nanoseconds per iteration, best of 5 rounds.
func nanoseconds(_ body: (Int) -> Void) -> Double {
    var best = Double.infinity
    let clock = ContinuousClock()
    for _ in 0..<5 {
        let start = clock.now
        for i in 0..<iterations { body(i) }
        let d = clock.now - start
        best = min(best, (Double(d.components.seconds) * 1e9 + Double(d.components.attoseconds) / 1e9) / Double(iterations))
    }
    return best
}

var sink = 0

@MainActor func direct() -> [Double] {
    var engine = PointerEngine(outputBounds: Rect(x: 0, y: 0, width: 1920, height: 1080))
    for i in 0..<40 {
        try! engine.regions.upsert(Region(id: RegionID(UInt64(i) + 1), owner: SurfaceID(1), identifier: UInt32(i),
                                          frame: Rect(x: 20 + 46 * Double(i), y: 20, width: 40, height: 30),
                                          style: PointerStyle(effect: .highlight)))
    }
    var t = 0.0
    let motion = nanoseconds { i in t += 0.001; engine.handle(.motion(to: Point(x: x(i), y: 35)), at: Instant(seconds: t)) }
    let step = nanoseconds { _ in t += 0.001; sink &+= engine.step(to: Instant(seconds: t)).isAnimating ? 1 : 0 }
    let frame = nanoseconds { i in
        t += 0.001
        engine.handle(.motion(to: Point(x: x(i), y: 35)), at: Instant(seconds: t))
        sink &+= engine.step(to: Instant(seconds: t)).isAnimating ? 1 : 0
        engine.drainEvents { _ in sink &+= 1 }
    }
    return [motion, step, frame]
}

func symbol<T>(_ library: UnsafeMutableRawPointer, _ name: String, as: T.Type) -> T {
    guard let address = dlsym(library, name) else {
        print("PointerBoundaryBenchmark: \(name) is not exported")
        exit(1)
    }
    return unsafeBitCast(address, to: T.self)
}

@MainActor func throughC(_ path: String) -> [Double] {
    guard let library = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
        print("PointerBoundaryBenchmark: cannot load \(path): \(String(cString: dlerror()))")
        exit(1)
    }
    typealias Engine = OpaquePointer
    let create = symbol(library, "lodestone_pointer_engine_create", as: (@convention(c) (Double, Double, Double, Double) -> Engine?).self)
    let destroy = symbol(library, "lodestone_pointer_engine_destroy", as: (@convention(c) (Engine?) -> Void).self)
    let regionInit = symbol(library, "lodestone_pointer_region_init",
                            as: (@convention(c) (UnsafeMutablePointer<lodestone_pointer_region>?, UInt32) -> Void).self)
    let setRegion = symbol(library, "lodestone_pointer_engine_set_region",
                           as: (@convention(c) (Engine?, UInt64, UnsafePointer<lodestone_pointer_region>?) -> Int32).self)
    let motionCall = symbol(library, "lodestone_pointer_engine_motion", as: (@convention(c) (Engine?, Double, Double, Double) -> Void).self)
    let stepCall = symbol(library, "lodestone_pointer_engine_step",
                          as: (@convention(c) (Engine?, Double, UnsafeMutablePointer<lodestone_pointer_presentation>?) -> Bool).self)
    let nextEvent = symbol(library, "lodestone_pointer_engine_next_event",
                           as: (@convention(c) (Engine?, UnsafeMutablePointer<lodestone_pointer_event>?) -> Bool).self)

    let e = create(0, 0, 1920, 1080)
    for i in 0..<40 {
        var r = lodestone_pointer_region()
        regionInit(&r, UInt32(MemoryLayout<lodestone_pointer_region>.size))
        r.surface = 1
        r.identifier = UInt32(i)
        r.x = 20 + 46 * Double(i); r.y = 20; r.width = 40; r.height = 30
        r.effect = LODESTONE_POINTER_EFFECT_HIGHLIGHT.rawValue
        _ = setRegion(e, UInt64(i) + 1, &r)
    }
    var p = lodestone_pointer_presentation()
    p.size = UInt32(MemoryLayout<lodestone_pointer_presentation>.size)
    var ev = lodestone_pointer_event()
    ev.size = UInt32(MemoryLayout<lodestone_pointer_event>.size)
    var t = 0.0
    let motion = nanoseconds { i in t += 0.001; motionCall(e, t, x(i), 35) }
    let step = nanoseconds { _ in t += 0.001; sink &+= stepCall(e, t, &p) ? 1 : 0 }
    let frame = nanoseconds { i in
        t += 0.001
        motionCall(e, t, x(i), 35)
        sink &+= stepCall(e, t, &p) ? 1 : 0
        while nextEvent(e, &ev) { sink &+= 1 }
    }
    destroy(e)
    return [motion, step, frame]
}

guard CommandLine.arguments.count == 2 else {
    print("usage: PointerBoundaryBenchmark path/to/liblodestone-pointer.so")
    exit(2)
}
let swift = direct()
let c = throughC(CommandLine.arguments[1])
print("liblodestone-pointer boundary (ns per call, best of 5 × \(iterations); 40 highlight buttons, pointer sweeping):")
print("                          Swift engine   C API   C API − Swift")
/// `x` rounded to whole nanoseconds, right-aligned in `width` (with its sign when asked).
func column(_ x: Double, _ width: Int, sign: Bool = false) -> String {
    let n = Int(x.rounded())
    let text = (sign && n >= 0 ? "+" : "") + String(n)
    return String(repeating: " ", count: max(0, width - text.count)) + text
}
for (i, name) in ["motion", "step (presentation out)", "motion + step + events"].enumerated() {
    let pad = String(repeating: " ", count: max(0, 24 - name.count))
    print("  \(name)\(pad)  \(column(swift[i], 9))  \(column(c[i], 7))  \(column(c[i] - swift[i], 9, sign: true))")
}
print("(sink \(sink % 10))")
