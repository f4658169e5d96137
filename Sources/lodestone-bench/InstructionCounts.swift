// Instruction counts with callgrind (Scripts/bench-instructions): unlike wall time they
// do not move when the other core is busy, so a 5% regression shows. Each measured
// operation is counted alone (collection toggled around it, the setup between repeats
// uncounted) and written as its own callgrind part, named after the operation.
import CValgrind
import LodestoneCompositor
import Glibc
import LodestoneSystem
import WaylandServer

let instructionsFlag = "--instructions"

/// One counted operation: its callgrind part's label and how often it ran.
private func counted(_ label: String, repeats: Int, setup: (Int) -> Void = { _ in }, _ body: (Int) -> Void) {
    for k in 0..<repeats {
        setup(k)
        cvg_toggle_collect()
        body(k)
        cvg_toggle_collect()
    }
    cvg_dump_stats_at(label)
    print("\(label) \(repeats)")
}

/// The scene of the pointer benchmark (a 1200×760 window with 200 regions) plus
/// weston-simple-shm (a 250×250 client redrawing every frame), then each operation.
func countInstructionsAndExit() -> Never {
    guard cvg_running_on_valgrind() != 0 else {
        print("run under valgrind --tool=callgrind --collect-atstart=no (Scripts/bench-instructions)")
        exit(2)
    }
    do {
        // The manual clock: a frame runs when the count advances time by one refresh
        // interval, so the springs see the same times in every run.
        let scene = try PointerScene(clock: .manual)
        let c = scene.compositor
        let frame = c.clock.interval
        // Warm-up: caches, glyphs, masks, array capacities.
        for k in 0..<200 {
            let p = Layout.sweep(k)
            c.countedMotion(toX: p.x, y: p.y)
            c.clock.advance(by: frame)
        }
        counted("motion-200-regions", repeats: 500, setup: { _ in c.clock.advance(by: frame) }) { k in
            let p = Layout.sweep(k + 200)
            c.countedMotion(toX: p.x, y: p.y)
        }
        // Settle over plain content, then one frame per 3-point step of the pointer.
        c.countedMotion(toX: Layout.plain(0).x, y: Layout.plain(0).y)
        c.clock.advance(by: 1000)
        counted("pointer-only-frame", repeats: 300, setup: { k in
            let p = Layout.plain(k)
            c.countedMotion(toX: p.x, y: p.y)
        }) { _ in c.clock.advance(by: frame) }
        counted("full-damage-frame", repeats: 50, setup: { _ in
            c.output.damageAll()
            c.scheduleFrame()
        }) { _ in c.clock.advance(by: frame) }
        // Held over a lift button: the element lifted (shadow, specular, scaled pixels) moving
        // with the pointer, the damage its bounds. Settled first, so no frame scales it.
        c.countedMotion(toX: Layout.lifted(0).x, y: Layout.lifted(0).y)
        c.clock.advance(by: 1000)
        counted("lifted-element-frame", repeats: 300, setup: { k in
            let p = Layout.lifted(k + 1)
            c.countedMotion(toX: p.x, y: p.y)
        }) { _ in c.clock.advance(by: frame) }
        // Back over plain content, settled, so the client frames compose no effect.
        c.countedMotion(toX: Layout.plain(0).x, y: Layout.plain(0).y)
        c.clock.advance(by: 1000)
        try countClientFrames(scene, frames: 60)
        scene.stop()
        exit(0)
    } catch {
        print("instruction counts failed: \(error)")
        exit(1)
    }
}

/// weston-simple-shm commits a 250×250 frame whenever its frame callback is done: what the
/// compositor does from a commit to the next frame callback, per frame.
private func countClientFrames(_ scene: PointerScene, frames: Int) throws {
    var sockets: [Int32] = [0, 0]
    try syscall("socketpair") { socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &sockets) }
    _ = try call("wl_client_create") { scene.display.createClient(fd: sockets[0]) }
    // The child: WAYLAND_SOCKET=3, its end of the socket pair.
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, sockets[1], 3)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    var env = ["WAYLAND_SOCKET=3"]
    if let path = getenv("PATH") { env.append("PATH=\(String(cString: path))") }
    let args: [String] = ["weston-simple-shm"]
    var cArgs = args.map { strdup($0) } + [nil]
    var cEnv = env.map { strdup($0) } + [nil]
    defer { (cArgs + cEnv).forEach { free($0) } }
    var child: pid_t = 0
    let spawned = posix_spawnp(&child, "weston-simple-shm", &actions, nil, &cArgs, &cEnv)
    close(sockets[1])
    try callReturningErrno("posix_spawnp weston-simple-shm") { spawned }
    defer {
        kill(child, SIGTERM)
        var status: Int32 = 0
        waitpid(child, &status, 0)
    }
    // A client frame: its commit arrives (the loop blocks until it does), then the frame
    // that composes it and answers its frame callback. Until it has drawn a few first.
    let c = scene.compositor
    func clientFrame() {
        while c.output.damage.isEmpty {
            scene.display.eventLoop.dispatch(timeout: 1000)
            scene.display.flushClients()
        }
        c.clock.advance(by: c.clock.interval)
        scene.display.flushClients()
    }
    for _ in 0..<20 { clientFrame() }
    cvg_toggle_collect()
    for _ in 0..<frames { clientFrame() }
    let counted = frames
    cvg_toggle_collect()
    cvg_dump_stats_at("client-frame-250x250")
    print("client-frame-250x250 \(counted)")
}

private extension Compositor {
    func countedMotion(toX x: Double, y: Double) { seat.handle(.pointerMotion(.absolute(x: x, y: y)), at: clock.now) }
}
