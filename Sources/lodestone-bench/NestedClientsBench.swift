// `lodestone-bench --nested LODESTONE [SECONDS]` (make bench-nested; bench-peer prints the same
// rows): the nested path as people use it (issue 37). Each compositor is nested in its own
// headless Lodestone parent (real clock, 60 Hz, 1600×1000), with a 1280×800 output, and runs the
// same clients one at a time:
//   - Lodestone with its parent planes (the default), and with `--parent-planes off` (every
//     client frame composed and copied into the window's buffer, as before issue 37);
//   - weston 10 (`--backend=wayland-backend.so --use-pixman`);
//   - sway 1.7 (`WLR_BACKENDS=wayland WLR_RENDERER=pixman`), as `nobody` when the bench runs as
//     root (sway refuses root), its parent's socket opened to it;
//   - and the client in the parent itself, for what the parent's own client costs and sees.
// Clients: weston-simple-shm, weston-smoke, foot printing lines without end (scrolling).
// Figures, over SECONDS after a second to settle:
//   - the nested compositor's CPU per client frame and the parent's (/proc/PID/schedstat),
//     the client's frames being its commits (its WAYLAND_DEBUG trace);
//   - commit → presented: a probe client of the bench's own commits every frame with
//     wp_presentation feedback; the time from its commit to the `presented` time it is told
//     (nested Lodestone passes on the parent's own times with its planes; weston and sway
//     report their own outputs' times);
//   - bytes copied per client frame into the nested window's own buffer while weston-simple-shm
//     animates beside a still foot window, from the nested compositor's WAYLAND_DEBUG trace
//     (`damage_buffer` on its window surface, 4 bytes a pixel; weston's `damage` likewise).
// Targets (issue 37): Lodestone's CPU per frame at most 0.2× weston's; commit → presented within
// 1 ms of the parent's own client; 0 bytes copied per frame for a still window.
import CWaylandClient
import CWaylandProtocols
import Foundation
import Glibc
import LodestoneTesting
import WaylandClient

/// Starts `command` as a client of `nested` (or of the parent), its WAYLAND_DEBUG trace in `trace`.
private func launchClient(_ command: [String], in nested: NestedCompositor?, parent: Session, trace: String) throws -> Process {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    var env = ProcessInfo.processInfo.environment
    env["XDG_RUNTIME_DIR"] = nested?.runtimeDirectory ?? parent.runtimeDirectory
    env["WAYLAND_DISPLAY"] = nested?.socket ?? parent.socket
    env["WAYLAND_DEBUG"] = "client"
    env["XDG_CONFIG_HOME"] = (nested?.runtimeDirectory ?? parent.runtimeDirectory) + "/no-config"
    for k in ["DISPLAY", "SWAYSOCK"] { env.removeValue(forKey: k) }
    if let user = nested?.clientUser {
        env["HOME"] = nested?.runtimeDirectory
        p.arguments = ["setpriv", "--reuid=\(user)", "--regid=\(user)", "--clear-groups"] + command
    } else {
        p.arguments = command
    }
    p.environment = env
    try createEmptyFile(atPath: trace)
    if let user = nested?.clientUser { chown(trace, user, user) }
    p.standardOutput = FileHandle.nullDevice
    p.standardError = FileHandle(forWritingAtPath: trace)
    try p.run()
    return p
}

/// Commits a client has sent so far, from its WAYLAND_DEBUG trace: one per frame it drew.
private func clientFrames(_ trace: String) -> Int {
    textOfFile(trace).split(separator: "\n").reduce(0) { $0 + ($1.contains(" -> wl_surface@") && $1.hasSuffix(".commit()") ? 1 : 0) }
}

/// Nanoseconds a process has run on a CPU.
private func cpuNanoseconds(_ pid: Int32) -> UInt64 {
    UInt64(textOfFile("/proc/\(pid)/schedstat").split(separator: " ").first ?? "") ?? 0
}

private let benchClients: [(name: String, command: [String])] = [
    ("weston-simple-shm", ["weston-simple-shm"]),
    ("weston-smoke", ["weston-smoke"]),
    // foot prints lines without end: it scrolls and redraws every frame.
    ("foot scrolling", ["foot", "--config=/dev/null", "sh", "-c", "while :; do seq 1 4000; done"]),
]

private func percentile(_ values: [Double], _ p: Int) -> Double? {
    let sorted = values.sorted()
    return sorted.isEmpty ? nil : sorted[min(sorted.count - 1, sorted.count * p / 100)]
}

/// Bytes a nested compositor copied into its window's own buffer, from its WAYLAND_DEBUG trace:
/// the `damage_buffer` (or `damage`) rectangles of its commits that attach a buffer, on the
/// surfaces that are not its subsurfaces (Lodestone's planes) or its cursor, 4 bytes a pixel.
private func windowBytes(_ trace: String, from start: Int) -> Int {
    let text = String(decoding: ((try? Data(contentsOf: URL(fileURLWithPath: trace))) ?? Data()).dropFirst(start), as: UTF8.self)
    let whole = textOfFile(trace)
    let surface = #/ -> (wl_surface@\d+)\./#
    let subsurfaces = Set(whole.split(separator: "\n").filter { $0.contains(".get_subsurface(") }.compactMap { line in
        line.split(separator: " ").first { $0.hasPrefix("wl_surface@") }.map { String($0.trimmingCharacters(in: CharacterSet(charactersIn: ",)"))) }
    })
    let framed = Set(whole.split(separator: "\n").filter { $0.contains(".frame(new id wl_callback@") }.compactMap { $0.firstMatch(of: surface).map { String($0.output.1) } })
    var bytes = 0
    var pending: [String: Int] = [:], attached: Set<String> = []
    for line in text.split(separator: "\n") {
        guard let m = line.firstMatch(of: surface) else { continue }
        let s = String(m.output.1)
        guard framed.contains(s), !subsurfaces.contains(s) else { continue }
        if line.contains(".attach(wl_buffer@") { attached.insert(s) }
        if line.contains(".damage_buffer(") || line.contains(".damage(") {
            let n = line.split(separator: "(").last!.dropLast().split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            if n.count == 4 { pending[s, default: 0] += max(0, min(n[2], 4096)) * max(0, min(n[3], 4096)) * 4 }
        }
        if line.hasSuffix(".commit()") {
            if attached.contains(s) { bytes += pending[s] ?? 0 }
            pending[s] = 0
            attached.remove(s)
        }
    }
    return bytes
}

/// The nested rows: per client, CPU per frame of the nested compositor and of the parent;
/// commit → presented; bytes copied per frame beside a still window. Printed as a table, one
/// column per setup, and returned as text for docs/performance.md.
@discardableResult
func benchmarkNestedClients(lodestone: String, seconds: Double) -> String {
    let scratch = NSTemporaryDirectory() + "bench-nested-\(getpid())"
    try? FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    chmod(scratch, 0o755)
    defer { if getenv("LODESTONE_BENCH_KEEP") == nil { try? FileManager.default.removeItem(atPath: scratch) } else { print("traces kept in \(scratch)") } }
    print("bench-nested: each compositor nested in a headless Lodestone parent (60 Hz), 1280×800, \(Int(seconds)) s per client; this takes a few minutes")
    let setups = NestedSetup.allCases
    var table: [(label: String, values: [NestedSetup: Double], unit: String, format: String)] = []

    for client in benchClients {
        var nestedCPU: [NestedSetup: Double] = [:], parentCPU: [NestedSetup: Double] = [:], frames: [NestedSetup: Double] = [:]
        for setup in setups {
            do {
                let parent = try Session(size: "1600x1000")
                defer { parent.stop() }
                let nested = try NestedCompositor.start(setup, lodestone: lodestone, parent: parent, trace: nil, scratch: scratch)
                defer { nested?.stop() }
                let trace = scratch + "/\(setup)-\(client.name.filter { $0.isLetter }).trace"
                let p = try launchClient(client.command, in: nested, parent: parent, trace: trace)
                defer { p.terminate(); p.waitUntilExit() }
                usleep(1_500_000)
                let (n0, p0, f0) = (nested.map { cpuNanoseconds($0.pid) } ?? 0, cpuNanoseconds(parent.compositorPID), clientFrames(trace))
                usleep(UInt32(seconds * 1_000_000))
                let (n1, p1, f1) = (nested.map { cpuNanoseconds($0.pid) } ?? 0, cpuNanoseconds(parent.compositorPID), clientFrames(trace))
                guard f1 > f0 else { print("\(setup.label), \(client.name): no client frames"); continue }
                let count = Double(f1 - f0)
                frames[setup] = count / seconds
                if nested != nil { nestedCPU[setup] = Double(n1 - n0) / 1e6 / count }
                parentCPU[setup] = Double(p1 - p0) / 1e6 / count
            } catch {
                print("\(setup.label), \(client.name): \(error)")
            }
        }
        table.append(("\(client.name): client frames/s", frames, "", "%.1f"))
        table.append(("\(client.name): nested CPU per frame", nestedCPU, "ms", "%.3f"))
        table.append(("\(client.name): parent CPU per frame", parentCPU, "ms", "%.3f"))
    }

    // Commit → presented, the probe in each setup.
    var p50: [NestedSetup: Double] = [:], p99: [NestedSetup: Double] = [:]
    for setup in setups {
        do {
            let parent = try Session(size: "1600x1000")
            defer { parent.stop() }
            let nested = try NestedCompositor.start(setup, lodestone: lodestone, parent: parent, trace: nil, scratch: scratch)
            defer { nested?.stop() }
            let probe = try PresentationProbe(socketPath: (nested?.runtimeDirectory ?? parent.runtimeDirectory) + "/" + (nested?.socket ?? parent.socket))
            try probe.run(seconds: 1)
            probe.latencies = []
            try probe.run(seconds: seconds)
            p50[setup] = percentile(probe.latencies, 50)
            p99[setup] = percentile(probe.latencies, 99)
            print("commit → presented, \(setup.label): \(probe.latencies.count) frames presented, \(probe.discarded) discarded, clock \(probe.clockID.map(String.init) ?? "?")")
        } catch {
            print("commit → presented, \(setup.label): \(error)")
        }
    }
    table.append(("commit → presented p50", p50, "ms", "%.2f"))
    table.append(("commit → presented p99", p99, "ms", "%.2f"))

    // Bytes copied per frame into the window's buffer: simple-shm animating beside a still foot.
    var bytes: [NestedSetup: Double] = [:]
    for setup in setups where setup != .parentsOwn {
        do {
            let parent = try Session(size: "1600x1000")
            defer { parent.stop() }
            let nestedTrace = scratch + "/\(setup)-bytes.trace"
            try createEmptyFile(atPath: nestedTrace)
            guard let nested = try NestedCompositor.start(setup, lodestone: lodestone, parent: parent, trace: nestedTrace, scratch: scratch) else { continue }
            defer { nested.stop() }
            let stillTrace = scratch + "/\(setup)-still.trace"
            let foot = try launchClient(["foot", "--config=/dev/null", "sh", "-c", "sleep 1000"], in: nested, parent: parent, trace: stillTrace)
            defer { foot.terminate(); foot.waitUntilExit() }
            // simple-shm maps above foot once foot is up: beside it, not under its title bar
            // (which would compose it, rightly).
            let mapped = Date().addingTimeInterval(10)
            while clientFrames(stillTrace) == 0 && Date() < mapped { usleep(50_000) }
            usleep(500_000)
            let trace = scratch + "/\(setup)-bytes-shm.trace"
            let shm = try launchClient(["weston-simple-shm"], in: nested, parent: parent, trace: trace)
            defer { shm.terminate(); shm.waitUntilExit() }
            usleep(2_000_000)
            let start = (try? Data(contentsOf: URL(fileURLWithPath: nestedTrace)).count) ?? 0, f0 = clientFrames(trace)
            usleep(UInt32(seconds * 1_000_000))
            let f1 = clientFrames(trace)
            guard f1 > f0 else { continue }
            bytes[setup] = Double(windowBytes(nestedTrace, from: start)) / Double(f1 - f0)
        } catch {
            print("bytes copied, \(setup.label): \(error)")
        }
    }
    table.append(("bytes copied per frame, still window", bytes, "B", "%.0f"))

    // The table, then the targets.
    var text = "| | " + setups.map(\.label).joined(separator: " | ") + " |\n|---|" + setups.map { _ in "---:|" }.joined() + "\n"
    for row in table {
        text += "| \(row.label) | " + setups.map { s in row.values[s].map { String(format: row.format, $0) + (row.unit.isEmpty ? "" : " " + row.unit) } ?? "–" }.joined(separator: " | ") + " |\n"
    }
    var targets = ""
    for client in benchClients {
        let cpu = table.first { $0.label == "\(client.name): nested CPU per frame" }?.values
        if let l = cpu?[.planes], let w = cpu?[.weston], w > 0 {
            targets += "- \(client.name): Lodestone's CPU per frame \(String(format: "%.3f", l)) ms, \(String(format: "%.2f", l / w))× weston's \(String(format: "%.3f", w)) ms: target ≤ 0.2×, \(l / w <= 0.2 ? "met" : "not met")\n"
        }
    }
    if let own = p50[.parentsOwn], let l = p50[.planes] {
        targets += "- commit → presented p50: Lodestone \(String(format: "%.2f", l)) ms, the parent's own client \(String(format: "%.2f", own)) ms: target within 1 ms, \(abs(l - own) <= 1 ? "met" : "not met")\n"
    }
    if let b = bytes[.planes] {
        targets += "- bytes copied per frame beside a still window: Lodestone \(String(format: "%.0f", b)) B: target 0, \(b == 0 ? "met" : "not met")\n"
    }
    print("")
    print(text)
    print(targets)
    return text + "\n" + targets
}
