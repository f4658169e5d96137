/// Auto-hide and visibility: the pointer hides after inactivity (3.25 s after a trackpad, 8 s
/// after a mouse), while typing and while locked, and shows again on motion or a click, fading
/// both ways with its own spring. It is also hidden while it is outside every output. While a
/// visible surface inhibits idle (`zwp_idle_inhibitor_v1`) inactivity does not hide it.
struct Visibility: Sendable {
    private(set) var lastActivity = Instant.zero
    private(set) var device = DeviceKind.mouse
    private(set) var typing = false
    private(set) var locked = false
    private(set) var outside = false
    private(set) var idleInhibited = false
    var alpha = AnimatedValue(1)

    mutating func noteActivity(at time: Instant) {
        lastActivity = time
        typing = false
    }

    mutating func noteTyping() { typing = true }

    mutating func setDevice(_ d: DeviceKind) { device = d }

    mutating func setLocked(_ l: Bool) { locked = l }

    mutating func setOutside(_ o: Bool) { outside = o }

    mutating func setIdleInhibited(_ i: Bool) { idleInhibited = i }

    func autoHideDelay(_ t: PointerTuning) -> Double {
        device == .trackpad ? t.trackpadAutoHideDelay : t.mouseAutoHideDelay
    }

    func isShown(at time: Instant, settings: PointerSettings) -> Bool {
        if locked || outside { return false }
        guard settings.autoHide else { return true }
        if typing { return false }
        return idleInhibited || time.since(lastActivity) < autoHideDelay(settings.tuning)
    }

    /// When the pointer will hide if nothing happens (so the compositor can wake up then).
    func hideDeadline(settings: PointerSettings) -> Instant? {
        guard settings.autoHide, !idleInhibited, !locked, !outside, !typing else { return nil }
        return lastActivity.advanced(by: autoHideDelay(settings.tuning))
    }
}
