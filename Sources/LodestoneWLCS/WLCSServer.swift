import CWLCS
import CWaylandServer
import LodestoneCompositor
import Glibc
import LodestoneSystem
import Logging
import WaylandServer

/// One Lodestone instance as wlcs sees it (a `WlcsDisplayServer`): wlcs makes
/// one per test, runs it on a thread of its own with `start_on_this_thread`
/// and sends every other call through its event loop, which we dispatch from
/// ours. So everything here runs on Lodestone's loop thread, as the
/// compositor requires.
final class WLCSServer {
    /// The C `WlcsDisplayServer` wlcs holds; it carries a retained reference
    /// to this object, released by `destroy_server`.
    private(set) var raw: UnsafeMutableRawPointer?
    private var display: Display?
    private(set) var compositor: Compositor?
    private let log: Logger
    private var running = false
    /// Our clients by the number of *their* end of the socket pair: all that
    /// `position_window_absolute` tells us is the client's `wl_display`, whose fd
    /// is that end. The listener forgets a client when it disconnects.
    private var clients: [Int32: (client: Client, gone: Listener)] = [:]

    init() throws {
        log = Logger(label: "lodestone-wlcs") { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = getenv("LODESTONE_WLCS_LOG").flatMap { Logger.Level(rawValue: String(cString: $0)) } ?? .warning
            return handler
        }
        let display = try Display()
        var options = Compositor.Options()
        // Frame callbacks must fire on their own: wlcs waits for them.
        options.clock = .realtime
        options.acceptsBufferBeforeInitialAck = true  // see its doc comment
        options.newWindowsAlwaysTakeFocus = true  // likewise
        options.acceptsAnySelectionSerial = true  // likewise
        options.touch = true
        compositor = try Compositor(display: display, options: options, logger: log)
        self.display = display

        let owner = Unmanaged.passRetained(self).toOpaque()
        do throws(SystemError) {
            raw = try call("cwlcs_server_create") { cwlcs_server_create(owner) }
        } catch {
            Unmanaged.passUnretained(self).release()
            throw error
        }
        describeExtensions()
    }

    static func from(_ owner: UnsafeMutableRawPointer) -> WLCSServer {
        Unmanaged<WLCSServer>.fromOpaque(owner).takeUnretainedValue()
    }

    /// wlcs skips tests whose protocols (or versions) are not listed here.
    private func describeExtensions() {
        guard let raw, let globals = compositor?.advertisedGlobals else { return }
        cwlcs_server_set_extension_count(raw, globals.count)
        for (index, global) in globals.enumerated() {
            cwlcs_server_set_extension(raw, index, global.name, UInt32(global.version))
        }
    }

    // MARK: Lifetime

    /// `start_on_this_thread`: runs Lodestone's loop, serving wlcs' calls from
    /// it, until `stop` (itself one of those calls).
    func run(wlcsLoop: OpaquePointer) {
        guard let display else { return }
        running = true
        let wlcsCalls: EventSource
        do {
            wlcsCalls = try display.eventLoop.addFileDescriptor(wl_event_loop_get_fd(wlcsLoop)) { _ in
                wl_event_loop_dispatch(wlcsLoop, 0)
            }
        } catch {
            // The hook cannot fail, and without this source wlcs would wait forever
            // for its calls to be answered: say why and end the run.
            let message = "lodestone-wlcs: cannot serve wlcs' calls: \(error)\n"
            _ = message.withCString { write(STDERR_FILENO, $0, strlen($0)) }
            exit(EXIT_FAILURE)
        }
        while running {
            display.flushClients()
            display.eventLoop.dispatch(timeout: -1)
        }
        wlcsCalls.remove()
        disconnectClients()
    }

    func stop() { running = false }

    /// `destroy_server`, after the loop's thread has ended.
    func tearDown() {
        disconnectClients()
        compositor = nil   // its globals and timers go before the display
        display = nil
        cwlcs_server_free(raw)
        raw = nil
    }

    private func disconnectClients() {
        for entry in clients.values { entry.gone.detach() }
        clients = [:]
        display?.destroyClients()
    }

    // MARK: Clients

    /// `create_client_socket`: one end becomes a Lodestone client, wlcs
    /// connects to the other.
    func createClientSocket() -> Int32 {
        guard let display else { return -1 }
        var fds: [Int32] = [-1, -1]
        let client: Client
        do throws(SystemError) {
            try syscall("socketpair") { socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) }
            do throws(SystemError) {
                client = try call("wl_client_create") { display.createClient(fd: fds[0]) }
            } catch {
                close(fds[0]); close(fds[1])
                throw error
            }
        } catch {
            log.error("\(error)")
            return -1
        }
        let theirs = fds[1]
        guard let gone = client.onDestroy({ [weak self] in self?.clients[theirs] = nil }) else {
            log.error("out of memory watching a new client")
            client.destroy(); close(theirs)
            return -1
        }
        clients[theirs] = (client, gone)
        return theirs
    }

    /// `position_window_absolute`: the surface's top-left goes to (x, y).
    func positionWindow(clientDisplay: UnsafeMutableRawPointer, surface: UnsafeMutableRawPointer, x: Int32, y: Int32) {
        let fd = cwlcs_client_display_fd(clientDisplay)
        let id = cwlcs_client_proxy_id(surface)
        guard let client = clients[fd]?.client else {
            return log.warning("position_window_absolute: no client on fd \(fd)")
        }
        if compositor?.positionWindow(of: client, surfaceID: id, x: x, y: y) != true {
            log.warning("position_window_absolute: wl_surface@\(id) is not a window")
        }
    }

    // MARK: Devices

    func createPointer() -> UnsafeMutableRawPointer? {
        let device = FakePointer(compositor: compositor)
        return cwlcs_pointer_create(Unmanaged.passRetained(device).toOpaque())
    }

    func createTouch() -> UnsafeMutableRawPointer? {
        let device = FakeTouch(compositor: compositor)
        return cwlcs_touch_create(Unmanaged.passRetained(device).toOpaque())
    }
}
