import AdaptivePointerClient
import CWaylandClient
import LodestoneCompositor
import Foundation
import Glibc
import Logging
import LodestoneSystem
import Rendering
import WaylandClient
import WaylandServer

// The pointer benchmark's scene (PointerBench.swift, InstructionCounts.swift): a Compositor in
// this process and its region client, a child that declares 200 buttons as regions.

// MARK: The scene

/// The region client's layout, in its surface: 20 × 10 buttons of 32×28 on a 40×60 grid,
/// and plain content right of x = 840.
enum Layout {
    static let window = (width: Int32(1200), height: Int32(760))
    static let origin = (x: 40.0, y: 20.0)  // where the bench puts the window
    static let columns = 20, rows = 10
    static func button(_ i: Int) -> (x: Int32, y: Int32, width: Int32, height: Int32) {
        (Int32(16 + (i % columns) * 40), Int32(16 + (i / columns) * 60), 32, 28)
    }
    /// A point of the sweep over the buttons, in global coordinates: back and forth along
    /// each row, crossing buttons, gaps and hit paddings.
    static func sweep(_ k: Int) -> (x: Double, y: Double) {
        let perRow = 200  // 4 points per step over 800 points
        let row = (k / perRow) % rows
        let along = Double(k % perRow) * 4
        let x = row % 2 == 0 ? along : 800 - along
        return (origin.x + 16 + x, origin.y + 30 + Double(row) * 60)
    }
    /// A point over plain content (no region), moving 3 points a step, back and forth: a
    /// wrap-around would jump 240 points left in one step, which the engine reads as a flick
    /// and glides the pointer on across the buttons of row 6 (effects, not a pointer-only frame).
    /// Below the rows of buttons: at row 6's height the pointer still drew with cairo now and then.
    static func plain(_ k: Int) -> (x: Double, y: Double) {
        let step = k % 160 < 80 ? k % 160 : 160 - k % 160
        return (origin.x + 900 + Double(step) * 3, origin.y + 700)
    }
    /// The lift button the lifted-element frames hold: index 21 (row 1), a `.lift` region.
    static let liftedButton = 21
    /// A point inside that button, moving 1 point a step back and forth across its middle: the
    /// element stays lifted and follows the pointer a little (its translation changes every frame).
    static func lifted(_ k: Int) -> (x: Double, y: Double) {
        let b = button(liftedButton), step = k % 16 < 8 ? k % 16 : 16 - k % 16
        return (origin.x + Double(b.x) + 12 + Double(step), origin.y + Double(b.y) + 14)
    }
}

/// A Compositor in this process and its region client in a child, connected by a socketpair.
final class PointerScene {
    let display: Display
    let compositor: Compositor
    private var child: pid_t = 0

    /// `clock`: real time for wall-clock figures, manual for instruction counts (then a frame
    /// happens only when the count advances the clock, and every run animates alike).
    init(clock: FrameClock.Mode = .realtime) throws {
        display = try Display()
        var options = Compositor.Options()  // 1280×800
        options.clock = clock
        options.pointerMode = .adaptive
        var log = Logger(label: "pointer-bench")
        log.logLevel = .warning
        compositor = try Compositor(display: display, options: options, logger: log)
        // Kept until the process ends: Compositor releases its Display before its Globals, and
        // wl_global_destroy on a destroyed display crashes (Lodestone itself exits instead).
        _ = Unmanaged.passRetained(compositor)

        var sockets: [Int32] = [0, 0], said: [Int32] = [0, 0]
        try syscall("socketpair") { socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &sockets) }
        try syscall("pipe") { pipe(&said) }
        for end in said { try syscall("fcntl") { fcntl(end, F_SETFD, FD_CLOEXEC) } }
        let client = try call("wl_client_create") { display.createClient(fd: sockets[0]) }
        // The child: WAYLAND_SOCKET=3 (its end of the socketpair), stdout into the pipe `said`.
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, sockets[1], 3)
        posix_spawn_file_actions_adddup2(&actions, said[1], 1)
        var env = ["WAYLAND_SOCKET=3"]
        if let path = getenv("PATH") { env.append("PATH=\(String(cString: path))") }
        let args = [CommandLine.arguments[0], clientFlag]
        var cArgs = args.map { strdup($0) } + [nil]
        var cEnv = env.map { strdup($0) } + [nil]
        defer { (cArgs + cEnv).forEach { free($0) } }
        // Not /proc/self/exe: under valgrind that is valgrind itself.
        let spawned = posix_spawn(&child, CommandLine.arguments[0], &actions, nil, &cArgs, &cEnv)
        close(sockets[1])
        close(said[1])
        defer { close(said[0]) }
        try callReturningErrno("posix_spawn") { spawned }

        // Serve the client until it says "ready <surface id>": window mapped, regions committed.
        var line: [UInt8] = []
        let deadline = ContinuousClock.now + .seconds(20)
        while !line.contains(10) {
            guard ContinuousClock.now < deadline else { throw SystemError("the region client did not get ready") }
            display.eventLoop.dispatch(timeout: 10)
            display.flushClients()
            var poller = pollfd(fd: said[0], events: Int16(POLLIN), revents: 0)
            if poll(&poller, 1, 0) > 0 {
                var buffer = [UInt8](repeating: 0, count: 256)
                let n = read(said[0], &buffer, buffer.count)
                guard n > 0 else { throw SystemError("the region client exited") }
                line += buffer[..<n]
            }
        }
        let words = String(decoding: line, as: UTF8.self).split(whereSeparator: \.isWhitespace)
        guard words.count == 2, words[0] == "ready", let surfaceID = UInt32(words[1]) else {
            throw SystemError("unexpected word from the region client: \(words)")
        }
        compositor.positionWindow(of: client, surfaceID: surfaceID, x: Int32(Layout.origin.x), y: Int32(Layout.origin.y))
        compositor.pointerMotion(toX: 10, y: 10)
        pump(milliseconds: 200)
    }

    /// Runs the event loop (client requests, frame timers) and flushes events to the client.
    func pump(milliseconds: Int = 0) {
        let end = ContinuousClock.now + .milliseconds(milliseconds)
        repeat {
            display.eventLoop.dispatch(timeout: 0)
            display.flushClients()
            if milliseconds > 0 { usleep(200) }
        } while ContinuousClock.now < end
    }

    /// Ends the client; its resources go while the compositor is still whole (their destroy
    /// handlers call into it), as in Lodestone.swift's shutdown.
    func stop() {
        if child > 0 {
            kill(child, SIGTERM)
            var status: Int32 = 0
            waitpid(child, &status, 0)
            child = 0
        }
        display.destroyClients()
    }

}

/// The child that declares the regions. Prints "ready <surface id>", then serves events.
func runRegionClient() -> Never {
    do {
        let connection = try Connection()  // WAYLAND_SOCKET
        let globals = try Globals(connection: connection)
        let adaptive = try AdaptivePointer(registry: globals.registry)
        let window = try Window(globals, title: "pointer-bench", width: Layout.window.width, height: Layout.window.height) { buffer in
            for y in 0..<Int(buffer.height) {
                for x in 0..<Int(buffer.width) {
                    buffer[y * Int(buffer.width) + x] = 0xff00_0000 | UInt32(0xd0 + (x / 8 + y / 8) % 2 * 0x10) &* 0x01_0101
                }
            }
            for i in 0..<Layout.columns * Layout.rows {
                let b = Layout.button(i)
                for y in b.y..<(b.y + b.height) {
                    for x in b.x..<(b.x + b.width) { buffer[Int(y * buffer.width + x)] = 0xff20_60d0 &+ UInt32(i) }
                }
            }
        }
        // Opaque, like most application windows: the cheapest full-damage frame, so the
        // ratio is not flattered by blending.
        if let opaque = globals.compositor.request({ wl_compositor_create_region($0) }) {
            wl_region_add(opaque, 0, 0, Layout.window.width, Layout.window.height)
            window.surface.request { wl_surface_set_opaque_region($0, opaque) }
            wl_region_destroy(opaque)
        }
        let regions = adaptive.regions(on: window.surface)
        let effects: [RegionDescription.Effect] = [.highlight, .lift, .hover, .automatic]
        for i in 0..<Layout.columns * Layout.rows {
            var d = RegionDescription(frame: Layout.button(i), effect: effects[i % effects.count], identifier: UInt32(i + 1))
            d.opaque = true
            regions.add(d)
        }
        window.surface.request { wl_surface_commit($0) }
        try connection.roundtrip()
        print("ready \(window.surface.id)")
        fflush(nil)
        // Everything above must outlive the loop: the proxies' handlers refer to it.
        try withExtendedLifetime((globals, adaptive, window, regions)) {
            while true { try connection.dispatch() }
        }
        exit(0)
    } catch {
        exit(0)  // the compositor went away: the benchmark is over
    }
}

extension Compositor {
    /// Device motion to a global point, as a backend reports it.
    func pointerMotion(toX x: Double, y: Double) { seat.handle(.pointerMotion(.absolute(x: x, y: y)), at: clock.now) }
}
