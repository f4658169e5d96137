import CWaylandServer
import Glibc

/// A feedback's format table (`zwp_linux_dmabuf_feedback_v1.format_table`): every pair of its
/// tranches once, 16 bytes each (the fourcc, 4 bytes of padding, the modifier, native byte
/// order), in a sealed memfd that libwayland dups for each client; each tranche names its
/// pairs by 16-bit index. Sealed against writes: clients map it read-only, and one that tried
/// to write through its fd could otherwise change the table every other client reads.
final class DmabufFormatTable {
    let fd: Int32
    let size: UInt32
    /// Per tranche, the indices of its pairs.
    let indices: [[UInt16]]

    /// Nil when the memfd cannot be made, or the pairs do not fit 16-bit indices.
    init?(_ feedback: DmabufFeedback) {
        var entries: [DmabufFormat] = []
        var position: [DmabufFormat: UInt16] = [:]
        var indices: [[UInt16]] = []
        for tranche in feedback.tranches {
            var mine: [UInt16] = []
            for format in tranche.formats {
                if let i = position[format] {
                    if !mine.contains(i) { mine.append(i) }
                    continue
                }
                guard entries.count <= Int(UInt16.max) else { return nil }
                let i = UInt16(entries.count)
                position[format] = i
                entries.append(format)
                mine.append(i)
            }
            indices.append(mine)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(entries.count * 16)
        for e in entries {
            withUnsafeBytes(of: e.fourcc) { bytes += $0 }
            bytes += [0, 0, 0, 0]
            withUnsafeBytes(of: e.modifier) { bytes += $0 }
        }
        guard !bytes.isEmpty else { return nil }
        let fd = bytes.withUnsafeBytes { cws_sealed_memfd("lodestone-dmabuf-formats", $0.baseAddress, $0.count) }
        guard fd >= 0 else { return nil }
        self.fd = fd
        size = UInt32(bytes.count)
        self.indices = indices
    }

    deinit { close(fd) }
}

/// The `dev_t` a feedback names as its main device.
public enum DmabufDevice {
    /// The device behind an open DRM node (the TTY backend's card); 0 when `fstat` fails.
    public static func of(fd: Int32) -> UInt64 {
        var s = stat()
        return fstat(fd, &s) == 0 ? UInt64(s.st_rdev) : 0
    }

    /// This machine's GPU for a backend that has none open (headless, and nested under a parent
    /// without linux-dmabuf): the first render node in /dev/dri, else the first primary node,
    /// as wlroots' headless backend opens a render node for its renderer. Without any (a
    /// container, a VM without a GPU) it is 0, a device that does not exist: Mesa's EGL
    /// (`loader_get_render_node`) finds no node behind it and falls back to software and
    /// wl_shm, as it does when no linux-dmabuf is offered, while a client that makes its own
    /// dmabufs (udmabuf, a DMA heap) still shows them. wlroots' headless backend with its pixman
    /// renderer offers no linux-dmabuf at all then (no DRM fd, `wlr_renderer_init_wl_display`
    /// skips it).
    public static func local() -> UInt64 {
        let nodes = directoryEntries("/dev/dri")
        for prefix in ["renderD", "card"] {
            for name in nodes.filter({ $0.hasPrefix(prefix) }).sorted() {
                var s = stat()
                if stat("/dev/dri/" + name, &s) == 0, s.st_mode & S_IFMT == S_IFCHR { return UInt64(s.st_rdev) }
            }
        }
        return 0
    }

    /// "226:128": major and minor, as glibc's `gnu_dev_major` and `gnu_dev_minor` take them apart.
    public static func name(_ device: UInt64) -> String {
        "\(device >> 8 & 0xfff | device >> 32 & ~0xfff):\(device & 0xff | device >> 12 & ~0xff)"
    }

    private static func directoryEntries(_ path: String) -> [String] {
        guard let dir = opendir(path) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
