import Glibc
import LodestoneSystem
import Logging

extension Lodestone {
    /// libwayland puts its socket in XDG_RUNTIME_DIR; make a private one when it is unset.
    /// The socket goes in XDG_RUNTIME_DIR. Whoever else can write there can replace it and
    /// sit between every app and the compositor, so the directory must be ours and private
    /// (0700, as libwayland and systemd expect); one that is not is refused. Without one, a
    /// fresh private directory is made with mkdtemp (a fixed name could be taken first).
    func ensureRuntimeDirectory(_ log: Logger) throws {
        if let value = getenv("XDG_RUNTIME_DIR"), value.pointee != 0 {
            let dir = String(cString: value)
            guard let problem = Self.runtimeDirectoryProblem(dir) else { return }
            throw SystemError("XDG_RUNTIME_DIR=\(dir) is not safe to listen in: \(problem). It must be a directory owned by uid \(getuid()) with mode 0700")
        }
        var template = Array("/tmp/lodestone-runtime-\(getuid())-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw SystemError.lastError("XDG_RUNTIME_DIR is not set and no private directory could be made in /tmp", call: "mkdtemp")
        }
        let dir = String(cString: made)
        setenv("XDG_RUNTIME_DIR", dir, 1)
        log.notice("XDG_RUNTIME_DIR was not set; using the new private directory \(dir)")
    }

    /// Why `path` must not hold our socket, or nil when it is our own private directory.
    static func runtimeDirectoryProblem(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return "it cannot be read (\(SystemError.lastError("stat", call: "stat").reason ?? "no reason given"))" }
        guard info.st_mode & S_IFMT == S_IFDIR else { return "it is not a directory" }
        guard info.st_uid == getuid() else { return "it belongs to uid \(info.st_uid)" }
        guard info.st_mode & 0o077 == 0 else { return "its mode is \(String(info.st_mode & 0o777, radix: 8)), open to others" }
        guard access(path, W_OK | X_OK) == 0 else { return "it is not writable" }
        return nil
    }
}
