import CWaylandServer
import WaylandServer

/// The seat's keyboard: which surface has the keyboard, the keymap and its modifier
/// state, key repeat, and the clients' `wl_keyboard`s.
public final class KeyboardFocus {
    unowned let seat: Seat
    var keyboards: [WlKeyboard] = []
    private(set) var keymap: Keymap
    /// Key repeat sent to clients: keys per second and delay in ms (the common desktop
    /// default until a backend passes the parent's on).
    private(set) var repeatRate: Int32 = 25, repeatDelay: Int32 = 600
    private(set) weak var focus: WlSurface?
    /// The serial of the enter that gave `focus` the keyboard.
    private var enterSerial: UInt32?
    private(set) var pressedKeys: [UInt32] = []
    private(set) var modifiers = Keymap.Modifiers()

    init(seat: Seat, keymap: Keymap) {
        self.seat = seat
        self.keymap = keymap
    }

    private var compositor: Compositor { seat.compositor }
    private func serial() -> UInt32 { compositor.display.nextSerial() }
    private func keyboards(of surface: WlSurface) -> [WlKeyboard] { keyboards.filter { $0.client == surface.client } }

    func bound(_ keyboard: WlKeyboard) {
        keyboards.append(keyboard)
        keyboard.keymap(keymap)
        keyboard.repeatInfo()
        if let focus, focus.client == keyboard.client {
            keyboard.enter(serial: serial(), surface: focus, keys: pressedKeys)
            keyboard.modifiers(serial: serial(), modifiers)
        }
    }

    // MARK: Input

    func key(_ key: UInt32, pressed: Bool, time: UInt32) {
        // The release of a shortcut's key is Lodestone's, as its press was.
        if !pressed, compositor.shortcuts.released(key) {
            modifiers = keymap.update(key: key, pressed: false)
            return
        }
        if pressed {
            guard !pressedKeys.contains(key) else { return }
            pressedKeys.append(key)
        } else {
            guard pressedKeys.contains(key) else { return }
            pressedKeys.removeAll { $0 == key }
        }
        let newModifiers = keymap.update(key: key, pressed: pressed)
        // Lodestone's shortcuts first; the client never sees their keys (unless it inhibits them).
        if pressed, compositor.shortcuts.intercept(key, keymap: keymap, time: time) {
            pressedKeys.removeAll { $0 == key }
            modifiers = newModifiers
            return
        }
        guard let focus else { modifiers = newModifiers; return }
        let s = serial()
        for k in keyboards(of: focus) { k.key(serial: s, time: time, key: key, pressed: pressed) }
        if newModifiers != modifiers {
            modifiers = newModifiers
            for k in keyboards(of: focus) { k.modifiers(serial: s, modifiers) }
        }
    }

    /// Modifier state decided elsewhere (the parent compositor's `wl_keyboard.modifiers`:
    /// a Caps Lock turned on outside our window).
    func setModifiers(depressed: UInt32, latched: UInt32, locked: UInt32, group: UInt32) {
        let newModifiers = keymap.update(Keymap.Modifiers(depressed: depressed, latched: latched, locked: locked, group: group))
        guard newModifiers != modifiers else { return }
        modifiers = newModifiers
        guard let focus else { return }
        let s = serial()
        for k in keyboards(of: focus) { k.modifiers(serial: s, modifiers) }
    }

    public var modifierState: (depressed: UInt32, latched: UInt32, locked: UInt32) { (modifiers.depressed, modifiers.latched, modifiers.locked) }

    // MARK: Keymap and repeat

    /// Replaces the keymap with one in xkb text format (a nested parent's layout) and
    /// sends it to every keyboard. False when it does not compile.
    @discardableResult
    public func useKeymap(text: String) -> Bool {
        guard let new = Keymap(text: text) else { return false }
        use(new)
        return true
    }

    /// Replaces the keymap with an xkb layout by name ("de", "fr"). False when
    /// xkbcommon does not know it.
    @discardableResult
    public func useKeymap(layout: String) -> Bool {
        guard let new = Keymap(layout: layout) else { return false }
        use(new)
        return true
    }

    private func use(_ new: Keymap) {
        keymap = new
        // Keys held now were pressed under the old keymap; the parent sends the
        // modifiers that stay in effect.
        modifiers = Keymap.Modifiers()
        for k in keyboards { k.keymap(new) }
        if let focus {
            let s = serial()
            for k in keyboards(of: focus) { k.modifiers(serial: s, modifiers) }
        }
    }

    /// Key repeat clients should use (the parent's, when nested).
    public func setKeyRepeat(rate: Int32, delay: Int32) {
        repeatRate = max(0, rate); repeatDelay = max(0, delay)
        for k in keyboards { k.repeatInfo() }
    }

    // MARK: Focus

    func setFocus(_ surface: WlSurface?) {
        guard surface !== focus else { return }
        let s = serial()
        if let old = focus { for k in keyboards(of: old) { k.leave(serial: s, surface: old) } }
        focus = surface
        enterSerial = surface == nil ? nil : s
        if let surface {
            for k in keyboards(of: surface) {
                k.enter(serial: s, surface: surface, keys: pressedKeys)
                k.modifiers(serial: s, modifiers)
            }
        }
        compositor.selection.keyboardFocusChanged(to: surface?.client)
        compositor.primarySelection.keyboardFocusChanged(to: surface?.client)
        compositor.shortcutsInhibitors.focusChanged()
        seat.reevaluateConstraints()
    }

    /// Whether `serial` was issued while this client has had the keyboard (with or after
    /// the enter that gave it the focus, and no later than the newest serial).
    func isCurrentSerial(_ serial: UInt32, of client: WaylandServer.Client) -> Bool {
        guard let focus, focus.client == client, let enterSerial else { return false }
        return compositor.display.issued(serial, since: enterSerial)
    }

    func surfaceDestroyed(_ surface: WlSurface) {
        guard focus === surface else { return }
        focus = nil
        enterSerial = nil
        compositor.shortcutsInhibitors.focusChanged()
        compositor.selection.keyboardFocusChanged(to: nil)
        compositor.primarySelection.keyboardFocusChanged(to: nil)
    }
}
