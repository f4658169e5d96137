// lodestone-bench: what composing costs. Prints milliseconds per frame for a
// full-damage and a 32×32-damage repaint of a 1280×800 scene of several
// surfaces (their ratio shows what damage tracking saves), then the CPU a
// real headless Lodestone uses over 10 s with a still client (target: none).
import Foundation
import LodestoneTesting
import Rendering

func milliseconds(_ d: Duration) -> Double { Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15 }

// --peer LODESTONE [SECONDS]: side by side with weston instead (PeerBench.swift, make bench-peer).
if let i = CommandLine.arguments.firstIndex(of: "--peer"), i + 1 < CommandLine.arguments.count {
    let seconds = CommandLine.arguments.count > i + 2 ? Double(CommandLine.arguments[i + 2]) ?? 5 : 5
    benchmarkPeers(lodestone: CommandLine.arguments[i + 1], seconds: seconds)
    exit(0)
}

// --nested LODESTONE [SECONDS]: the nested path against weston and sway nested in the same
// parent (NestedClientsBench.swift, make bench-nested).
if let i = CommandLine.arguments.firstIndex(of: "--nested"), i + 1 < CommandLine.arguments.count {
    let seconds = CommandLine.arguments.count > i + 2 ? Double(CommandLine.arguments[i + 2]) ?? 5 : 5
    benchmarkNestedClients(lodestone: CommandLine.arguments[i + 1], seconds: seconds)
    exit(0)
}

// --presented LODESTONE [SECONDS]: only motion → presented (MotionToPresented.swift).
if let i = CommandLine.arguments.firstIndex(of: "--presented"), i + 1 < CommandLine.arguments.count {
    let seconds = CommandLine.arguments.count > i + 2 ? Double(CommandLine.arguments[i + 2]) ?? 5 : 5
    benchmarkMotionToPresented(lodestone: CommandLine.arguments[i + 1], seconds: seconds)
    exit(0)
}

// --accessibility: only the accessibility geometry figures (AccessibilityBench.swift).
if CommandLine.arguments.contains("--accessibility") {
    benchmarkAccessibility()
    exit(0)
}

// --accuracy [--short] [--pictures DIR] [--apps a,b]: the pointer's form over every element
// of real apps (AccuracyBench.swift, make accuracy); exits 1 when an app is below 90%.
if CommandLine.arguments.contains("--accuracy") {
    exit(benchmarkAccuracy(arguments: CommandLine.arguments) ? 0 : 1)
}

// --scribble RECOGNIZER [STROKES]: how much committed handwriting Scribble's recogniser reads
// exactly (ScribbleBench.swift).
if let i = CommandLine.arguments.firstIndex(of: "--scribble"), i + 1 < CommandLine.arguments.count {
    let file = CommandLine.arguments.count > i + 2 ? CommandLine.arguments[i + 2] : "Tests/data/scribble/strokes.txt"
    benchmarkScribble(recognizer: CommandLine.arguments[i + 1], samples: file)
    exit(0)
}

// --browsers: only what accessibility costs Firefox and Chromium (BrowserBench.swift).
if CommandLine.arguments.contains("--browsers") {
    benchmarkBrowsers()
    exit(0)
}

benchmarkAdaptivePointer()  // PointerBench.swift; first: it re-runs this executable in child roles

// A scene like a desktop: five overlapping windows, opaque and translucent.
var generator = SystemRandomNumberGenerator()
let target = Image(width: 1280, height: 800, format: .xrgb8888)
var elements: [RenderElement] = []
for i in 0..<5 {
    let w: Int32 = 520, h: Int32 = 380
    let image = Image(width: w, height: h, format: i % 2 == 0 ? .xrgb8888 : .argb8888)
    image.withPixels { data in for p in 0..<Int(w * h) { data[p] = (i % 2 == 0 ? 0xff00_0000 : 0xc000_0000) | UInt32.random(in: 0...0x00c0_c0c0, using: &generator) } }
    let x = Int32(60 + i * 150), y = Int32(40 + i * 80)
    elements.append(RenderElement(image: image, bounds: PixelRect(x: x, y: y, width: w, height: h),
                                  outputToImage: .translation(-Double(x), -Double(y)), opaque: i % 2 == 0))
}
let renderer = Renderer()

@MainActor func measure(frames: Int, damage: () -> PixelRegion) -> Double {
    let clock = ContinuousClock()
    let start = clock.now
    for _ in 0..<frames { renderer.render(elements, into: target, damage: damage()) }
    return milliseconds(clock.now - start) / Double(frames)
}

_ = measure(frames: 10) { PixelRegion(PixelRect(x: 0, y: 0, width: 1280, height: 800)) }  // warm up
let full = measure(frames: 200) { PixelRegion(PixelRect(x: 0, y: 0, width: 1280, height: 800)) }
var k: Int32 = 0
let small = measure(frames: 20_000) {
    k = (k + 37) % 1200
    return PixelRegion(PixelRect(x: k, y: (k * 7) % 760, width: 32, height: 32))
}
print("compose 1280×800, 5 surfaces, full damage:  \(String(format: "%.3f", full)) ms/frame")
print("compose 1280×800, 5 surfaces, 32×32 damage: \(String(format: "%.4f", small)) ms/frame")
print("ratio small/full: \(String(format: "%.4f", small / full)) (\(String(format: "%.0f", full / small))× cheaper)")

// Accessibility geometry: the first highlight over a GTK button, and D-Bus round trips;
// then what switching accessibility on costs the browsers.
benchmarkAccessibility()
benchmarkBrowsers()

// Nested: present copy per frame and motion-to-commit latency (NestedBench.swift).
benchmarkNestedBackend()

// Idle: a real compositor with a still client for 10 s.
func cpuTicks(_ pid: Int32) -> Int? {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
          let close = stat.lastIndex(of: ")") else { return nil }
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    guard fields.count > 13, let u = Int(fields[11]), let s = Int(fields[12]) else { return nil }
    return u + s
}

do {
    let session = try Session()
    try session.launch(["foot", "--override=shell=/bin/sh", "--override=cursor.blink=no"])
    _ = try session.waitForWindow("foot")
    Thread.sleep(forTimeInterval: 2)  // let the shell print its prompt
    let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
    let framesBefore = try session.control.frameCount()
    let before = cpuTicks(session.compositorPID) ?? 0
    Thread.sleep(forTimeInterval: 10)
    let after = cpuTicks(session.compositorPID) ?? 0
    let framesAfter = try session.control.frameCount()
    print("idle 10 s with a still foot window: \(framesAfter - framesBefore) frames composed, CPU \(String(format: "%.2f", Double(after - before) / ticksPerSecond * 1000)) ms")
    session.stop()
} catch {
    print("idle measurement failed: \(error)")
    exit(1)
}
