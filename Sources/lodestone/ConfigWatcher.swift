import Glibc
import LodestoneConfig
import LodestoneSystem
import WaylandServer

/// Watches config.toml through inotify on the display's event loop (no thread), and calls
/// `changed` with each new version of the file that parses; a bad version is reported and
/// changes nothing.
///
/// The directory is watched, not the file: editors save by writing a temporary file and
/// renaming it over the old one, or by deleting the file and writing a new one, and a watch
/// on the file's inode would lose every save after the first. Whatever is then at the path
/// (a FIFO, a directory, any bytes) is read by `ConfigurationFile.load`, which never blocks
/// and never crashes: a bad version is a warning in the log.
final class ConfigWatcher {
    let path: String
    private let directory: String
    private let name: String
    /// The inotify descriptor, read when the loop says it is readable.
    private let fd: Int32
    private var source: EventSource?
    private let changed: (Configuration) -> Void
    private let failed: (ConfigurationError) -> Void

    /// Throws when inotify cannot watch the directory (it must exist when Lodestone starts).
    init(path: String, loop: EventLoop, changed: @escaping (Configuration) -> Void,
         failed: @escaping (ConfigurationError) -> Void) throws(SystemError) {
        self.path = path
        let slash = path.lastIndex(of: "/")
        directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        self.changed = changed
        self.failed = failed
        fd = try syscall("inotify_init1") { inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)) }
        do {
            // Written and closed, renamed into place, or created: each may be a save.
            let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE)
            try syscall("inotify_add_watch", what: "cannot watch \(directory) for changes to \(name)") { [fd, directory] in inotify_add_watch(fd, directory, mask) }
            source = try loop.addFileDescriptor(fd) { [unowned self] _ in self.readEvents() }
        } catch {
            close(fd)
            throw error
        }
    }

    deinit {
        source?.remove()
        close(fd)
    }

    /// Stops watching: its source leaves the loop now, while the loop exists.
    func stop() {
        source?.remove()
        source = nil
    }

    /// Drains the queued events; reloads once if any of them was about our file.
    private func readEvents() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var ours = false
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= n {
                let (length, mask, eventName) = buffer.withUnsafeBytes { raw in
                    let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    let start = offset + MemoryLayout<inotify_event>.size
                    let bytes = raw[start..<min(start + Int(event.len), n)].prefix { $0 != 0 }
                    return (Int(event.len), event.mask, String(decoding: bytes, as: UTF8.self))
                }
                // A file created empty is written next: wait for its close_write.
                if eventName == name, mask & UInt32(IN_CREATE) == 0 { ours = true }
                offset += MemoryLayout<inotify_event>.size + length
            }
        }
        if ours { reload() }
    }

    private func reload() {
        do {
            // Removed: keep what runs now (the file may be on its way back).
            guard let configuration = try ConfigurationFile.load(path) else { return }
            changed(configuration)
        } catch {
            failed(error)
        }
    }
}
