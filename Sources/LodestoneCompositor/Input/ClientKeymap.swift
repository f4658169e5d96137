import CWaylandServer
import Glibc
import LodestoneSystem

/// A keymap a client hands Lodestone as a file (`zwp_virtual_keyboard_v1.keymap`): checked
/// as the parent's `wl_keyboard.keymap` is in the nested backend, since mapping past the end
/// of a file is SIGBUS (issue 24), then compiled. Lodestone's own `Keymap` is a sealed copy,
/// so what other clients are sent cannot change under them.
extension Keymap {
    /// Keymaps are tens of kilobytes (Debian's `us` is 60 KiB); more is not a keymap, and
    /// compiling it would hold the event loop.
    static let largestClientKeymap: UInt32 = 1 << 20

    /// Reads and compiles an xkb_v1 keymap of `size` bytes from `fd` (not closed here);
    /// the error says what was wrong, for the protocol error.
    static func fromClient(fd: Int32, size: UInt32) throws(SystemError) -> Keymap {
        guard size > 0, size <= largestClientKeymap else {
            throw SystemError("the keymap size \(size) is not between 1 and \(largestClientKeymap) bytes")
        }
        var status = stat()
        try check("fstat", what: "the keymap fd \(fd) cannot be read") { fstat(fd, &status) == 0 }
        guard (status.st_mode & S_IFMT) == S_IFREG else { throw SystemError("the keymap fd is not a regular file (a pipe or socket cannot be mapped)") }
        guard Int(size) <= status.st_size else { throw SystemError("the keymap claims \(size) bytes, but its file has \(status.st_size)") }
        // Private: the client may not see what we map, nor change it under us (wl_seat 7's rule).
        let map = try call("mmap", what: "the keymap fd cannot be mapped") { () -> UnsafeMutableRawPointer? in
            let map = mmap(nil, Int(size), PROT_READ, MAP_PRIVATE, fd, 0)
            return map == MAP_FAILED ? nil : map
        }
        defer { munmap(map, Int(size)) }
        let text = String(decoding: UnsafeRawBufferPointer(start: map, count: Int(size)).prefix { $0 != 0 }, as: UTF8.self)
        guard let keymap = Keymap(text: text) else { throw SystemError("the keymap does not compile (xkbcommon refused it)") }
        return keymap
    }
}
