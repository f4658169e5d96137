import CWaylandServer
import Glibc
import LodestoneSystem
import Logging

/// The server's `wl_display`: the socket clients connect to and the owner of
/// every global and client.
public final class Display {
    /// The `wl_display *`; reachable through the typed methods, or `withDisplayPointer`.
    let pointer: OpaquePointer
    /// The display's loop. Every source added through it keeps the display (and so the loop)
    /// alive until the source is removed: a source removed in a deinit that runs after the
    /// display's last other owner let go would write into the freed loop.
    public var eventLoop: EventLoop { EventLoop(pointer: loopPointer, owner: self) }
    private let loopPointer: OpaquePointer
    /// Logs every protocol error as it is sent (`cws_display_add_error_reporter`).
    private let errorReporter: OpaquePointer?

    public init() throws(SystemError) {
        let display = try call("wl_display_create") { wl_display_create() }
        pointer = display
        loopPointer = wl_display_get_event_loop(display)
        errorReporter = cws_display_add_error_reporter(display, Display.protocolErrorSent)
        // libwayland's own messages ("error in client communication (pid 42)", a failed
        // accept) in Lodestone's log instead of bare on stderr. (A closure literal: a stored
        // one of this C type crashes swift-frontend 6.3.1 when another module reads it.)
        wl_log_set_handler_server { format, arguments in
            guard let format, let arguments else { return }
            var text = [CChar](repeating: 0, count: 512)
            _ = vsnprintf(&text, text.count, format, arguments)
            let line = text.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            Logger(label: "lodestone.libwayland").notice("libwayland: \(line.hasSuffix("\n") ? String(line.dropLast()) : line)")
        }
    }

    deinit {
        wl_display_destroy_clients(pointer)
        // Our own global goes before the display frees its globals' memory.
        shmGlobal = nil
        if let errorReporter { wl_protocol_logger_destroy(errorReporter) }
        wl_display_destroy(pointer)
    }

    /// Why a client is disconnected, whoever found the fault: Lodestone (`Resource.postError`)
    /// or libwayland (a `wl_shm` pool's bounds, an unknown object). Logged at warning level,
    /// because a user must be able to see why an app died.
    private static let protocolErrorSent: cws_error_report = { client, objectClass, objectID, code, message in
        guard let client else { return }
        let who = Client(pointer: client)
        let object = "\(objectClass.map { String(cString: $0) } ?? "?")@\(objectID)"
        Logger(label: "lodestone.protocol").warning(
            "protocol error, disconnecting client pid \(who.pid) (\(who.command)): \(object) error \(code): \(message.map { String(cString: $0) } ?? "")")
    }

    /// Listens on `$XDG_RUNTIME_DIR/name`, or on the first free `wayland-N`
    /// when `name` is nil. Returns the socket's name.
    @discardableResult
    public func addSocket(_ name: String?) throws(SystemError) -> String {
        // libwayland logs the detail (lock file, bind) and its errno would mislead;
        // the user needs the likely cause.
        func cannotListen(_ name: String) -> String {
            "cannot listen on Wayland socket '\(name)' (is XDG_RUNTIME_DIR set and the name free?)"
        }
        if let name {
            guard wl_display_add_socket(pointer, name) == 0 else {
                throw SystemError(cannotListen(name), call: "wl_display_add_socket")
            }
            return name
        }
        guard let auto = wl_display_add_socket_auto(pointer) else {
            throw SystemError(cannotListen("wayland-N"), call: "wl_display_add_socket_auto")
        }
        return String(cString: auto)
    }

    /// Serves `wl_shm`: Lodestone's own (`ShmPool`), which guards pool access against SIGBUS
    /// from truncated files as libwayland's does, and can keep the client's file for a parent
    /// compositor (`shmFiles.keepsFiles`).
    public func initShm() throws(SystemError) {
        let files = shmFiles
        shmGlobal = try WaylandGlobal(display: self, interface: WlShm.interface, version: WlShm.version) {
            _ = WlShm(files: files, client: $0, version: $1, id: $2)
        }
    }

    /// Which client files the shm pools keep; a backend that shares pools says so here.
    public let shmFiles = ShmFiles()
    private var shmGlobal: WaylandGlobal?

    /// Calls `body` with the `wl_display *` (the fuzzer's global filter).
    package func withDisplayPointer<R>(_ body: (OpaquePointer) throws -> R) rethrows -> R { try body(pointer) }

    public func run() { wl_display_run(pointer) }

    /// `wl_display_run` whose wait ends at `deadline`'s time too: each iteration runs the
    /// idle sources, flushes every client once, waits in epoll no longer than the deadline
    /// allows, dispatches what is ready, then lets the deadline fire. The frame clock's
    /// deadline costs no syscall this way: a `wl_event_loop` timer costs two
    /// `timerfd_settime` per frame (one to arm it, one as libwayland's timer heap re-arms or
    /// clears the timerfd after it fired).
    public func run(until deadline: LoopDeadline) {
        running = true
        while running {
            // Idle sources before the wait is measured: one that asks for a frame is heard.
            wl_event_loop_dispatch_idle(eventLoop.pointer)
            flushClients()
            eventLoop.dispatch(timeout: deadline.millisecondsUntilDue)
            deadline.fireIfDue()
        }
    }
    private var running = false

    /// Ends `run()` or `run(until:)` once the current dispatch returns.
    public func terminate() {
        running = false
        wl_display_terminate(pointer)
    }
    public func flushClients() { wl_display_flush_clients(pointer) }
    public func nextSerial() -> UInt32 { wl_display_next_serial(pointer) }
    /// The last serial handed out.
    public var currentSerial: UInt32 { wl_display_get_serial(pointer) }

    /// Whether `serial` was handed out at or after `first` and is not one still to come:
    /// what a request's serial must be to answer an event sent since `first`. Serials
    /// wrap, so distances are compared, not values.
    public func issued(_ serial: UInt32, since first: UInt32) -> Bool {
        serial &- first < 1 << 31 && currentSerial &- serial < 1 << 31
    }
    public func destroyClients() { wl_display_destroy_clients(pointer) }

    /// Calls `handler` with every client as it connects (`wl_display_add_client_created_listener`),
    /// while the process that connected is still there to be looked at. Keep the listener
    /// alive for as long as the calls are wanted. Nil when it cannot be allocated.
    public func onClientCreated(_ handler: @escaping (Client) -> Void) -> Listener? {
        guard let listener = Listener({ data in
            guard let data else { return }
            handler(Client(pointer: OpaquePointer(data)))
        }) else { return nil }
        wl_display_add_client_created_listener(pointer, listener.listener)
        return listener
    }

    /// Wraps an already connected socket as a client (wlcs, tests, spawned children).
    public func createClient(fd: Int32) -> Client? {
        wl_client_create(pointer, fd).map(Client.init(pointer:))
    }
}

/// Something `Display.run(until:)` wakes up for without a timer source (the frame clock).
public protocol LoopDeadline: AnyObject {
    /// How long the loop may wait, in milliseconds (0: due now, -1: nothing due).
    var millisecondsUntilDue: Int32 { get }
    /// Runs what is due, if anything; called after every dispatch.
    func fireIfDue()
}
