@testable import LodestoneCompositor
import Foundation
import Glibc
import Logging
import Rendering
import WaylandClient
import WaylandServer

/// A Lodestone compositor in the test process, on its own `Display`, with clients on
/// socketpairs: the in-process fixture docs/testing.md describes (weston's
/// `tests/pointer-test.c` is the model). Everything runs on the test's thread, so a test
/// injects input through `seat.handle` (what every backend calls), lets the clients catch
/// up with `roundtrip()` and asserts on what they received. The frame clock is manual:
/// nothing happens between two calls, and no test sleeps.
///
///     let lodestone = try InProcessCompositor()
///     let client = try lodestone.connect()
///     let window = try lodestone.mapWindow(on: client, title: "A", x: 100, y: 100, width: 200, height: 100)
///     try lodestone.movePointer(to: 150, 120)
///     XCTAssertEqual(client.pointerEvents.last, .enter(surface: window.surface.id, x: 50, y: 20))
final class InProcessCompositor {
    let display: Display
    let compositor: Compositor
    var seat: Seat { compositor.seat }
    var scene: Scene { compositor.scene }
    /// The time stamp of the last injected event, in milliseconds; each event is 10 ms after the one before.
    private(set) var time: UInt32 = 0
    private(set) var clients: [TestClient] = []

    struct Failure: Error, CustomStringConvertible { let description: String }

    /// `outputs`: several heads side by side (as `--outputs`); empty, one of `width`×`height`.
    /// `withdrawnGlobalLinger`: how long a removed head's global stays (milliseconds).
    /// `touch`: a touchscreen for good (`Compositor.Options.touch`).
    init(width: Int32 = 1280, height: Int32 = 800, scale: OutputScale = OutputScale(1), outputs: [OutputMode] = [],
         withdrawnGlobalLinger: Int32 = 5000, touch: Bool = false) throws {
        display = try Display()
        var options = Compositor.Options()
        options.width = width
        options.height = height
        options.scale = scale
        options.outputs = outputs
        options.withdrawnGlobalLinger = withdrawnGlobalLinger
        options.touch = touch
        options.clock = .manual
        var log = Logger(label: "in-process-compositor")
        log.logLevel = .warning
        compositor = try Compositor(display: display, options: options, logger: log)
    }

    /// Clients go while the compositor is whole (their resources' destroy handlers call
    /// into it), then the globals, then the display.
    deinit { compositor.shutdown() }

    // MARK: Clients

    /// A new client on one end of a socketpair, with the common globals bound and a
    /// recorder for its pointer and keyboard events.
    func connect() throws -> TestClient {
        var fds: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else {
            throw Failure(description: "socketpair: \(String(cString: strerror(errno)))")
        }
        guard let server = display.createClient(fd: fds[0]) else {
            close(fds[0]); close(fds[1])
            throw Failure(description: "wl_client_create failed")
        }
        let connection = try Connection(fd: fds[1])
        // The client's roundtrips run the compositor instead of blocking on it.
        connection.serve = { [weak self] in self?.serve() }
        let client = try TestClient(connection: connection, server: server)
        clients.append(client)
        try roundtrip()
        return client
    }

    /// One turn of the compositor: what clients sent is handled, what it has for them is sent.
    func serve() {
        display.eventLoop.dispatch(timeout: 0)
        display.flushClients()
    }

    /// Every client's requests are answered and every event sent to it is dispatched.
    /// Twice over: what one client does in answer to its events (a configure acknowledged
    /// and a buffer committed) may send events to another.
    func roundtrip() throws {
        for _ in 0..<2 {
            for client in clients { try client.connection.roundtrip() }
        }
    }

    /// A toplevel with a buffer of `width`×`height`, mapped and then put at (x, y).
    func mapWindow(on client: TestClient, title: String, x: Int32, y: Int32, width: Int32, height: Int32) throws -> Window {
        let window = try Window(client.globals, title: title, width: width, height: height)
        try roundtrip()  // the configure is acknowledged and a buffer committed: mapped
        guard compositor.positionWindow(of: client.server, surfaceID: window.surface.id, x: x, y: y) else {
            throw Failure(description: "window '\(title)' did not become an xdg surface")
        }
        try roundtrip()
        return window
    }

    // MARK: Input

    /// Hands one event to the seat, as a backend does, then lets every client catch up.
    func send(_ event: InputEvent) throws {
        time &+= 10
        seat.handle(event, at: time)
        try roundtrip()
    }

    func movePointer(to x: Double, _ y: Double) throws { try send(.pointerMotion(.absolute(x: x, y: y))) }
    func movePointer(by dx: Double, _ dy: Double) throws { try send(.pointerMotion(.relative(dx: dx, dy: dy))) }
    func press(_ button: UInt32 = Button.left) throws { try send(.pointerButton(button: button, pressed: true)) }
    func release(_ button: UInt32 = Button.left) throws { try send(.pointerButton(button: button, pressed: false)) }
    func click(at x: Double, _ y: Double, button: UInt32 = Button.left) throws {
        try movePointer(to: x, y)
        try press(button)
        try release(button)
    }
    func type(_ code: UInt32) throws {
        try send(.key(code: code, pressed: true))
        try send(.key(code: code, pressed: false))
    }

    /// Forgets what every client has received so far, so a test asserts on what follows.
    func forgetEvents() { for client in clients { client.forgetEvents() } }
}

/// Linux input codes (linux/input-event-codes.h).
enum Button {
    static let left: UInt32 = 0x110, right: UInt32 = 0x111
}

enum Key {
    static let a: UInt32 = 30, b: UInt32 = 48
}
