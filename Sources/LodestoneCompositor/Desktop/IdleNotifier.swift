import LodestoneSystem
import WaylandServer

/// When the session went idle, for `ext_idle_notification_v1`s (swayidle's timeouts): each
/// notification's timeout runs on the frame clock from its creation or the last input,
/// whichever came later. Input resumes every idled notification and starts every timeout
/// again (`activity`); while a visible surface inhibits idle (`IdleInhibitors`), nothing
/// idles and idled notifications resume, as wlroots' `wlr_idle_notifier_v1` does.
///
/// On the real clock one loop timer is armed for the earliest deadline. Input only moves
/// deadlines later, so it re-arms the timer only when an earlier one is needed (a
/// notification that had idled starts counting again); a timer that fires early finds
/// nothing due and is armed again. On the manual clock the test protocol's advance_clock
/// checks the deadlines (`clockAdvanced`).
final class IdleNotifier {
    private let clock: FrameClock
    private var timer: EventSource?
    /// The clock time the timer is armed for (nil: disarmed).
    private var armedFor: Milliseconds?
    private var notifications: [ExtIdleNotification] = []
    private(set) var isInhibited = false

    init(clock: FrameClock, loop: EventLoop) throws(SystemError) {
        self.clock = clock
        if clock.mode == .realtime { timer = try loop.addTimer { [unowned self] in self.timerFired() } }
    }

    func add(_ notification: ExtIdleNotification) {
        notification.since = clock.now
        notifications.append(notification)
        arm()
    }

    func remove(_ notification: ExtIdleNotification) { notifications.removeAll { $0 === notification } }

    /// Input from the user (any device): the session is not idle.
    func activity() {
        guard !isInhibited, !notifications.isEmpty else { return }
        let now = clock.now
        for n in notifications {
            n.since = now
            if n.isIdle { n.resumed() }
        }
        arm()
    }

    /// A visible surface inhibits idle (or no longer does): idled notifications resume, and
    /// the timeouts start again once nothing inhibits.
    func setInhibited(_ inhibited: Bool) {
        guard inhibited != isInhibited else { return }
        isInhibited = inhibited
        let now = clock.now
        for n in notifications {
            n.since = now
            if n.isIdle { n.resumed() }
        }
        if inhibited { disarm() } else { arm() }
    }

    /// Manual clock: time moved on (`FrameClock.advance`).
    func clockAdvanced() { idleDue() }

    private func timerFired() {
        armedFor = nil
        idleDue()
    }

    /// Notifications whose timeout has passed since the last input go idle.
    private func idleDue() {
        guard !isInhibited else { return }
        let now = clock.now
        for n in notifications where !n.isIdle && now &- n.since >= n.timeout { n.idled() }
        arm()
    }

    /// The timer at the earliest deadline still to come, unless already armed at or before it.
    private func arm() {
        guard let timer, !isInhibited else { return }
        let now = clock.now
        let waits = notifications.filter { !$0.isIdle }.map { $0.timeout - min($0.timeout, now &- $0.since) }
        guard let wait = waits.min() else { return disarm() }
        let deadline = now &+ wait
        if let armedFor, Int32(bitPattern: armedFor &- now) >= 0, Int32(bitPattern: deadline &- armedFor) >= 0 { return }
        armedFor = deadline
        // 0 would disarm it: a timeout of 0 fires within a millisecond.
        timer.arm(milliseconds: Int32(clamping: max(1, wait)))
    }

    private func disarm() {
        armedFor = nil
        timer?.arm(milliseconds: 0)
    }
}
