import CWaylandServer
import WaylandServer

/// The seat's keyboard: which surface has the keyboard, the keymap and its modifier
/// state, key repeat, and the clients' `wl_keyboard`s. It holds no seat: the seat asks
/// Lodestone's shortcuts about a key and tells the rest of the session about a new focus
/// (`Seat.keyboardKey`, `Seat.setKeyboardFocus`).
public final class KeyboardFocus {
    /// Serials for enter, key and modifiers events, and their checks.
    private let display: Display
    var keyboards: [WlKeyboard] = []
    private(set) var keymap: Keymap
    /// Key repeat sent to clients (wl_keyboard.repeat_info): keys a second and the delay in
    /// ms, 25 after 600 unless config.toml's `[keyboard]` or the parent (nested) say otherwise.
    private(set) var repeatRate: Int32 = 25, repeatDelay: Int32 = 600
    private(set) weak var focus: WlSurface?
    /// The serial of the enter that gave `focus` the keyboard.
    private var enterSerial: UInt32?
    private(set) var pressedKeys: [UInt32] = []
    private(set) var modifiers = Keymap.Modifiers()
    /// The keymap a virtual keyboard (zwp_virtual_keyboard_v1) typed with last, which the
    /// clients' keyboards have until the seat's next key (nil: they have `keymap`).
    private var virtualKeymap: Keymap?

    init(display: Display, keymap: Keymap) {
        self.display = display
        self.keymap = keymap
    }

    private func serial() -> UInt32 { display.nextSerial() }
    private func keyboards(of surface: WlSurface) -> [WlKeyboard] { keyboards.filter { $0.client == surface.client } }

    func bound(_ keyboard: WlKeyboard) {
        keyboards.append(keyboard)
        keyboard.keymap(virtualKeymap ?? keymap)
        keyboard.repeatInfo()
        if let focus, focus.client == keyboard.client {
            keyboard.enter(serial: serial(), surface: focus, keys: pressedKeys)
            keyboard.modifiers(serial: serial(), modifiers)
        }
    }

    // MARK: Input

    /// A key of a shortcut Lodestone took came up: only the modifiers follow it.
    func shortcutKeyReleased(_ key: UInt32) { modifiers = keymap.update(key: key, pressed: false) }

    /// A key went down or up: the keys held and the keymap's state follow it. Returns the
    /// modifiers it leads to, or nil when it changes nothing (a second press of a held key,
    /// the release of one not held).
    func track(_ key: UInt32, pressed: Bool) -> Keymap.Modifiers? {
        if pressed {
            guard !pressedKeys.contains(key) else { return nil }
            pressedKeys.append(key)
        } else {
            guard pressedKeys.contains(key) else { return nil }
            pressedKeys.removeAll { $0 == key }
        }
        return keymap.update(key: key, pressed: pressed)
    }

    /// Lodestone's shortcut took the key just pressed: no client hears it, now or at its release.
    func shortcutTook(_ key: UInt32, modifiers newModifiers: Keymap.Modifiers) {
        pressedKeys.removeAll { $0 == key }
        modifiers = newModifiers
    }

    /// The tracked key goes to the focused client, with the modifiers if they changed.
    func deliver(_ key: UInt32, pressed: Bool, time: UInt32, modifiers newModifiers: Keymap.Modifiers) {
        restoreSeatKeymap()
        guard let focus else { modifiers = newModifiers; return }
        let s = serial()
        for k in keyboards(of: focus) { k.key(serial: s, time: time, key: key, pressed: pressed) }
        if newModifiers != modifiers {
            modifiers = newModifiers
            for k in keyboards(of: focus) { k.modifiers(serial: s, modifiers) }
        }
    }

    /// The input method's keyboard grab took the key (`TextInputs.keyGrabbed`): the
    /// modifiers follow it, no client hears it.
    func grabbed(modifiers newModifiers: Keymap.Modifiers) { modifiers = newModifiers }

    // MARK: Virtual keyboards

    /// A virtual keyboard's key, in its own keymap: the clients' keyboards get that keymap
    /// first (as wlroots switches keymaps between a seat's keyboards), the focused client
    /// the key. The seat's keymap comes back with its next key.
    func deliverVirtual(_ key: UInt32, pressed: Bool, time: UInt32, keymap virtual: Keymap) {
        guard let focus else { return }
        use(virtual: virtual)
        let s = serial()
        for k in keyboards(of: focus) { k.key(serial: s, time: time, key: key, pressed: pressed) }
    }

    /// A virtual keyboard's modifiers, in its own keymap.
    func deliverVirtual(_ m: Keymap.Modifiers, keymap virtual: Keymap) {
        guard let focus else { return }
        use(virtual: virtual)
        let s = serial()
        for k in keyboards(of: focus) { k.modifiers(serial: s, m) }
    }

    private func use(virtual: Keymap) {
        guard virtualKeymap !== virtual else { return }
        virtualKeymap = virtual
        for k in keyboards { k.keymap(virtual) }
    }

    private func restoreSeatKeymap() {
        guard virtualKeymap != nil else { return }
        virtualKeymap = nil
        for k in keyboards { k.keymap(keymap) }
        if let focus {
            let s = serial()
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
        virtualKeymap = nil
        // Keys held now were pressed under the old keymap; the parent sends the
        // modifiers that stay in effect.
        modifiers = Keymap.Modifiers()
        for k in keyboards { k.keymap(new) }
        if let focus {
            let s = serial()
            for k in keyboards(of: focus) { k.modifiers(serial: s, modifiers) }
        }
    }

    /// The parent's key repeat, when nested: clients use it unless config.toml says otherwise.
    public func setKeyRepeat(rate: Int32, delay: Int32) {
        parentRepeat = (max(0, rate), max(0, delay))
        repeatChanged()
    }

    /// config.toml's `[keyboard]` key repeat; nil leaves the parent's or the default.
    public func configureKeyRepeat(rate: Int32?, delay: Int32?) {
        configuredRepeat = (rate.map { max(0, $0) }, delay.map { max(0, $0) })
        repeatChanged()
    }

    private var parentRepeat: (rate: Int32, delay: Int32)?
    private var configuredRepeat: (rate: Int32?, delay: Int32?) = (nil, nil)

    private func repeatChanged() {
        let rate = configuredRepeat.rate ?? parentRepeat?.rate ?? 25, delay = configuredRepeat.delay ?? parentRepeat?.delay ?? 600
        guard rate != repeatRate || delay != repeatDelay else { return }
        repeatRate = rate
        repeatDelay = delay
        for k in keyboards { k.repeatInfo() }
    }

    // MARK: Focus

    /// Moves the keyboard to `surface` (leave, enter, modifiers); false when it had it already.
    /// The seat tells the selections, shortcut inhibitors and constraints.
    func setFocus(_ surface: WlSurface?) -> Bool {
        guard surface !== focus else { return false }
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
        return true
    }

    /// Whether `serial` was issued while this client has had the keyboard (with or after
    /// the enter that gave it the focus, and no later than the newest serial).
    func isCurrentSerial(_ serial: UInt32, of client: WaylandServer.Client) -> Bool {
        guard let focus, focus.client == client, let enterSerial else { return false }
        return display.issued(serial, since: enterSerial)
    }

    /// A surface went away; true when it had the keyboard (the seat tells the others).
    func surfaceDestroyed(_ surface: WlSurface) -> Bool {
        guard focus === surface else { return false }
        focus = nil
        enterSerial = nil
        return true
    }
}
