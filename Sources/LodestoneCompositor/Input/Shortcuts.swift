/// Lodestone's own keyboard shortcuts, the keyboard's way to the three- and four-finger
/// swipes (`WindowSwitcher`):
///
/// | keys | what |
/// |---|---|
/// | Super+Tab | the next window (the one under the top one) comes forward |
/// | Super+Shift+Tab | the bottom window comes forward |
/// | Super+D | show the desktop, or bring the windows back |
/// | Super+Return | start the terminal (config.toml's `session.terminal`, else foot) |
///
/// A shortcut's press and release never reach the client with the keyboard, unless that
/// client holds an active `zwp_keyboard_shortcuts_inhibitor_v1` on the focused surface
/// (a remote desktop or a VM viewer that wants every key): then they pass through.
final class Shortcuts {
    private unowned let compositor: Compositor
    /// Keys whose press was a shortcut: their release is Lodestone's too.
    private var swallowed: Set<UInt32> = []

    init(compositor: Compositor) { self.compositor = compositor }

    static let tab: UInt32 = 15, d: UInt32 = 32, enter: UInt32 = 28

    /// Takes a key press (evdev code) before clients see it; true when it was a shortcut.
    /// `keymap` already holds the modifiers in effect for this key.
    func intercept(_ key: UInt32, keymap: Keymap, time: UInt32) -> Bool {
        if let focus = compositor.seat.keyboard.focus, compositor.shortcutsInhibitors.isInhibited(focus) { return false }
        guard keymap.isSuperActive else { return false }
        let switcher = compositor.gestures.windowSwitcher
        switch key {
        case Self.tab: switcher.switchWindow(forward: !keymap.isShiftActive, time: time)
        case Self.d: switcher.toggleDesktop(time: time)
        // With a token: the terminal's window takes the keyboard when it opens.
        case Self.enter: compositor.launcher.launchTerminal(activationToken: compositor.activationTokens.issueForLaunch())
        default: return false
        }
        swallowed.insert(key)
        compositor.scheduleFrame()
        return true
    }

    /// Whether a released key's press was a shortcut (then the release is not sent either).
    func released(_ key: UInt32) -> Bool { swallowed.remove(key) != nil }
}
