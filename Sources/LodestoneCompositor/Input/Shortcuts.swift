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
///
/// It runs the switcher and the launcher it was handed; the window a switch brings forward
/// is returned (`Taken`), and the seat, which asked, has the desktop activate it.
final class Shortcuts {
    private let keyboard: KeyboardFocus
    private let inhibitors: ShortcutsInhibitors
    private let switcher: WindowSwitcher
    private let launcher: SessionLauncher
    private let tokens: ActivationTokens
    private let clock: FrameClock
    /// Keys whose press was a shortcut: their release is Lodestone's too.
    private var swallowed: Set<UInt32> = []

    init(keyboard: KeyboardFocus, inhibitors: ShortcutsInhibitors, switcher: WindowSwitcher, launcher: SessionLauncher,
         tokens: ActivationTokens, clock: FrameClock) {
        self.keyboard = keyboard
        self.inhibitors = inhibitors
        self.switcher = switcher
        self.launcher = launcher
        self.tokens = tokens
        self.clock = clock
    }

    /// A key press Lodestone took: what follows for the seat.
    struct Taken {
        /// The window a switch brought forward, to activate (raised, with the keyboard).
        var activate: DesktopWindow?
    }

    static let tab: UInt32 = 15, d: UInt32 = 32, enter: UInt32 = 28

    /// Takes a key press (evdev code) before clients see it; nil when it was no shortcut.
    /// `keymap` already holds the modifiers in effect for this key.
    func intercept(_ key: UInt32, keymap: Keymap, time: UInt32) -> Taken? {
        if let focus = keyboard.focus, inhibitors.isInhibited(focus) { return nil }
        guard keymap.isSuperActive else { return nil }
        var taken = Taken()
        switch key {
        case Self.tab: taken.activate = switcher.switchWindow(forward: !keymap.isShiftActive, time: time)
        case Self.d: switcher.toggleDesktop(time: time)
        // With a token: the terminal's window takes the keyboard when it opens.
        case Self.enter: launcher.launchTerminal(activationToken: tokens.issueForLaunch())
        default: return nil
        }
        swallowed.insert(key)
        clock.schedule()
        return taken
    }

    /// Whether a released key's press was a shortcut (then the release is not sent either).
    func released(_ key: UInt32) -> Bool { swallowed.remove(key) != nil }
}
