import PointerAdaptation
import WaylandServer

/// The seat's keys: Lodestone's shortcuts are asked first, then the focused client hears the
/// key (`KeyboardFocus`); a new keyboard focus reaches the selections, the shortcut
/// inhibitors and the pointer constraints from here, not from the keyboard.
extension Seat {
    func keyboardKey(_ key: UInt32, pressed: Bool, time: UInt32) {
        // The release of a shortcut's key is Lodestone's, as its press was.
        if !pressed, shortcuts.released(key) { return keyboard.shortcutKeyReleased(key) }
        guard let modifiers = keyboard.track(key, pressed: pressed) else { return }
        // Lodestone's shortcuts first; the client never sees their keys (unless it inhibits them).
        // While the session is locked none of Lodestone's shortcuts run (VT switches are the
        // TTY backend's, before the seat).
        if pressed, scene.lock == nil, let taken = shortcuts.intercept(key, keymap: keyboard.keymap, time: time) {
            // The window a switch brought forward comes up while the key is still held, as it did
            // when the switcher activated it itself.
            if let window = taken.activate { apply(desktop.activate(window)) }
            return keyboard.shortcutTook(key, modifiers: modifiers)
        }
        // Then the input method's keyboard grab, while a text input is active.
        if textInputs.keyGrabbed(key, pressed: pressed, time: time, modifiers: modifiers) { return }
        keyboard.deliver(key, pressed: pressed, time: time, modifiers: modifiers)
    }

    /// Gives `surface` the keyboard; the clipboard, the primary selection, the shortcut
    /// inhibitors, the text inputs and the pointer constraints follow it.
    func setKeyboardFocus(_ requested: WlSurface?) {
        // While the session is locked a window activated gets the keyboard at unlock.
        guard mayReceiveInput(requested) else { return sessionLock.focusDeferred(requested) }
        // A layer surface holding the keyboard exclusively (a launcher) keeps it, but not
        // from the lock: the locker's surfaces always take it.
        let surface = scene.lock != nil ? requested : layerShell.keyboardTarget(requested)
        guard keyboard.setFocus(surface) else { return }
        selection.keyboardFocusChanged(to: surface?.client)
        primarySelection.keyboardFocusChanged(to: surface?.client)
        shortcutsInhibitors.focusChanged()
        textInputs.keyboardFocusChanged(to: surface)
        reevaluateConstraints()
    }
}

/// The cursor the client under the pointer chooses: the seat decides who may, then the
/// cursor (`ComposedClientCursor`) takes it and the pointer hears of it.
extension Seat {
    /// `wl_pointer.set_cursor`.
    func setCursor(from pointer: WlPointer, serial: UInt32, surface: WlSurface?, hotspotX: Int32, hotspotY: Int32) {
        guard mayChooseCursor(pointer, serial: serial) else { return }
        if cursor.set(from: pointer, surface: surface, hotspotX: hotspotX, hotspotY: hotspotY) { pointerWorldChanged(cursor: true) }
    }

    /// `wp_cursor_shape_device_v1.set_shape`.
    func setCursorShape(_ name: CursorName, from pointer: WlPointer, serial: UInt32) {
        guard mayChooseCursor(pointer, serial: serial) else { return }
        cursor.setShape(name)
        pointerWorldChanged(cursor: true)
    }

    /// Only the client under the pointer may choose its cursor, and only with a serial of
    /// (or after) its pointer's last enter.
    private func mayChooseCursor(_ pointer: WlPointer, serial: UInt32) -> Bool {
        guard let focus = pointerFocus, focus.client == pointer.client else { return false }
        return isCurrentPointerSerial(serial, of: pointer.client)
    }
}
