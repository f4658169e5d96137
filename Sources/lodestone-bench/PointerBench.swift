// The adaptive pointer's costs, measured on a Compositor running in this
// process (the setup of Sources/lodestone/Lodestone.swift, minus the backend)
// with a real client: this executable again (--pointer-bench-client), which
// maps a 1200×760 window on the 1280×800 output, draws 200 buttons on its
// left part and declares them as regions (highlight, lift, hover, automatic).
//
//  1. A pointer-only frame (the pointer moving over still content) against a
//     full-damage frame of the same scene, as a ratio (target ≤ 2%).
//  2. Motion to frame ready with the 200 regions: `Seat.handle(.pointerMotion)` (what
//     every backend calls: engine input, hit test, focus, wl_pointer.motion)
//     plus `frameNow` (engine step, damage, render). It leaves out the
//     wait for the next refresh, which is the frame clock's and not work.
//     Median and p99 (targets 150 µs, 1 ms): as the machine is, then with a
//     busy-loop child (--busy-loop) on every other core, also over still content.
//  3. Heap allocations per motion event after warm-up, with and without a composed
//     frame, counted for real over the whole process by ordo-one's malloc interposer
//     in a child (--pointer-bench-allocations) run with it preloaded (AllocationCounter,
//     as PointerEngineBenchmark does), split by the library that asked.
import AdaptivePointerClient
import AllocationCounter
import CWaylandClient
import LodestoneCompositor
import Foundation
import Glibc
import Logging
import LodestoneSystem
import Rendering
import WaylandClient
import WaylandServer

let clientFlag = "--pointer-bench-client"
private let allocationsFlag = "--pointer-bench-allocations"
private let busyFlag = "--busy-loop"

/// Runs the pointer benchmark, or one of its child roles when started as one (those exit).
func benchmarkAdaptivePointer() {
    if CommandLine.arguments.contains(clientFlag) { runRegionClient() }
    if CommandLine.arguments.contains(allocationsFlag) { countAllocationsAndExit() }
    if CommandLine.arguments.contains(instructionsFlag) { countInstructionsAndExit() }
    if CommandLine.arguments.contains(busyFlag) { spinForever() }
    do {
        let scene = try PointerScene()
        defer { scene.stop() }
        measureFrames(scene)
        measureLatency(scene, over: "the 200 regions", Layout.sweep, load: nil)
        // The same again with the other cores kept busy, as when a build or a game runs beside.
        let spinners = BusyCores()
        measureLatency(scene, over: "the 200 regions", Layout.sweep, load: spinners.count)
        measureLatency(scene, over: "still content", Layout.plain, load: spinners.count)
        spinners.stop()
    } catch {
        print("pointer benchmark failed: \(error)")
    }
    if !AllocationCounter.runChild(flag: allocationsFlag) {
        print("pointer: heap allocations: not measured (libMallocInterposerSwift.so missing or the child failed)")
    }
}

// MARK: Measurements

private func microseconds(_ d: Duration) -> Double {
    Double(d.components.seconds) * 1e6 + Double(d.components.attoseconds) / 1e12
}

private func percentile(_ sorted: [Double], _ p: Double) -> Double {
    sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.down)))]
}

private func format(_ v: Double, _ decimals: Int = 1) -> String { String(format: "%.\(decimals)f", v) }

/// Compose time of full-damage frames and of pointer-only frames, over plain content and
/// over the regions (effects repaint more than the pointer).
private func measureFrames(_ scene: PointerScene) {
    let c = scene.compositor
    let clock = ContinuousClock()
    func compose() -> Double {
        let start = clock.now
        c.frameNow()
        return microseconds(clock.now - start)
    }
    // Full damage: the pointer still, everything repainted.
    c.pointerMotion(toX: Layout.plain(0).x, y: Layout.plain(0).y)
    scene.pump(milliseconds: 100)
    var full: [Double] = []
    for i in 0..<210 {
        c.output.damageAll()
        let t = compose()
        if i >= 10 { full.append(t) }
        scene.pump()
    }
    // Pointer-only: the pointer moves 3 points a frame over a still window.
    func pointerFrames(_ point: (Int) -> (x: Double, y: Double)) -> [Double] {
        var times: [Double] = []
        for k in 0..<1_100 {
            let p = point(k)
            c.pointerMotion(toX: p.x, y: p.y)
            let t = compose()
            if k >= 100 { times.append(t) }
            scene.pump()
            usleep(500)  // the clock moves on, as between real motion events
        }
        return times.sorted()
    }
    let plain = pointerFrames(Layout.plain)
    let overRegions = pointerFrames(Layout.sweep)
    full.sort()
    let f = percentile(full, 0.5), p = percentile(plain, 0.5), r = percentile(overRegions, 0.5)
    print("pointer: full-damage frame 1280×800 (opaque 1200×760 window): median \(format(f)) µs")
    print("pointer: pointer-only frame over still content:  median \(format(p)) µs, ratio \(format(p / f * 100, 2))% of full (target ≤ 2%)")
    print("pointer: frame over the 200 regions (effects):   median \(format(r)) µs, ratio \(format(r / f * 100, 2))% of full")
}

/// Motion entering the compositor to frame ready, sweeping over the 200 regions or moving over
/// still content; `load`: how many busy-loop processes ran beside it (nil: none started).
private func measureLatency(_ scene: PointerScene, over place: String, _ point: (Int) -> (x: Double, y: Double), load: Int?) {
    let c = scene.compositor
    let clock = ContinuousClock()
    var samples: [Double] = []
    c.pointerMotion(toX: point(0).x, y: point(0).y)
    scene.pump(milliseconds: 500)  // what animated before settles
    for k in 0..<3_200 {
        let p = point(k)
        let start = clock.now
        c.pointerMotion(toX: p.x, y: p.y)
        c.frameNow()
        let t = microseconds(clock.now - start)
        if k >= 200 { samples.append(t) }
        scene.pump()
        usleep(1_000)  // about 1000 Hz, a fast mouse
    }
    samples.sort()
    let condition = load.map { "under load (\($0) busy-loop process\($0 == 1 ? "" : "es") on the other core\($0 == 1 ? "" : "s"))" } ?? "no load added"
    print("pointer: motion → frame ready over \(place), \(condition), \(samples.count) motions: median \(format(percentile(samples, 0.5))) µs, "
        + "p99 \(format(percentile(samples, 0.99))) µs, max \(format(samples.last ?? 0)) µs (targets 150 µs, 1000 µs)")
}

// MARK: Allocations

/// The child run with the malloc interposer preloaded: the same scene, warmed up, then counted
/// over the whole process (every thread and library; the region client is another process).
private func countAllocationsAndExit() -> Never {
    do {
        let scene = try PointerScene()
        defer { scene.stop() }
        let c = scene.compositor
        guard let calibration = AllocationCounter.record({
            var kept: [[Int]] = []
            for i in 0..<100 { kept.append([Int](repeating: i, count: 16)) }
            precondition(kept.count == 100)
        }), calibration.allocations >= 100 else {
            print("pointer: heap allocations: the interposer saw nothing of 100 deliberate allocations; not measured")
            exit(1)
        }
        // Warm-up: every button entered and left at least once, effects run.
        for k in 0..<2_400 {
            let p = Layout.sweep(k)
            c.pointerMotion(toX: p.x, y: p.y)
            c.frameNow()
            scene.pump()
        }
        scene.pump(milliseconds: 50)
        let n = 800
        // Motion handling alone over the regions (its events sent, no frame in between).
        guard let motion = AllocationCounter.record({
            for k in 0..<n {
                let p = Layout.sweep(k)
                c.pointerMotion(toX: p.x, y: p.y)
                scene.display.flushClients()
            }
        }) else { exit(1) }
        c.frameNow()
        scene.pump(milliseconds: 50)
        // Motion, then the frame it causes, then a turn of the event loop (as Lodestone's
        // loop runs them): over plain content (the pointer-only frame), then over the regions.
        func framed(_ point: (Int) -> (x: Double, y: Double)) -> (count: AllocationCounter.Count, frames: Int)? {
            // Whatever animated before (an effect leaving its button) settles first.
            c.pointerMotion(toX: point(0).x, y: point(0).y)
            c.frameNow()
            scene.pump(milliseconds: 1_000)
            for k in 0..<200 {
                let p = point(k)
                c.pointerMotion(toX: p.x, y: p.y)
                c.frameNow()
                scene.pump()
            }
            let before = c.frameCount
            guard let count = AllocationCounter.record({
                for k in 0..<n {
                    let p = point(k)
                    c.pointerMotion(toX: p.x, y: p.y)
                    c.frameNow()
                    scene.pump()
                }
            }) else { return nil }
            return (count, c.frameCount - before)
        }
        guard let plain = framed(Layout.plain), let regions = framed(Layout.sweep) else { exit(1) }
        func per(_ v: Int) -> String { format(Double(v) / Double(n), 2) }
        func callers(_ count: AllocationCounter.Count) -> String {
            count.byCaller.isEmpty ? "" : " (" + count.byCaller.map { "\($0.library) \(per($0.allocations))" }.joined(separator: ", ") + ")"
        }
        print("pointer: heap allocations per motion after warm-up, whole process (malloc-interposer, \(n) motions; target 0):")
        print("pointer:   input handling only, over the regions:        \(per(motion.allocations))\(callers(motion))")
        print("pointer:   with a pointer-only frame, over still content: \(per(plain.count.allocations))\(callers(plain.count)), \(plain.frames) frames")
        print("pointer:   with a frame over the 200 regions (effects):  \(per(regions.count.allocations))\(callers(regions.count)), \(regions.frames) frames")
        scene.stop()
        exit(0)
    } catch {
        print("pointer: heap allocations: \(error)")
        exit(1)
    }
}

// MARK: Load

/// A busy loop per core but this one's: children of this executable (--busy-loop) spinning
/// at normal priority until stopped, so the latency is measured with no idle core to run on.
private struct BusyCores {
    private var children: [pid_t] = []
    var count: Int { children.count }

    init() {
        let cores = Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        let args = [CommandLine.arguments[0], busyFlag]
        var cArgs = args.map { strdup($0) } + [nil]
        defer { cArgs.forEach { free($0) } }
        for _ in 0..<max(1, cores - 1) {
            var pid: pid_t = 0
            if posix_spawn(&pid, CommandLine.arguments[0], nil, nil, &cArgs, environ) == 0 { children.append(pid) }
        }
        usleep(200_000)  // let them start spinning
    }

    func stop() {
        for pid in children {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
    }
}

/// The busy-loop child: spins until killed, or until the benchmark is gone (it checks now and
/// then, so a benchmark that crashed leaves no spinner behind).
private func spinForever() -> Never {
    let parent = getppid()
    var x: UInt64 = 1, turns: UInt32 = 0
    while true {
        x = x &* 6364136223846793005 &+ 1442695040888963407
        if x == 0 { print(x) }  // never: keeps the loop from being optimised away
        turns &+= 1
        if turns == 0, getppid() != parent { exit(0) }
    }
}
