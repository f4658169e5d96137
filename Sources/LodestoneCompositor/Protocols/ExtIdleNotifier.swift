import CWaylandProtocols
import CWaylandServer
import WaylandServer

/// `ext_idle_notifier_v1` (ext-idle-notify-v1, version 1): a client (swayidle) asks to be
/// told when the user has not touched any input device for a while, and when they come
/// back. The state is `IdleNotifier` (`Desktop/`); idle inhibitors (`zwp_idle_inhibitor_v1`
/// on a visible surface) hold idle off.
final class ExtIdleNotifier: Resource, ExtIdleNotifierV1Handler {
    static let version: Int32 = 1
    unowned let notifier: IdleNotifier

    init?(notifier: IdleNotifier, client: Client, version: UInt32, id: UInt32) {
        self.notifier = notifier
        super.init(client: client, version: version, id: id)
    }

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        case .destroy: destroy()
        // The seat argument names Lodestone's only seat: all input counts.
        case .getIdleNotification:
            guard let notification = ExtIdleNotification(timeout: a.uint(1), notifier: notifier, client: client, version: version, id: a.newID(0))
            else { return }
            notifier.add(notification)
        }
    }
}

/// `ext_idle_notification_v1`: `idled` once `timeout` milliseconds pass without input,
/// `resumed` at the next input. Destroying it (or its notifier) ends it; it lives on its own.
final class ExtIdleNotification: Resource, ExtIdleNotificationV1Handler {
    /// Milliseconds without input before `idled`; at most 2^31 - 1 (24 days), so the frame
    /// clock's 32-bit milliseconds compare without wrapping.
    let timeout: Milliseconds
    /// The clock time its timeout runs from: its creation or the last input.
    var since: Milliseconds = 0
    private(set) var isIdle = false
    private unowned let notifier: IdleNotifier

    init?(timeout: UInt32, notifier: IdleNotifier, client: Client, version: UInt32, id: UInt32) {
        self.timeout = min(timeout, UInt32(Int32.max))
        self.notifier = notifier
        super.init(client: client, version: version, id: id)
    }

    func handle(_ request: Request, _ a: Arguments) {
        if request == .destroy { destroy() }
    }

    func idled() {
        isIdle = true
        send { ext_idle_notification_v1_send_idled($0) }
    }

    func resumed() {
        isIdle = false
        send { ext_idle_notification_v1_send_resumed($0) }
    }

    override func destroyed() { notifier.remove(self) }
}
