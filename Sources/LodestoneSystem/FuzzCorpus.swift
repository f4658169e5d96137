import Glibc

/// What a fuzz target replays when it is built without libFuzzer (`make test`): every file
/// under the paths named on its command line, directories walked, dot-files left out, in
/// sorted order, so a kept corpus and every crash input found stay regression tests.
public enum FuzzCorpus {
    /// The files under `paths`, sorted.
    public static func files(under paths: [String]) -> [String] {
        var files: [String] = []
        var paths = paths
        while let path = paths.popLast() {
            if let entries = entries(of: path) { paths += entries.map { path + "/" + $0 } } else { files.append(path) }
        }
        return files.sorted()
    }

    /// A file's bytes, nil when it cannot be read.
    public static func contents(of path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = [], chunk = [UInt8](repeating: 0, count: 65536)
        while case let n = read(fd, &chunk, chunk.count), n > 0 { bytes += chunk[..<n] }
        return bytes
    }

    /// A directory's entries, nil when `path` is not a directory.
    private static func entries(of path: String) -> [String]? {
        guard let dir = opendir(path) else { return nil }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            if !name.hasPrefix(".") { names.append(name) }
        }
        return names
    }
}
