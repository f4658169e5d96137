// `lodestone-bench --peer` (make bench-peer): Lodestone and weston 10 side by side in one
// run, same 1280×800 output, same clients, one after the other so neither competes with
// the other for the second core. For each compositor:
//   - CPU per client frame (weston-simple-shm, weston-smoke), from /proc/PID/schedstat
//     (nanoseconds on CPU; /proc/PID/stat's 10 ms ticks are too coarse for 5 s);
//   - instructions per client frame, counting the compositor under callgrind
//     (perf's hardware counters are not available on every machine; callgrind is);
//   - idle RSS with no client, and CPU over 10 s with a still client;
//   - a pointer sweep at 1 kHz over a still window: both compositors nested in the same
//     headless Lodestone parent that moves its pointer (weston headless has no way to
//     inject input), counting CPU per motion, frames sent to the parent, and the latency
//     from a motion reaching the compositor to its next commit (its WAYLAND_DEBUG trace);
//   - motion → presented, nested in the same parent: from the parent's injected motion to the
//     parent's frame that shows the pointer there (MotionToPresented.swift).
// Targets (issue 16) are printed beside the figures; none of this is a test.
import Foundation
import LodestoneTesting

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}

/// Runs a tool to its end (`Peer.start`'s objcopy, callgrind_control); its failure is an error.
func run(_ arguments: [String]) throws {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: arguments[0])
    p.arguments = Array(arguments.dropFirst())
    p.standardOutput = FileHandle.nullDevice
    p.standardError = FileHandle.nullDevice
    try p.run()
    p.waitUntilExit()
    guard p.terminationStatus == 0 else { throw BenchError("\(arguments.joined(separator: " ")) failed") }
}

/// Commits a client has sent so far, from its WAYLAND_DEBUG trace: one per frame it drew.
private func commits(in trace: String) -> Int {
    let text = (try? String(contentsOfFile: trace, encoding: .utf8)) ?? ""
    return text.split(separator: "\n").reduce(0) { $0 + ($1.contains(" -> wl_surface@") && $1.hasSuffix(".commit()") ? 1 : 0) }
}

private let clients: [(name: String, command: [String])] = [
    ("weston-simple-shm", ["weston-simple-shm"]),
    ("weston-smoke", ["weston-smoke"]),
]

struct Row {
    var label: String
    var lodestone: Double?
    var weston: Double?
    var unit: String
    var format = "%.3f"
    var target: String = ""
    func printed() -> String {
        func f(_ v: Double?) -> String { v.map { String(format: format, $0) + " " + unit } ?? "n/a" }
        let ratio = (lodestone != nil && weston != nil && weston! > 0) ? String(format: "%.2f×", lodestone! / weston!) : "–"
        return label.padding(toLength: max(44, label.count + 1), withPad: " ", startingAt: 0)
            + f(lodestone).padding(toLength: 16, withPad: " ", startingAt: 0)
            + f(weston).padding(toLength: 16, withPad: " ", startingAt: 0)
            + ratio.padding(toLength: 8, withPad: " ", startingAt: 0) + target
    }
}

func benchmarkPeers(lodestone: String, seconds: Double) {
    var rows: [Row] = []
    let scratch = NSTemporaryDirectory() + "bench-peer-\(getpid())"
    try? FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    print("bench-peer: Lodestone (\(lodestone)) and weston 10 (headless, pixman), 1280×800, \(Int(seconds)) s per client; this takes a few minutes")

    // CPU per client frame, and idle figures.
    for client in clients {
        var row = Row(label: "\(client.name): CPU per client frame", unit: "ms", target: "target ≤ 0.5×")
        var frames = Row(label: "\(client.name): frames in \(Int(seconds)) s", unit: "", format: "%.0f")
        for kind in [Peer.Kind.lodestone, .weston] {
            do {
                let peer = try Peer.start(kind, lodestone: lodestone)
                defer { peer.stop() }
                let trace = scratch + "/\(kind)-\(client.name).trace"
                let p = try peer.launch(client.command, trace: trace)
                defer { p.terminate(); p.waitUntilExit() }
                usleep(1_000_000)  // past start-up
                let (c0, f0) = (peer.cpuNanoseconds, commits(in: trace))
                usleep(UInt32(seconds * 1_000_000))
                let (c1, f1) = (peer.cpuNanoseconds, commits(in: trace))
                let perFrame = f1 > f0 ? Double(c1 - c0) / 1e6 / Double(f1 - f0) : nil
                if kind == .lodestone { row.lodestone = perFrame; frames.lodestone = Double(f1 - f0) } else { row.weston = perFrame; frames.weston = Double(f1 - f0) }
            } catch { print("\(kind.rawValue) with \(client.name): \(error)") }
        }
        rows += [row, frames]
    }

    // Instructions per client frame: the compositor under callgrind, counted only while
    // the client runs (callgrind_control switches collection on and off).
    for client in clients {
        var row = Row(label: "\(client.name): instructions per frame", unit: "", format: "%.0f", target: "target ≤ 0.5×")
        for kind in [Peer.Kind.lodestone, .weston] {
            do {
                let out = scratch + "/\(kind)-\(client.name).callgrind"
                let peer = try Peer.start(kind, lodestone: lodestone, underCallgrind: out)
                let trace = scratch + "/\(kind)-\(client.name)-cg.trace"
                let p = try peer.launch(client.command, trace: trace)
                usleep(3_000_000)
                try run(["/usr/bin/callgrind_control", "--instr=on", "\(peer.pid)"])
                let f0 = commits(in: trace)
                usleep(UInt32(seconds * 1_000_000))
                try run(["/usr/bin/callgrind_control", "--instr=off", "\(peer.pid)"])
                let f1 = commits(in: trace)
                p.terminate(); p.waitUntilExit()
                peer.stop()
                let text = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
                let total = text.split(separator: "\n").first { $0.hasPrefix("totals:") }
                    .flatMap { Double($0.split(separator: " ").dropFirst().first ?? "") }
                let perFrame = (total != nil && f1 > f0) ? total! / Double(f1 - f0) : nil
                if kind == .lodestone { row.lodestone = perFrame } else { row.weston = perFrame }
            } catch { print("\(kind.rawValue) under callgrind with \(client.name): \(error)") }
        }
        rows.append(row)
    }

    // Idle: RSS with no client; CPU over 10 s with a still client (weston-flower draws once).
    var rss = Row(label: "idle RSS, no client", unit: "MiB", format: "%.1f", target: "target ≤ 1×")
    var anon = Row(label: "  of which its own (RssAnon)", unit: "MiB", format: "%.1f", target: "(the rest: shared libraries)")
    var idle = Row(label: "idle CPU over 10 s, a still window", unit: "ms", format: "%.2f", target: "target 0")
    for kind in [Peer.Kind.lodestone, .weston] {
        do {
            let peer = try Peer.start(kind, lodestone: lodestone)
            defer { peer.stop() }
            usleep(1_500_000)
            let mib = Double(peer.statusKiB("VmRSS")) / 1024, own = Double(peer.statusKiB("RssAnon")) / 1024
            let p = try peer.launch(["weston-flower"], trace: scratch + "/\(kind)-flower.trace")
            defer { p.terminate(); p.waitUntilExit() }
            // Steady state: past Lodestone's pointer auto-hide (8 s after the last input),
            // whose fade is frames a user sees, not idle work.
            usleep(6_500_000)
            let c0 = peer.cpuNanoseconds
            usleep(10_000_000)
            let ms = Double(peer.cpuNanoseconds - c0) / 1e6
            if kind == .lodestone { rss.lodestone = mib; anon.lodestone = own; idle.lodestone = ms } else { rss.weston = mib; anon.weston = own; idle.weston = ms }
        } catch { print("\(kind.rawValue) idle: \(error)") }
    }
    rows += [rss, anon, idle]

    // Pointer sweep, nested in one parent.
    rows += pointerSweep(lodestone: lodestone, seconds: seconds, scratch: scratch)
    // Motion → presented, nested in one parent.
    rows += motionToPresented(lodestone: lodestone, seconds: seconds, scratch: scratch)

    printRows(rows)

    // The nested path, client frames (NestedClientsBench.swift): the same rows as bench-nested.
    benchmarkNestedClients(lodestone: lodestone, seconds: seconds)
}

func printRows(_ rows: [Row]) {
    print("")
    print("".padding(toLength: 44, withPad: " ", startingAt: 0) + "Lodestone".padding(toLength: 16, withPad: " ", startingAt: 0)
          + "weston".padding(toLength: 16, withPad: " ", startingAt: 0) + "ratio")
    for row in rows { print(row.printed()) }
}

/// `lodestone-bench --presented`: the motion → presented rows alone.
func benchmarkMotionToPresented(lodestone: String, seconds: Double) {
    let scratch = NSTemporaryDirectory() + "bench-presented-\(getpid())"
    try? FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    // LODESTONE_BENCH_KEEP=1 keeps the WAYLAND_DEBUG traces (and the demo's pointer trace) to read.
    defer {
        if getenv("LODESTONE_BENCH_KEEP") == nil { try? FileManager.default.removeItem(atPath: scratch) } else { print("traces kept in \(scratch)") }
    }
    printRows(motionToPresented(lodestone: lodestone, seconds: seconds, scratch: scratch))
}

/// Both compositors nested in the same headless Lodestone parent, each with a still
/// weston-flower inside; the parent moves its pointer over the nested window every
/// millisecond, 3 pt each way.
private func pointerSweep(lodestone: String, seconds: Double, scratch: String) -> [Row] {
    var cpu = Row(label: "pointer sweep 1 kHz: CPU per motion", unit: "µs", format: "%.1f")
    var frames = Row(label: "pointer sweep: frames to the parent/s", unit: "", format: "%.1f")
    var p50 = Row(label: "sweep: oldest motion → commit p50", unit: "ms", format: "%.2f", target: "target ≤ 1×, ≤ one parent frame")
    var p99 = Row(label: "sweep: oldest motion → commit p99", unit: "ms", format: "%.2f", target: "target ≤ 1×")
    var fresh50 = Row(label: "sweep: newest motion → commit p50", unit: "ms", format: "%.3f")
    var fresh99 = Row(label: "sweep: newest motion → commit p99", unit: "ms", format: "%.3f")
    for kind in [Peer.Kind.lodestone, .weston] {
        do {
            let parent = try Session(size: "1600x1000")
            defer { parent.stop() }
            let trace = scratch + "/\(kind)-nested.trace"
            try createEmptyFile(atPath: trace)
            let peer = try Peer.start(kind, lodestone: lodestone, nestedIn: (parent.runtimeDirectory, parent.socket), trace: trace)
            defer { peer.stop() }
            let flower = try peer.launch(["weston-flower"], trace: scratch + "/\(kind)-nested-flower.trace")
            defer { flower.terminate(); flower.waitUntilExit() }
            let window = try parent.waitForWindow(nil)
            _ = try parent.control.movePointer(x: Double(window.x) + 200, y: Double(window.y) + 200)
            usleep(1_000_000)
            let traceStart = (try? Data(contentsOf: URL(fileURLWithPath: trace)).count) ?? 0
            let c0 = peer.cpuNanoseconds
            let clock = ContinuousClock()
            let start = clock.now
            var motions = 0
            var next = start
            // Sweep across the window, 3 pt per millisecond, back and forth.
            while clock.now - start < .milliseconds(Int(seconds * 1000)) {
                _ = try parent.control.movePointer(dx: (motions / 200) % 2 == 0 ? 3 : -3, dy: 0)
                motions += 1
                next = next.advanced(by: .milliseconds(1))
                if next > clock.now { usleep(UInt32(max(0, milliseconds(next - clock.now) * 1000))) }
            }
            let elapsed = milliseconds(clock.now - start) / 1000
            let used = Double(peer.cpuNanoseconds - c0) / 1e3 / Double(motions)
            usleep(200_000)
            let data = (try? Data(contentsOf: URL(fileURLWithPath: trace))) ?? Data()
            let text = String(decoding: data.dropFirst(traceStart), as: UTF8.self)
            // Two latencies per commit: from the oldest motion it answers (what a hand waits
            // for, paced by the parent's frames) and from the newest (how fresh the frame is).
            var latencies: [Double] = [], freshness: [Double] = []
            var commitCount = 0
            var motionAt: Double?, lastMotionAt: Double?
            for line in text.split(separator: "\n") {
                guard line.hasPrefix("["), let close = line.firstIndex(of: "]"),
                      let t = Double(line[line.index(after: line.startIndex)..<close].trimmingCharacters(in: .whitespaces)) else { continue }
                if !line.contains(" -> ") && line.contains("wl_pointer@") && line.contains(".motion(") {
                    if motionAt == nil { motionAt = t }
                    lastMotionAt = t
                } else if line.contains(" -> wl_surface@") && line.hasSuffix(".commit()") {
                    commitCount += 1
                    if let m = motionAt { latencies.append(t - m); motionAt = nil }
                    if let m = lastMotionAt { freshness.append(t - m); lastMotionAt = nil }
                }
            }
            func percentile(_ values: [Double], _ p: Int) -> Double? {
                let sorted = values.sorted()
                return sorted.isEmpty ? nil : sorted[min(sorted.count - 1, sorted.count * p / 100)]
            }
            let median = percentile(latencies, 50), tail = percentile(latencies, 99)
            print("\(kind.rawValue) nested: \(motions) motions in \(String(format: "%.1f", elapsed)) s, \(commitCount) commits to the parent")
            if kind == .lodestone {
                cpu.lodestone = used; frames.lodestone = Double(commitCount) / elapsed; p50.lodestone = median; p99.lodestone = tail
                fresh50.lodestone = percentile(freshness, 50); fresh99.lodestone = percentile(freshness, 99)
            } else {
                cpu.weston = used; frames.weston = Double(commitCount) / elapsed; p50.weston = median; p99.weston = tail
                fresh50.weston = percentile(freshness, 50); fresh99.weston = percentile(freshness, 99)
            }
        } catch { print("\(kind.rawValue) nested sweep: \(error)") }
    }
    return [cpu, frames, p50, p99, fresh50, fresh99]
}

/// Whether the compositor `process` opened its socket at `path` within `seconds` (false: it
/// exited first, or the time ran out).
func waitForSocket(_ path: String, of process: Process, seconds: Double) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while !FileManager.default.fileExists(atPath: path) {
        guard process.isRunning, Date() < deadline else { return false }
        usleep(20_000)
    }
    return true
}
