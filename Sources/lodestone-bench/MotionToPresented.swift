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

/// Motions over the nested window or (nested nil) the parent's background: `sparse`, one
/// every 40 ms, 6 pt back and forth (a hand that starts to move: each motion's frame is
/// apart, and an idle compositor may compose at once); otherwise one every millisecond, 3 pt
/// each, 200 one way then back (a moving hand: frames follow each other).
private func measure(_ nested: (kind: Peer.Kind, extra: [String])?, lodestone: String, motions: Int, sparse: Bool, scratch: String) throws -> Latencies {
    let parent = try Session(size: "1600x1000")
    defer { parent.stop() }
    let tag = (nested.map { "\($0.kind)\($0.extra.joined())" } ?? "parent") + (sparse ? "-sparse" : "")
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
        FileManager.default.createFile(atPath: nestedTrace, contents: nil)
        let p = try Peer.start(nested.kind, lodestone: lodestone, nestedIn: (parent.runtimeDirectory, parent.socket), trace: nestedTrace, extraArguments: nested.extra)
        peer = p
        flower = try p.launch(["weston-flower"], trace: scratch + "/presented-flower-\(tag).trace")
        let window = try parent.waitForWindow(nested.kind == .weston ? nil : "Lodestone") { $0.title != "simple-shm" }
        start = (Double(window.x) + 300, Double(window.y) + 300)
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
            _ = try parent.control.movePointer(dx: (k / 200) % 2 == 0 ? 3 : -3, dy: 0)
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
/// pointer (the parent's cursor), a pointer Lodestone composes (the largest size, which does
/// not fit a cursor: every motion is a frame, as during a highlight morph), the same with
/// `--max-render-time auto`, and weston (which composes its pointer into its frames).
func motionToPresented(lodestone: String, seconds: Double, scratch: String) -> [Row] {
    motionToPresented(lodestone: lodestone, seconds: seconds, sparse: false, scratch: scratch)
        + motionToPresented(lodestone: lodestone, seconds: seconds, sparse: true, scratch: scratch)
}

private func motionToPresented(lodestone: String, seconds: Double, sparse: Bool, scratch: String) -> [Row] {
    let motions = sparse ? max(50, Int(seconds * 25)) : Int(seconds * 1000)
    let how = sparse ? "every 40 ms" : "1 kHz"
    var rows: [Row] = []
    var parentP50: Double?
    var weston = Latencies()
    do { weston = try measure((kind: .weston, extra: []), lodestone: lodestone, motions: motions, sparse: sparse, scratch: scratch) } catch { print("weston motion → presented: \(error)") }
    let setups: [(label: String, nested: (kind: Peer.Kind, extra: [String])?, target: String)] = [
        ("parent's own cursor", nil, ""),
        ("plain pointer (parent's cursor)", (kind: .lodestone, extra: []), "target ≤ parent + 1 ms, ≤ weston − 8 ms"),
        ("composed pointer (as a morph)", (kind: .lodestone, extra: ["--pointer-size", "4"]), "target ≤ weston − 5 ms"),
        ("composed pointer, max-render-time auto", (kind: .lodestone, extra: ["--pointer-size", "4", "--max-render-time", "auto"]), "target ≤ weston − 5 ms"),
    ]
    for setup in setups {
        do {
            let l = try measure(setup.nested, lodestone: lodestone, motions: motions, sparse: sparse, scratch: scratch)
            if setup.nested == nil { parentP50 = l.percentile(50) }
            print("motion → presented \(how), \(setup.label): \(l.values.count) of \(motions) motions measured, \(l.commits) answered by a commit"
                  + (l.commits > 0 ? String(format: " (p50 motion → commit %.2f ms, commit → shown %.2f ms)", l.percentile(50, of: l.toCommit) ?? 0, l.percentile(50, of: l.commitToShown) ?? 0) : ""))
            rows.append(Row(label: "motion \(how) → presented p50, \(setup.label)", lodestone: l.percentile(50), weston: weston.percentile(50), unit: "ms", format: "%.2f", target: setup.target))
            rows.append(Row(label: "motion \(how) → presented p99, \(setup.label)", lodestone: l.percentile(99), weston: weston.percentile(99), unit: "ms", format: "%.2f"))
        } catch { print("motion → presented \(how), \(setup.label): \(error)") }
    }
    print("motion → presented \(how), weston: \(weston.values.count) of \(motions) motions measured, \(weston.commits) answered by a commit"
          + String(format: " (p50 motion → commit %.2f ms, commit → shown %.2f ms)", weston.percentile(50, of: weston.toCommit) ?? 0, weston.percentile(50, of: weston.commitToShown) ?? 0)
          + "; parent's own cursor p50 \(parentP50.map { String(format: "%.2f ms", $0) } ?? "n/a")")
    return rows
}
