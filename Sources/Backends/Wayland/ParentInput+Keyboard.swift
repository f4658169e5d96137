import LodestoneSystem
import CWaylandClient
import LodestoneCompositor
import Glibc
import Logging
import WaylandClient

/// The parent's keyboard: its keymap, modifiers and keys become the nested seat's.
extension ParentInput {
    func keyboardEvent(_ event: KeyboardEvent) {
        switch event {
        case .keymap(let format, let fd, let size): keymapReceived(format: format, fd: fd, size: size)
        case .enter(let serial, _, _):  // keys already down were pressed elsewhere; modifiers follow
            hasKeyboardFocus = true
            keyboardSerial?(serial)
        case .leave:
            hasKeyboardFocus = false
            keyboardSerial?(nil)
            keyboardLeft()
        case .key(let serial, _, let key, let state):
            keyboardSerial?(serial)
            let pressed = state == WL_KEYBOARD_KEY_STATE_PRESSED.rawValue
            if pressed { pressedKeys.insert(key) } else if pressedKeys.remove(key) == nil { return }
            send(.key(code: key, pressed: pressed))
        case .modifiers(_, let depressed, let latched, let locked, let group):
            send(.modifiers(depressed: depressed, latched: latched, locked: locked, group: group))
        case .repeatInfo(let rate, let delay): target.keyboard.setKeyRepeat(rate: rate, delay: delay)
        }
    }

    func keymapReceived(format: UInt32, fd: Int32, size: UInt32) {
        defer { close(fd) }
        guard format == WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1.rawValue, size > 1 else {
            log.notice("the parent sent no xkb keymap; keeping the default layout")
            return
        }
        // Reading a mapping past the end of its file is SIGBUS (issue 24: a parent that
        // claimed more bytes than its keymap file had crashed Lodestone); a pipe has no size.
        var status = stat()
        guard fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, Int(size) <= status.st_size else {
            log.error("the parent's keymap claims \(size) bytes, but its file has \(status.st_size) (or is not a file); keeping the default layout")
            return
        }
        // Since wl_seat 7 the fd must be mapped private.
        guard let map = mmap(nil, Int(size), PROT_READ, MAP_PRIVATE, fd, 0), map != MAP_FAILED else {
            log.error("\(SystemError.lastError("cannot map the parent's keymap", call: "mmap"))")
            return
        }
        defer { munmap(map, Int(size)) }
        let bytes = UnsafeRawBufferPointer(start: map, count: Int(size))
        let text = String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        if target.keyboard.useKeymap(text: text) {
            log.debug("using the parent's keymap (\(size) bytes)")
        } else {
            log.error("the parent's keymap does not compile; keeping the default layout")
        }
    }

    /// The parent took the keyboard away: keys held now will never be
    /// released to us, so release them in the nested session.
    func keyboardLeft() {
        for key in pressedKeys.sorted() { send(.key(code: key, pressed: false)) }
        pressedKeys.removeAll()
    }
}
