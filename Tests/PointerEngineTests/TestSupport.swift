import XCTest
@testable import AdaptivePointerEngine

/// SplitMix64: a tiny seeded generator, so random tests replay exactly.
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
    mutating func double(_ range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &self) }
    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }
    mutating func bool() -> Bool { Bool.random(using: &self) }
}

let output = Rect<Global>(x: 0, y: 0, width: 1280, height: 800)
let surface = SurfaceID(1)

func point(_ x: Double, _ y: Double) -> Point<Global> { Point(x: x, y: y) }
func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> Rect<Global> { Rect(x: x, y: y, width: w, height: h) }

func region(_ id: UInt64, _ frame: Rect<Global>, effect: PointerEffect = .highlight,
            shape: PointerShape = .effectDefault, accessories: AccessorySet = .empty,
            hitArea: HitArea = .bezelled, configure: (inout Region) -> Void = { _ in }) -> Region {
    var r = Region(id: RegionID(id), owner: surface, identifier: UInt32(id), frame: frame, hitArea: hitArea,
                   style: PointerStyle(effect: effect, shape: shape, accessories: accessories))
    configure(&r)
    return r
}

/// An engine on a manual clock: every call advances time explicitly.
struct Harness {
    var engine: PointerEngine
    var now = Instant.zero
    var last: PointerPresentation!
    var events: [PointerEvent] = []

    init(settings: PointerSettings = PointerSettings(), regions: [Region] = [], at start: Point<Global> = point(20, 20)) {
        engine = PointerEngine(outputBounds: output, settings: settings, initialPosition: start)
        for r in regions { try! engine.regions.upsert(r) }
        last = engine.step(to: now)
    }

    mutating func send(_ input: PointerInput) {
        engine.handle(input, at: now)
        events += engine.drainEvents()
    }

    mutating func move(to p: Point<Global>) { send(.motion(to: p)) }

    /// Advances the clock by `seconds` in 60 Hz frames; returns every presentation.
    @discardableResult
    mutating func run(_ seconds: Double, frame: Double = 1.0 / 60) -> [PointerPresentation] {
        var out: [PointerPresentation] = []
        let end = now.seconds + seconds
        while now.seconds < end - 1e-9 {
            now = now.advanced(by: min(frame, end - now.seconds))
            last = engine.step(to: now)
            events += engine.drainEvents()
            out.append(last)
        }
        return out
    }

    /// Moves from the current device position to `p` in `steps` motion events `interval` apart,
    /// stepping a frame after each.
    @discardableResult
    mutating func glide(to p: Point<Global>, steps: Int, interval: Double) -> [PointerPresentation] {
        let start = engine.devicePosition
        var out: [PointerPresentation] = []
        for i in 1...steps {
            let f = Double(i) / Double(steps)
            now = now.advanced(by: interval)
            move(to: point(start.x + (p.x - start.x) * f, start.y + (p.y - start.y) * f))
            last = engine.step(to: now)
            events += engine.drainEvents()
            out.append(last)
        }
        return out
    }
}

func assertClose(_ a: Double, _ b: Double, _ tolerance: Double = 0.01, _ message: String = "",
                 file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(a, b, accuracy: tolerance, message, file: file, line: line)
}
