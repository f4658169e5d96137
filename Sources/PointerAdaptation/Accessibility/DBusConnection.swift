import CSDBus
import CWaylandServer
import Glibc
import LodestoneSystem
import WaylandServer

/// One connection to a message bus (`sd_bus *`), driven by the `wl_event_loop`: the bus's
/// file descriptor is a loop source waiting for what `sd_bus_get_events` says, a loop timer
/// stands for `sd_bus_get_timeout`, and `sd_bus_process` runs until it has nothing left.
/// Every call is asynchronous (`sd_bus_call_async`); nothing here ever waits on the bus.
final class DBusConnection {
    /// The `sd_bus *`; nil once closed.
    private var bus: OpaquePointer?
    private var fdSource: EventSource?
    private var timer: EventSource?
    /// Signal subscriptions (`sd_bus_slot *`), released with the connection.
    private var matches: [OpaquePointer] = []
    /// Called once when the connection breaks (the bus daemon went away).
    var onClose: (DBusError) -> Void = { _ in }
    /// How long a call may wait for its reply: a toolkit that never answers (GTK 4.8 leaves
    /// `GetOffsetAtPoint` unanswered) costs one timeout, not a stuck walk.
    static let callTimeout: UInt64 = 1_000_000  // µs

    /// Connects to `address` (a D-Bus address: `unix:path=…`) as a bus client. The socket
    /// connects without waiting; authentication and `Hello` happen as the loop runs, and
    /// calls made before then are queued.
    init(address: String, loop: EventLoop) throws(SystemError) {
        var bus: OpaquePointer?
        try callReturningNegativeErrno("sd_bus_new") { sd_bus_new(&bus) }
        self.bus = bus
        do {
            try callReturningNegativeErrno("sd_bus_set_address", what: "bad D-Bus address '\(address)'") { sd_bus_set_address(bus, address) }
            try callReturningNegativeErrno("sd_bus_set_bus_client") { sd_bus_set_bus_client(bus, 1) }
            try callReturningNegativeErrno("sd_bus_start", what: "cannot connect to D-Bus at '\(address)'") { sd_bus_start(bus) }
            let fd = try callReturningNegativeErrno("sd_bus_get_fd") { sd_bus_get_fd(bus) }
            fdSource = try loop.addFileDescriptor(fd, mask: 0) { [unowned self] _ in self.process() }
            timer = try loop.addTimer { [unowned self] in self.process() }
        } catch {
            close()
            throw error
        }
        rearm()
    }

    deinit { close() }

    var isOpen: Bool { bus != nil }

    func close() {
        fdSource = nil
        timer = nil
        for slot in matches { sd_bus_slot_unref(slot) }
        matches = []
        // Queued calls are dropped; their destroy callbacks release their handlers.
        if let bus { sd_bus_close_unref(bus) }
        bus = nil
    }

    // MARK: Calls

    /// The reply handler of one call, kept alive by its (floating) `sd_bus_slot` until
    /// sd-bus destroys the slot: after the reply, or with the connection.
    private final class PendingCall {
        let reply: (Result<DBusMessage, DBusError>) -> Void
        let sentAt = DBusConnection.monotonicSeconds
        weak var connection: DBusConnection?
        init(_ reply: @escaping (Result<DBusMessage, DBusError>) -> Void) { self.reply = reply }
    }

    /// Seconds from each call to its reply, the latest `roundTripsKept` (for the log and
    /// `make bench`); `takeRoundTrips` empties it.
    private var roundTrips: [Double] = []
    static let roundTripsKept = 8192
    func takeRoundTrips() -> [Double] { defer { roundTrips = [] }; return roundTrips }
    /// The longest the loop spent in one wake-up of this connection (s): what its replies
    /// can delay a frame by (issue 27: a walk must not delay one by more than 2 ms).
    /// Wall time includes the loop being descheduled; CPU time is what the replies cost.
    private var longestWakeUp = (wall: 0.0, cpu: 0.0)
    func takeLongestWakeUp() -> (wall: Double, cpu: Double) { defer { longestWakeUp = (0, 0) }; return longestWakeUp }
    static var threadCPUSeconds: Double {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    static var monotonicSeconds: Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// Calls `member` and hands its reply (or the error) to `reply`, from the event loop.
    /// Returns false (and never calls `reply`) when the call could not even be queued.
    @discardableResult
    func call(_ destination: String, _ path: String, _ interface: String, _ member: String,
              _ arguments: [DBusArgument] = [], reply: @escaping (Result<DBusMessage, DBusError>) -> Void) -> Bool {
        guard let bus else { return false }
        var message: OpaquePointer?
        guard sd_bus_message_new_method_call(bus, &message, destination, path, interface, member) >= 0, let message else { return false }
        defer { sd_bus_message_unref(message) }
        for argument in arguments {
            let r: Int32
            switch argument {
            case .string(let s): r = s.withCString { sd_bus_message_append_basic(message, CChar(bitPattern: 0x73), $0) }  // 's'
            case .int32(var v): r = sd_bus_message_append_basic(message, CChar(bitPattern: 0x69), &v)  // 'i'
            case .uint32(var v): r = sd_bus_message_append_basic(message, CChar(bitPattern: 0x75), &v)  // 'u'
            case .variantBool(let b):
                var v: Int32 = b ? 1 : 0
                let opened = sd_bus_message_open_container(message, CChar(bitPattern: 0x76), "b")  // 'v'
                r = opened < 0 ? opened : min(sd_bus_message_append_basic(message, CChar(bitPattern: 0x62), &v),  // 'b'
                                              sd_bus_message_close_container(message))
            }
            guard r >= 0 else { return false }
        }
        let call = PendingCall(reply)
        call.connection = self
        let pending = Unmanaged.passRetained(call).toOpaque()
        var slot: OpaquePointer?
        let r = sd_bus_call_async(bus, &slot, message, { m, userdata, _ in
            guard let m, let userdata else { return 0 }
            let pending = Unmanaged<PendingCall>.fromOpaque(userdata).takeUnretainedValue()
            if let c = pending.connection, c.roundTrips.count < DBusConnection.roundTripsKept {
                c.roundTrips.append(DBusConnection.monotonicSeconds - pending.sentAt)
            }
            let message = DBusMessage(pointer: m)
            if let error = message.error { pending.reply(.failure(error)) } else { pending.reply(.success(message)) }
            return 1
        }, pending, Self.callTimeout)
        guard r >= 0, let slot else {
            Unmanaged<PendingCall>.fromOpaque(pending).release()
            return false
        }
        // The slot frees itself after the reply; then (or when the bus closes) the handler goes.
        sd_bus_slot_set_destroy_callback(slot) { userdata in
            if let userdata { Unmanaged<PendingCall>.fromOpaque(userdata).release() }
        }
        sd_bus_slot_set_floating(slot, 1)
        // Floating, the bus holds the slot; the reference sd_bus_call_async gave us is ours to
        // drop. Kept, it left every slot at one reference after its reply: neither the slot nor
        // its handler was ever freed (LeakSanitizer: 88 bytes and a PendingCall per call).
        sd_bus_slot_unref(slot)
        rearm()
        return true
    }

    /// The handler of one signal subscription; lives as long as the connection.
    private final class Subscription {
        let handler: (DBusMessage) -> Void
        init(_ handler: @escaping (DBusMessage) -> Void) { self.handler = handler }
    }
    private var subscriptions: [Subscription] = []

    /// Delivers every message matching `rule` (a D-Bus match rule) to `handler`. The
    /// `AddMatch` is sent asynchronously.
    func subscribe(_ rule: String, _ handler: @escaping (DBusMessage) -> Void) {
        guard let bus else { return }
        let subscription = Subscription(handler)
        var slot: OpaquePointer?
        let r = sd_bus_add_match_async(bus, &slot, rule, { m, userdata, _ in
            guard let m, let userdata else { return 0 }
            Unmanaged<Subscription>.fromOpaque(userdata).takeUnretainedValue().handler(DBusMessage(pointer: m))
            return 0
        }, nil, Unmanaged.passUnretained(subscription).toOpaque())
        guard r >= 0, let slot else { return }
        subscriptions.append(subscription)
        matches.append(slot)
        rearm()
    }

    // MARK: The loop

    /// An app that sends signals without end would keep `sd_bus_process` busy for ever: after
    /// this many, the loop composes and reads its other clients, then sd-bus goes on (its
    /// timeout is 0 while messages wait in its queue, and the socket stays readable).
    static let messagesPerWakeUp = 256
    /// Nor longer than this (s): a frame due meanwhile waits no more (issue 27: 2 ms at most).
    static let wakeUpBudget = 0.001

    /// Lets sd-bus do what it can now (read, write, dispatch replies and signals), at most
    /// `messagesPerWakeUp` messages, then waits on the loop for what it needs next.
    private func process() {
        let started = Self.monotonicSeconds, cpu = Self.threadCPUSeconds
        defer {
            longestWakeUp.wall = max(longestWakeUp.wall, Self.monotonicSeconds - started)
            longestWakeUp.cpu = max(longestWakeUp.cpu, Self.threadCPUSeconds - cpu)
        }
        var budget = Self.messagesPerWakeUp
        while let bus, budget > 0, Self.monotonicSeconds - started < Self.wakeUpBudget {
            let r = sd_bus_process(bus, nil)
            budget -= 1
            if r > 0 { continue }
            if r < 0 {
                let reason = SystemError("sd-bus", errno: -r).reason ?? "no reason given"
                close()
                onClose(DBusError(name: "closed", message: reason))
                return
            }
            break
        }
        rearm()
    }

    /// Points the fd source and the timer at what sd-bus waits for now.
    private func rearm() {
        guard let bus else { return }
        let events = sd_bus_get_events(bus)
        var mask: UInt32 = 0
        if events >= 0 {
            if events & Int32(POLLIN) != 0 { mask |= UInt32(WL_EVENT_READABLE) }
            if events & Int32(POLLOUT) != 0 { mask |= UInt32(WL_EVENT_WRITABLE) }
        }
        fdSource?.update(mask: mask)
        var deadline: UInt64 = .max
        guard sd_bus_get_timeout(bus, &deadline) >= 0, deadline != .max else { timer?.arm(milliseconds: 0); return }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let nowMicros = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
        let ms = deadline > nowMicros ? (deadline - nowMicros + 999) / 1000 : 1
        timer?.arm(milliseconds: Int32(clamping: max(1, ms)))
    }
}
