import WaylandServer

/// The seat's keys: Lodestone's shortcuts are asked first, then the focused client hears the
/// key (`KeyboardFocus`); a new keyboard focus reaches the selections, the shortcut
/// inhibitors and the pointer constraints from here, not from the keyboard.
extension Seat {
    func keyboardKey(_ key: UInt32, pressed: Bool, time: UInt32) {
        // The release of a shortcut's key is Lodestone's, as its press was.
        if !pressed, compositor.shortcuts.released(key) { return keyboard.shortcutKeyReleased(key) }
        guard let modifiers = keyboard.track(key, pressed: pressed) else { return }
        // Lodestone's shortcuts first; the client never sees their keys (unless it inhibits them).
        if pressed, compositor.shortcuts.intercept(key, keymap: keyboard.keymap, time: time) {
            return keyboard.shortcutTook(key, modifiers: modifiers)
        }
        keyboard.deliver(key, pressed: pressed, time: time, modifiers: modifiers)
    }

    /// Gives `surface` the keyboard; the clipboard, the primary selection, the shortcut
    /// inhibitors and the pointer constraints follow it.
    func setKeyboardFocus(_ surface: WlSurface?) {
        guard keyboard.setFocus(surface) else { return }
        compositor.selection.keyboardFocusChanged(to: surface?.client)
        compositor.primarySelection.keyboardFocusChanged(to: surface?.client)
        compositor.shortcutsInhibitors.focusChanged()
        reevaluateConstraints()
    }
}
