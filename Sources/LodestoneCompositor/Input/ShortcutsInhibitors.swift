import CWaylandProtocols
import CWaylandServer
import WaylandServer

/// The live shortcuts inhibitors; the one on the keyboard-focused surface is active.
final class ShortcutsInhibitors {
    private var inhibitors: [ZwpKeyboardShortcutsInhibitor] = []
    /// Whose focus makes an inhibitor active.
    private let keyboard: KeyboardFocus

    init(keyboard: KeyboardFocus) { self.keyboard = keyboard }

    func has(_ surface: WlSurface) -> Bool { inhibitors.contains { $0.surface === surface } }

    func add(_ inhibitor: ZwpKeyboardShortcutsInhibitor) {
        inhibitors.append(inhibitor)
        focusChanged()
    }

    func remove(_ inhibitor: ZwpKeyboardShortcutsInhibitor) { inhibitors.removeAll { $0 === inhibitor } }

    /// Whether shortcuts pass to `surface` (it has the keyboard and an active inhibitor).
    func isInhibited(_ surface: WlSurface) -> Bool { inhibitors.contains { $0.surface === surface && $0.isActive } }

    /// The keyboard moved: inhibitors of the focused surface become active, the others not.
    func focusChanged() {
        let focused = keyboard.focus
        for inhibitor in inhibitors { inhibitor.setActive(inhibitor.surface != nil && inhibitor.surface === focused) }
    }
}
