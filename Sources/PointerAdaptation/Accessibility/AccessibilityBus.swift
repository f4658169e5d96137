import Glibc
import LodestoneSystem
import Logging
import AdaptivePointerProtocol
import AdaptivePointerEngine
import Rendering
import WaylandServer

/// The buses: switching accessibility on through the session bus's `org.a11y.Status`, finding
/// and connecting the accessibility bus, the signals that say an app changed, and giving up
/// (cursor names alone) when any of it is missing.
extension Accessibility {
    /// Connects when Lodestone starts, not at the first window: apps started afterwards find
    /// accessibility on (Qt reads `org.a11y.Status` once, when it starts), and the first
    /// window's walk does not wait for the bus.
    package func start() { if enabled, state == .idle { connect() } }

    /// Finds the accessibility bus, first switching accessibility on for apps the way a screen
    /// reader does: `org.a11y.Status.IsEnabled` on the session bus's `org.a11y.Bus`
    /// (docs/accessibility.md, "Switching accessibility on"). GTK publishes anyway; Qt 6 publishes nothing without it
    /// (or `QT_LINUX_ACCESSIBILITY_ALWAYS_ON`). `ScreenReaderEnabled` is left alone: apps take
    /// it to mean a screen reader speaks (and Chromium 156 does not read it: `AccessibilitySwitches`).
    func connect() {
        state = .findingBus
        func env(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }
        let atspi = env("AT_SPI_BUS_ADDRESS").flatMap { $0.isEmpty ? nil : $0 }
        let session = env("DBUS_SESSION_BUS_ADDRESS") ?? env("XDG_RUNTIME_DIR").map { "unix:path=\($0)/bus" }
        guard let session else {
            if let atspi { return connectAccessibilityBus(atspi) }
            return giveUp("no session bus (DBUS_SESSION_BUS_ADDRESS and XDG_RUNTIME_DIR are unset)")
        }
        let connection: DBusConnection
        do {
            connection = try DBusConnection(address: session, loop: loop)
        } catch {
            if let atspi { return connectAccessibilityBus(atspi) }
            return giveUp("no session bus (\(error))")
        }
        sessionBus = connection
        connection.call("org.a11y.Bus", "/org/a11y/bus", "org.freedesktop.DBus.Properties", "Set",
                        [.string("org.a11y.Status"), .string("IsEnabled"), .variantBool(true)]) { [weak self] result in
            guard let self else { return }
            if case .failure(let error) = result { self.log.debug("accessibility: could not switch org.a11y.Status.IsEnabled on (\(error))") }
            if let atspi { self.connectAccessibilityBus(atspi); return self.closeSessionBusSoon() }
            connection.call("org.a11y.Bus", "/org/a11y/bus", "org.a11y.Bus", "GetAddress") { [weak self] result in
                guard let self else { return }
                switch result {
                case .success(let m):
                    if let address = m.readString(), !address.isEmpty { self.connectAccessibilityBus(address) } else { self.giveUp("org.a11y.Bus gave no address") }
                case .failure(let error): self.giveUp("no accessibility bus on the session bus (\(error))")
                }
                // Closed from the loop, not from inside this reply's dispatch.
                self.closeSessionBusSoon()
            }
        }
    }


    /// The compositor shuts down while its loop still exists: the pending idle source goes now.
    /// libwayland frees an idle source only once it has run or been removed, and a loop
    /// destroyed with one still pending loses it (LeakSanitizer: 56 bytes from
    /// `wl_event_loop_add_idle` per compositor that gave up on the bus and stopped at once).
    package func stop() {
        idle?.remove()
        idle = nil
        // Its timers too: one removed after the loop is gone would write into freed memory
        // (a unit test's scroll armed the recheck timer, and its teardown corrupted the heap).
        for timer in [recheckTimer, lifetimeTimer, invalidationTimer, settleTimer, registryRetryTimer] { timer?.remove() }
        registryRetryTimer = nil
        settleTimer = nil
        recheckTimer = nil
        lifetimeTimer = nil
        invalidationTimer = nil
    }
    /// Drops the session bus (and, once given up, the accessibility bus) from the loop, not
    /// from inside one of their replies.
    func closeSessionBusSoon() {
        idle = try? loop.addIdle { [weak self] in
            guard let self else { return }
            self.sessionBus = nil
            if self.state == .unavailable { self.bus = nil }
            self.idle = nil
        }
    }

    func connectAccessibilityBus(_ address: String) {
        do {
            let bus = try DBusConnection(address: address, loop: loop)
            self.bus = bus
            state = .connected
            bus.onClose = { [weak self] error in self?.giveUp("the accessibility bus closed (\(error))") }
            // Bounds, children and states: any of them may move an element.
            bus.subscribe("type='signal',interface='org.a11y.atspi.Event.Object'") { [weak self] m in
                guard let self, let member = m.member, ["BoundsChanged", "ChildrenChanged", "StateChanged"].contains(member), let sender = m.sender else { return }
                // The registry's root gained or lost an app: one may be waited for.
                if member == "ChildrenChanged", m.path == "/org/a11y/atspi/accessible/root", !self.missingSince.isEmpty { self.listApps() }
                self.invalidate(app: sender)
            }
            for event in ["object:bounds-changed", "object:children-changed", "object:state-changed"] {
                bus.call("org.a11y.atspi.Registry", "/org/a11y/atspi/registry", "org.a11y.atspi.Registry", "RegisterEvent", [.string(event)]) { _ in }
            }
            log.info("accessibility: reading app geometry from the AT-SPI bus at \(address)")
            listApps()
        } catch {
            giveUp("cannot connect to the accessibility bus (\(error))")
        }
    }

    /// No accessibility geometry for this run: cursor names alone, said once.
    func giveUp(_ reason: String) {
        guard state != .unavailable else { return }
        state = .unavailable
        log.info("accessibility: \(reason); apps without regions get their cursor names only")
        for window in windows.values { window.walk?.cancel(); window.walk = nil }
        closeSessionBusSoon()
    }
}
