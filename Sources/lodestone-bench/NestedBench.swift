// The nested backend's costs: copying a frame into the parent's wl_shm
// buffer (full damage, and a pointer-only frame: the old and new pointer
// rects), and the latency from a parent motion event reaching the nested
// Lodestone to its commit, read from its WAYLAND_DEBUG=client trace.
import Foundation
import LodestoneTesting
import Rendering

func benchmarkNestedBackend() {
    // The present copy: what the presenter does per frame before attach/damage/commit.
    let output = Image(width: 1280, height: 800, format: .xrgb8888)
    let buffer = Image(width: 1280, height: 800, format: .xrgb8888)
    // Real pixels: untouched pages would read as the shared zero page.
    output.withPixels { data in for i in 0..<Int(1280 * 800) { data[i] = UInt32(truncatingIfNeeded: i &* 2_654_435_761) } }
    let clock = ContinuousClock()
    func perFrame(_ frames: Int, _ body: () -> Void) -> Double {
        let start = clock.now
        for _ in 0..<frames { body() }
        return milliseconds(clock.now - start) / Double(frames)
    }
    let full = perFrame(200) { buffer.copy(from: output, rect: PixelRect(x: 0, y: 0, width: 1280, height: 800)) }
    var x: Int32 = 0
    let pointer = perFrame(20_000) {
        x = (x + 3) % 1200
        buffer.copy(from: output, rect: PixelRect(x: x, y: 400, width: 21, height: 21))
        buffer.copy(from: output, rect: PixelRect(x: x + 3, y: 400, width: 21, height: 21))
    }
    print("nested present copy 1280×800, full damage:  \(String(format: "%.3f", full)) ms/frame")
    print("nested present copy, pointer-only frame:    \(String(format: "%.4f", pointer)) ms/frame")

    // Latency: parent motion in, nested commit out.
    do {
        let parent = try Session(size: "1600x1000")
        defer { parent.stop() }
        let trace = parent.runtimeDirectory + "/nested-trace.log"
        try createEmptyFile(atPath: trace)
        let nested = Process()
        nested.executableURL = URL(fileURLWithPath: Session.executable)
        nested.arguments = ["--size", "1280x800", "--socket", "nested-bench"]
        var env = parent.clientEnvironment
        env["WAYLAND_DEBUG"] = "client"
        nested.environment = env
        let log = FileHandle(forWritingAtPath: trace)
        nested.standardOutput = log
        nested.standardError = log
        try nested.run()
        defer { nested.terminate(); nested.waitUntilExit() }
        let window = try parent.waitForWindow("Lodestone")
        try parent.control.movePointer(x: Double(window.x) + 100, y: Double(window.y) + 100)
        Thread.sleep(forTimeInterval: 0.5)
        for i in 0..<300 {
            try parent.control.movePointer(dx: i % 2 == 0 ? 3 : -3, dy: 0)
            Thread.sleep(forTimeInterval: 0.02)  // one motion per parent frame
        }
        Thread.sleep(forTimeInterval: 0.2)
        var latencies: [Double] = []
        var motionAt: Double?
        for line in ((try? String(contentsOfFile: trace, encoding: .utf8)) ?? "").split(separator: "\n") {
            guard line.hasPrefix("["), let close = line.firstIndex(of: "]"), let t = Double(line[line.index(after: line.startIndex)..<close].trimmingCharacters(in: .whitespaces)) else { continue }
            if !line.contains(" -> ") && line.contains("wl_pointer@") && line.contains(".motion(") {
                if motionAt == nil { motionAt = t }
            } else if line.contains(" -> wl_surface@") && line.contains(".commit()"), let m = motionAt {
                latencies.append(t - m)
                motionAt = nil
            }
        }
        guard !latencies.isEmpty else { return print("nested latency: no commits after motion in the trace") }
        latencies.sort()
        let median = latencies[latencies.count / 2]
        let p99 = latencies[min(latencies.count - 1, latencies.count * 99 / 100)]
        print("nested motion → commit latency over \(latencies.count) frames: median \(String(format: "%.2f", median)) ms, p99 \(String(format: "%.2f", p99)) ms")
    } catch {
        print("nested latency measurement failed: \(error)")
    }
}
