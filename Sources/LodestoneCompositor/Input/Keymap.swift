import CWaylandServer
import CXKBCommon
import Glibc

/// The keyboard's xkbcommon keymap and state, and the keymap file shared with clients.
final class Keymap {
    private let context: OpaquePointer
    private let keymap: OpaquePointer
    private let state: OpaquePointer
    /// A sealed memfd holding the keymap text; libwayland dups it for each client.
    let fd: Int32
    let size: UInt32

    struct Modifiers: Equatable {
        var depressed: UInt32 = 0, latched: UInt32 = 0, locked: UInt32 = 0, group: UInt32 = 0
    }

    convenience init?(layout: String = "us") {
        guard let context = xkb_context_new(XKB_CONTEXT_NO_FLAGS) else { return nil }
        var names = xkb_rule_names()
        let keymap = layout.withCString { l -> OpaquePointer? in
            names.layout = l
            return xkb_keymap_new_from_names(context, &names, XKB_KEYMAP_COMPILE_NO_FLAGS)
        }
        self.init(context: context, keymap: keymap)
    }

    /// A keymap in xkb text format, as a parent compositor sends it in
    /// `wl_keyboard.keymap` (the nested backend passes the parent's layout on).
    convenience init?(text: String) {
        guard let context = xkb_context_new(XKB_CONTEXT_NO_FLAGS) else { return nil }
        let keymap = xkb_keymap_new_from_string(context, text, XKB_KEYMAP_FORMAT_TEXT_V1, XKB_KEYMAP_COMPILE_NO_FLAGS)
        self.init(context: context, keymap: keymap)
    }

    /// Takes ownership of `context` and `keymap` (nil: compilation failed).
    private init?(context: OpaquePointer, keymap: OpaquePointer?) {
        guard let keymap, let state = xkb_state_new(keymap), let text = xkb_keymap_get_as_string(keymap, XKB_KEYMAP_FORMAT_TEXT_V1) else {
            if let keymap { xkb_keymap_unref(keymap) }
            xkb_context_unref(context)
            return nil
        }
        defer { free(text) }
        let length = strlen(text) + 1
        // Sealed so no client can change what every other client reads.
        let fd = cws_sealed_memfd("lodestone-keymap", text, length)
        guard fd >= 0 else {
            xkb_state_unref(state); xkb_keymap_unref(keymap); xkb_context_unref(context)
            return nil
        }
        self.context = context
        self.keymap = keymap
        self.state = state
        self.fd = fd
        size = UInt32(length)
    }

    deinit {
        close(fd)
        xkb_state_unref(state)
        xkb_keymap_unref(keymap)
        xkb_context_unref(context)
    }

    /// Updates the state for an evdev key; returns the new modifiers.
    /// Keys beyond what an xkb keycode can hold (evdev code + 8) change nothing.
    func update(key: UInt32, pressed: Bool) -> Modifiers {
        let (keycode, overflow) = key.addingReportingOverflow(8)
        if !overflow { xkb_state_update_key(state, keycode, pressed ? XKB_KEY_DOWN : XKB_KEY_UP) }
        return modifiers
    }

    /// Sets the modifier state directly (a parent compositor's
    /// `wl_keyboard.modifiers`: locks and latches made outside our window).
    func update(_ m: Modifiers) -> Modifiers {
        xkb_state_update_mask(state, m.depressed, m.latched, m.locked, 0, 0, m.group)
        return modifiers
    }

    /// Whether an evdev key is a modifier or a lock (Shift, Ctrl, Alt, Super, Meta, Hyper,
    /// AltGr and the other ISO level and group shifts, Caps, Num, Scroll and Shift Lock):
    /// pressing one alone types nothing, so it must not hide the pointer as typing.
    /// By keysym, as `xkb_keysym_is_modifier` does in libxkbcommon 1.6 and later (Debian 12
    /// has 1.5), plus the ISO level 5 shifts and Scroll Lock.
    func isModifier(key: UInt32) -> Bool {
        // A client-chosen key code (the test protocol's key) may be near UInt32.max.
        let (keycode, overflow) = key.addingReportingOverflow(8)
        guard !overflow else { return false }
        var syms: UnsafePointer<xkb_keysym_t>?
        let count = xkb_state_key_get_syms(state, keycode, &syms)
        guard count > 0, let syms else { return false }
        for i in 0..<Int(count) where Self.isModifier(keysym: syms[i]) { return true }
        return false
    }

    static func isModifier(keysym s: xkb_keysym_t) -> Bool {
        (UInt32(XKB_KEY_Shift_L)...UInt32(XKB_KEY_Hyper_R)).contains(s)             // Shift … Hyper, Caps and Shift Lock
            || (UInt32(XKB_KEY_ISO_Lock)...UInt32(XKB_KEY_ISO_Level5_Lock)).contains(s)  // ISO level 2/3/5 and group shifts, latches, locks
            || s == UInt32(XKB_KEY_Mode_switch) || s == UInt32(XKB_KEY_Num_Lock) || s == UInt32(XKB_KEY_Scroll_Lock)
    }

    /// Whether the Super (logo) modifier is held: Lodestone's shortcuts use it.
    var isSuperActive: Bool { xkb_state_mod_name_is_active(state, "Mod4", XKB_STATE_MODS_EFFECTIVE) > 0 }
    var isShiftActive: Bool { xkb_state_mod_name_is_active(state, "Shift", XKB_STATE_MODS_EFFECTIVE) > 0 }

    var modifiers: Modifiers {
        Modifiers(depressed: xkb_state_serialize_mods(state, XKB_STATE_MODS_DEPRESSED),
                  latched: xkb_state_serialize_mods(state, XKB_STATE_MODS_LATCHED),
                  locked: xkb_state_serialize_mods(state, XKB_STATE_MODS_LOCKED),
                  group: xkb_state_serialize_layout(state, XKB_STATE_LAYOUT_EFFECTIVE))
    }
}
