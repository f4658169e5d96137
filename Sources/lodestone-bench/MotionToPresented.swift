// Motion → presented (bench-peer): from a motion the parent injects to the parent's frame that
// shows the pointer at its new place, for a compositor nested in a headless Lodestone parent
// (test control, the real clock).
//
// The times are libwayland's WAYLAND_DEBUG stamps (CLOCK_REALTIME, the same in every process) and the bench's own stamp of each injection on that clock:
//   - a marker client in the parent (weston-simple-shm, drawing every parent frame) stamps
//     each parent frame as it receives that frame's callback;
//   - the nested compositor's trace stamps its commits to the parent and the parent's answer
//     to each (its frame callback's `done`, sent with the parent frame that shows the commit:
//     the parent's wp_presentation time for it is the same instant).
// A motion is presented by the first parent frame after the nested compositor's first commit
// that follows it, or, when it commits nothing (the pointer is the parent's cursor), by the
// first parent frame after the injection. The parent's own cursor is measured the same way,
// the pointer over the parent's background.
//
// Two paths: plain motion over weston-flower (Lodestone's pointer stays the parent's cursor),
// and a highlight morph, where the nested Lodestone runs lodestone-demo and the motion slides
// along its segmented control (adaptive_pointer_v1 highlight regions): the pointer is the
// highlight platter, following the hand with parallax and moving from segment to segment,
// composed into Lodestone's frames. weston gets the same motion at the same place in its output
// (its desktop shell's panel on the morph path); it composes its pointer either way.
import Foundation
import Glibc
import LodestoneTesting

/// One measured setup's latencies (milliseconds), and the commits the nested compositor sent.
private struct Latencies {
    var values: [Double] = []
    var commits = 0
    /// Of the motions answered by a commit: motion → commit and commit → shown.
    var toCommit: [Double] = [], commitToShown: [Double] = []
    func percentile(_ p: Int, of v: [Double]? = nil) -> Double? {
        let sorted = (v ?? values).sorted()
        return sorted.isEmpty ? nil : sorted[min(sorted.count - 1, sorted.count * p / 100)]
    }
}

/// CLOCK_REALTIME as libwayland 1.21's WAYLAND_DEBUG stamps its lines: microseconds in a
/// 32-bit unsigned (it wraps every 71.6 minutes; a run that straddles a wrap loses its samples),
/// printed as milliseconds.
private func debugStamp() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_REALTIME, &ts)
    let micros = UInt64(ts.tv_sec) * 1_000_000 + UInt64(ts.tv_nsec) / 1000
    return Double(UInt32(truncatingIfNeeded: micros)) / 1000
}

/// The stamped lines of a WAYLAND_DEBUG trace.
private func stampedLines(_ path: String) -> [(time: Double, line: Substring)] {
    let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    return text.split(separator: "\n").compactMap { line in
        guard line.hasPrefix("["), let close = line.firstIndex(of: "]"),
              let t = Double(line[line.index(after: line.startIndex)..<close].trimmingCharacters(in: .whitespaces)) else { return nil }
        return (t, line)
    }
}

/// Frame callbacks a client received: the parent frames it was shown in.
private func frameCallbacksDone(_ lines: [(time: Double, line: Substring)]) -> [Double] {
    lines.filter { !$0.line.contains(" -> ") && $0.line.contains("wl_callback@") && $0.line.contains(".done(") }.map(\.time)
}

/// Commits of the surfaces that ask for frame callbacks (the window; not the parent cursor's).
private func windowCommits(_ lines: [(time: Double, line: Substring)]) -> [Double] {
    let surface = #/ -> wl_surface@(\d+)\./#
    var windows = Set<Substring>()
    var commits: [Double] = []
    for (t, line) in lines {
        guard let m = line.firstMatch(of: surface) else { continue }
        if line.contains(".frame(new id wl_callback@") { windows.insert(m.output.1) }
        if line.hasSuffix(".commit()"), windows.contains(m.output.1) { commits.append(t) }
    }
    return commits
}

/// Where the motion goes, from the nested window's top left, and how far each 1 kHz motion moves.
private struct MotionPath {
    var start: (x: Double, y: Double)
    var step: Double
    /// Plain motion: over weston-flower or the desktop around it, 3 pt a step.
    static let plain = MotionPath(start: (300, 300), step: 3)
    /// The highlight morph: along lodestone-demo's segmented control (segments 80 pt wide from
    /// x 820, y 14–46; ToolbarPanel), 1 pt a step so 200 steps stay on it.
    static let morph = MotionPath(start: (870, 30), step: 1)
}

/// One nested compositor: which, its extra arguments, and the client it runs.
private struct Nested {
    var kind: Peer.Kind
    var extra: [String] = []
    /// lodestone-demo (next to the lodestone binary) instead of weston-flower.
    var demo = false
}

/// Motions over the nested window or (nested nil) the parent's background: `sparse`, one
/// every 40 ms, 6 pt back and forth (a hand that starts to move: each motion's frame is
/// apart, and an idle compositor may compose at once); otherwise one every millisecond,
/// `path.step` each, 200 one way then back (a moving hand: frames follow each other).
private func measure(_ nested: Nested?, path: MotionPath = .plain, lodestone: String, motions: Int, sparse: Bool, scratch: String) throws -> Latencies {
    let parent = try Session(size: "1600x1000")
    defer { parent.stop() }
    let tag = (nested.map { "\($0.kind)\($0.extra.joined())\($0.demo ? "-demo" : "")" } ?? "parent")
        + (path.step == MotionPath.plain.step ? "" : "-morph") + (sparse ? "-sparse" : "")
    let markerTrace = scratch + "/presented-marker-\(tag).trace"
    try parent.launch(["weston-simple-shm"], environment: ["WAYLAND_DEBUG": "client"], output: markerTrace)
    _ = try parent.waitForWindow("simple-shm")
    // The marker out of the way, in the parent's bottom-right corner.
    _ = try parent.control.moveWindow("simple-shm", x: 1340, y: 740)
    var peer: Peer?
    var flower: Process?
    let nestedTrace = scratch + "/presented-nested-\(tag).trace"
    var start = (x: 1500.0, y: 100.0)
    if let nested {
        try createEmptyFile(atPath: nestedTrace)
        let p = try Peer.start(nested.kind, lodestone: lodestone, nestedIn: (parent.runtimeDirectory, parent.socket), trace: nestedTrace, extraArguments: nested.extra)
        peer = p
        if nested.demo {
            let demo = URL(fileURLWithPath: lodestone).deletingLastPathComponent().appendingPathComponent("lodestone-demo").path
            flower = try p.launch([demo], trace: scratch + "/presented-demo-\(tag).trace", environment: ["LODESTONE_DEMO_TRACE": "1"])
        } else {
            flower = try p.launch(["weston-flower"], trace: scratch + "/presented-flower-\(tag).trace")
        }
        let window = try parent.waitForWindow(nested.kind == .weston ? nil : "Lodestone") { $0.title != "simple-shm" }
        start = (Double(window.x) + path.start.x, Double(window.y) + path.start.y)
    }
    defer {
        flower?.terminate(); flower?.waitUntilExit()
        peer?.stop()
    }
    _ = try parent.control.movePointer(x: start.x, y: start.y)
    usleep(1_000_000)
    var injected: [Double] = []
    for k in 0..<motions {
        let t = debugStamp()
        if sparse {
            _ = try parent.control.movePointer(x: start.x + (k % 2 == 0 ? 6 : 0), y: start.y)
        } else {
            _ = try parent.control.movePointer(dx: (k / 200) % 2 == 0 ? path.step : -path.step, dy: 0)
        }
        injected.append(t)
        let spent = debugStamp() - t
        usleep(UInt32(max(0, (sparse ? 40 : 1) - spent) * 1000))
    }
    usleep(200_000)
    let frames = frameCallbacksDone(stampedLines(markerTrace))
    let nestedLines = nested == nil ? [] : stampedLines(nestedTrace)
    let commits = windowCommits(nestedLines)
    let answered = frameCallbacksDone(nestedLines)
    var result = Latencies()
    // A compositor that composes the pointer answers motions with commits; one whose pointer
    // is the parent's cursor commits (next to) nothing.
    let composes = commits.count * 20 > injected.count
    for (i, t) in injected.enumerated() {
        let next = sparse && i + 1 < injected.count ? injected[i + 1] : .infinity
        if composes, let c = commits.first(where: { $0 > t && $0 < next }) {
            // Shown by the parent frame that answered that commit's frame callback.
            result.commits += 1
            if let shown = answered.first(where: { $0 > c }) {
                result.values.append(shown - t)
                result.toCommit.append(c - t)
                result.commitToShown.append(shown - c)
            }
        } else if let shown = frames.first(where: { $0 > t }) {
            result.values.append(shown - t)
        }
    }
    return result
}

/// Rows: p50 and p99 of motion → presented for the parent's own cursor, Lodestone's plain
/// pointer (the parent's cursor), a highlight morph Lodestone composes (lodestone-demo's
/// segmented control), the same with `--max-render-time auto`, and weston (which composes its
/// pointer into its frames) on the same motion.
func motionToPresented(lodestone: String, seconds: Double, scratch: String) -> [Row] {
    motionToPresented(lodestone: lodestone, seconds: seconds, sparse: false, scratch: scratch)
        + motionToPresented(lodestone: lodestone, seconds: seconds, sparse: true, scratch: scratch)
}

private func motionToPresented(lodestone: String, seconds: Double, sparse: Bool, scratch: String) -> [Row] {
    let motions = sparse ? max(50, Int(seconds * 25)) : Int(seconds * 1000)
    let how = sparse ? "every 40 ms" : "1 kHz"
    var rows: [Row] = []
    var parentP50: Double?
    func describe(_ label: String, _ l: Latencies) {
        print("motion → presented \(how), \(label): \(l.values.count) of \(motions) motions measured, \(l.commits) answered by a commit"
              + (l.commits > 0 ? String(format: " (p50 motion → commit %.2f ms, commit → shown %.2f ms)", l.percentile(50, of: l.toCommit) ?? 0, l.percentile(50, of: l.commitToShown) ?? 0) : ""))
    }
    // weston on each path, measured once.
    var weston: [Bool: Latencies] = [:]
    for morph in [false, true] {
        do {
            let w = try measure(Nested(kind: .weston), path: morph ? .morph : .plain, lodestone: lodestone, motions: motions, sparse: sparse, scratch: scratch)
            weston[morph] = w
            describe(morph ? "weston, the morph's motion" : "weston", w)
        } catch { print("weston motion → presented \(how): \(error)") }
    }
    let setups: [(label: String, nested: Nested?, morph: Bool, target: String)] = [
        ("parent's own cursor", nil, false, ""),
        ("plain pointer (parent's cursor)", Nested(kind: .lodestone), false, "target ≤ parent + 1 ms, ≤ weston − 8 ms"),
        ("highlight morph (demo's segmented control)", Nested(kind: .lodestone, demo: true), true, "target ≤ weston − 5 ms"),
        ("highlight morph, max-render-time auto", Nested(kind: .lodestone, extra: ["--max-render-time", "auto"], demo: true), true, "target ≤ weston − 5 ms"),
    ]
    for setup in setups {
        do {
            let l = try measure(setup.nested, path: setup.morph ? .morph : .plain, lodestone: lodestone, motions: motions, sparse: sparse, scratch: scratch)
            if setup.nested == nil { parentP50 = l.percentile(50) }
            describe(setup.label, l)
            let w = weston[setup.morph] ?? Latencies()
            rows.append(Row(label: "motion \(how) → presented p50, \(setup.label)", lodestone: l.percentile(50), weston: w.percentile(50), unit: "ms", format: "%.2f", target: setup.target))
            rows.append(Row(label: "motion \(how) → presented p99, \(setup.label)", lodestone: l.percentile(99), weston: w.percentile(99), unit: "ms", format: "%.2f"))
        } catch { print("motion → presented \(how), \(setup.label): \(error)") }
    }
    print("motion → presented \(how): parent's own cursor p50 \(parentP50.map { String(format: "%.2f ms", $0) } ?? "n/a")")
    return rows
}
