import Foundation
import LodestoneTesting

/// One thing a tour step must show: a fact about the presented pointer or a
/// pixel of the capture. `check` answers nil when it holds, otherwise why not.
public struct Expectation: Sendable {
    public let check: @Sendable (PresentedPointer, Screenshot, _ baseline: Screenshot) -> String?

    public init(_ check: @escaping @Sendable (PresentedPointer, Screenshot, _ baseline: Screenshot) -> String?) { self.check = check }
    /// An expectation on the capture alone.
    init(_ check: @escaping @Sendable (Screenshot, _ baseline: Screenshot) -> String?) { self.check = { check($1, $2) } }

    public static func kind(_ k: PresentedPointer.Kind) -> Expectation {
        Expectation { p, _, _ in p.kind == k ? nil : "pointer is \(p.kind), expected \(k)" }
    }
    public static func effect(_ e: PresentedPointer.Effect) -> Expectation {
        Expectation { p, _, _ in p.effect == e && (e == .none || p.effectProgress > 0.9) ? nil : "effect is \(p.effect) (\(p.effectProgress)), expected \(e)" }
    }
    /// The pointer targets the region with this identifier.
    public static func target(_ id: UInt32) -> Expectation {
        Expectation { p, _, _ in p.target == id ? nil : "target is \(p.target.map(String.init) ?? "none"), expected \(id)" }
    }
    public static let targeted = Expectation { p, _, _ in p.target != nil ? nil : "targets no region, expected one" }
    public static let untargeted = Expectation { p, _, _ in p.target == nil ? nil : "targets \(p.target!), expected no region" }
    public static func scale(above s: Double) -> Expectation {
        Expectation { p, _, _ in p.effectScale > s ? nil : "element scale \(p.effectScale), expected > \(s)" }
    }
    public static func alpha(below a: Double) -> Expectation {
        Expectation { p, _, _ in p.alpha < a ? nil : "pointer alpha \(p.alpha), expected < \(a)" }
    }
    public static func height(_ h: Double, within tolerance: Double) -> Expectation {
        Expectation { p, _, _ in abs(p.height - h) <= tolerance ? nil : "pointer height \(p.height), expected \(h) ± \(tolerance)" }
    }
    public static func accessories(_ shapes: [PresentedPointer.Accessory]) -> Expectation {
        Expectation { p, _, _ in
            let visible = p.accessories.filter { $0.alpha > 0.5 }.map(\.shape)
            return visible.sorted { $0.rawValue < $1.rawValue } == shapes.sorted { $0.rawValue < $1.rawValue }
                ? nil : "accessories \(visible), expected \(shapes)"
        }
    }
    public static func annotation(_ test: @escaping @Sendable (String) -> Bool, _ what: String) -> Expectation {
        Expectation { p, _, _ in test(p.annotation) ? nil : "annotation '\(p.annotation)', expected \(what)" }
    }
    /// A pixel (0xRRGGBB) satisfies `test`.
    public static func pixel(_ x: Int, _ y: Int, _ what: String, _ test: @escaping @Sendable (UInt32) -> Bool) -> Expectation {
        Expectation { _, shot, _ in test(shot[x, y]) ? nil : "pixel (\(x), \(y)) is \(hex(shot[x, y])), expected \(what)" }
    }
    /// A pixel differs from the same pixel at the start of the tour by more than `threshold`.
    public static func changed(_ x: Int, _ y: Int, by threshold: Int = 30, _ what: String) -> Expectation {
        Expectation { _, shot, base in
            distance(shot[x, y], base[x, y]) > threshold ? nil
                : "pixel (\(x), \(y)) is \(hex(shot[x, y])), as at the start (\(hex(base[x, y]))): expected \(what)"
        }
    }
    /// At least `count` pixels of a rectangle differ from the start of the tour.
    public static func area(_ x: Int, _ y: Int, _ w: Int, _ h: Int, differsIn count: Int, _ what: String) -> Expectation {
        Expectation { _, shot, base in
            var n = 0
            for py in y..<y + h { for px in x..<x + w where distance(shot[px, py], base[px, py]) > 30 { n += 1 } }
            return n >= count ? nil : "\(n) pixels of (\(x), \(y)) \(w)×\(h) changed since the start, expected \(count): \(what)"
        }
    }
    public static func alpha(above a: Double) -> Expectation {
        Expectation { p, _, _ in p.alpha > a ? nil : "pointer alpha \(p.alpha), expected > \(a)" }
    }
    /// Between `range.lowerBound` and `range.upperBound` pixels of a rectangle satisfy `test`.
    public static func count(_ x: Int, _ y: Int, _ w: Int, _ h: Int, _ range: ClosedRange<Int>, _ what: String,
                             where test: @escaping @Sendable (UInt32) -> Bool) -> Expectation {
        Expectation { shot, _ in
            var n = 0
            for py in y..<y + h { for px in x..<x + w where test(shot[px, py]) { n += 1 } }
            return range.contains(n) ? nil : "\(n) pixels of (\(x), \(y)) \(w)×\(h), expected \(range): \(what)"
        }
    }
    /// How many pixels tall a line is at column `x`: the run around `y` that `test` accepts.
    public static func thickness(at x: Int, _ y: Int, where test: @escaping @Sendable (UInt32) -> Bool, in shot: Screenshot) -> Int {
        guard test(shot[x, y]) else { return 0 }
        var top = y, bottom = y
        while top > 0, test(shot[x, top - 1]) { top -= 1 }
        while bottom < shot.height - 1, test(shot[x, bottom + 1]) { bottom += 1 }
        return bottom - top + 1
    }
    /// A horizontal line through `y` grows thicker from column to column of `xs`, from at most
    /// `thinnest` pixels to at least `thickest`.
    public static func widening(_ xs: [Int], _ y: Int, thinnest: Int, thickest: Int, _ what: String,
                                where test: @escaping @Sendable (UInt32) -> Bool) -> Expectation {
        Expectation { shot, _ in
            let t = xs.map { thickness(at: $0, y, where: test, in: shot) }
            let grows = zip(t, t.dropFirst()).allSatisfy { $0 < $1 }
            return grows && t.first! >= 1 && t.first! <= thinnest && t.last! >= thickest ? nil
                : "thickness \(t) px at x \(xs), expected growing from ≤ \(thinnest) to ≥ \(thickest): \(what)"
        }
    }
    /// A pixel is (nearly) what it was at the start of the tour.
    public static func unchanged(_ x: Int, _ y: Int, _ what: String) -> Expectation {
        Expectation { _, shot, base in
            distance(shot[x, y], base[x, y]) <= 12 ? nil
                : "pixel (\(x), \(y)) is \(hex(shot[x, y])), was \(hex(base[x, y])): expected \(what)"
        }
    }
}

/// Colour helpers for 0xRRGGBB pixels.
func channels(_ p: UInt32) -> (r: Int, g: Int, b: Int) { (Int(p >> 16 & 0xff), Int(p >> 8 & 0xff), Int(p & 0xff)) }
func brightness(_ p: UInt32) -> Int { let c = channels(p); return c.r + c.g + c.b }
func distance(_ a: UInt32, _ b: UInt32) -> Int {
    let x = channels(a), y = channels(b)
    return abs(x.r - y.r) + abs(x.g - y.g) + abs(x.b - y.b)
}
public func isBluish(_ p: UInt32) -> Bool { let c = channels(p); return c.b > c.r + 50 }
func hex(_ p: UInt32) -> String { "0x" + String(p, radix: 16) }

/// One step of the tour: what it does, and what must then be true.
public struct TourStep: Sendable {
    public let name: String
    public let title: String
    public let act: @Sendable (TourDriver) throws -> Void
    public let expectations: [Expectation]

    public init(_ name: String, _ title: String, expect: [Expectation], act: @escaping @Sendable (TourDriver) throws -> Void) {
        self.name = name; self.title = title; self.act = act; self.expectations = expect
    }
}

/// What a step showed.
public struct StepResult: Sendable {
    public let index: Int
    public let step: TourStep
    public let pointer: PresentedPointer
    public let screenshot: Screenshot
    public let path: String
    /// The expectations that did not hold, in words.
    public let failures: [String]
}

/// The scripted tour: a headless Lodestone (adaptive pointer, manual clock,
/// test control) with `lodestone-demo` inside, driven through every element;
/// one PNG per step and a contact sheet in `directory`.
public final class DemoTour {
    public let directory: String
    public let steps: [TourStep]
    /// The demo traces every pointer and drag event into `lodestone-demo.log` (`LODESTONE_DEMO_TRACE`).
    public let traceDemo: Bool

    /// The parent session to run nested in (nil: headless), and more of Lodestone's flags.
    public let parent: Session.Parent?
    public let extraArguments: [String]

    public init(directory: String, steps: [TourStep] = DemoTour.script, traceDemo: Bool = false,
                nestedIn parent: Session.Parent? = nil, extraArguments: [String] = []) {
        self.directory = directory
        self.steps = steps
        self.traceDemo = traceDemo
        self.parent = parent
        self.extraArguments = extraArguments
    }

    /// Runs every step, handing each result to `progress` as it is made.
    @discardableResult
    public func run(progress: (StepResult) -> Void = { _ in }) throws -> [StepResult] {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let configPath = directory + "/config.toml"
        // Scribble's pause long enough that the ink is captured before it is read, however loaded the machine.
        try "# lodestone-tour: the defaults; a step saves other settings here\n[scribble]\npause = 2\n".write(toFile: configPath, atomically: false, encoding: .utf8)
        let session = try Session(size: "1280x800", scale: 1, manualClock: true,
                                  extraArguments: ["--pointer", "adaptive", "--config", configPath] + extraArguments, nestedIn: parent)
        defer { session.stop() }
        let client = try DemoClient(session: session, log: directory + "/lodestone-demo.log", trace: traceDemo)
        defer { client.stop() }
        _ = try session.waitForWindow("Lodestone demo")
        try session.control.moveWindow("Lodestone demo", x: 0, y: 0)
        let reader = try PointerReader(session: session)
        let driver = TourDriver(session: session, client: client, configPath: configPath, reader: reader)

        var results: [StepResult] = []
        var baseline: Screenshot?
        for (i, step) in steps.enumerated() {
            try step.act(driver)
            try driver.settle()
            let path = directory + "/" + String(format: "%02d-%@.png", i, step.name)
            try session.control.capturePNG(to: path)
            let shot = try Screenshot(png: path)
            let pointer = try reader.read()
            let base = baseline ?? shot
            if baseline == nil { baseline = shot }
            let failures = step.expectations.compactMap { $0.check(pointer, shot, base) }
            let result = StepResult(index: i, step: step, pointer: pointer, screenshot: shot, path: path, failures: failures)
            results.append(result)
            progress(result)
        }
        return results
    }
}
