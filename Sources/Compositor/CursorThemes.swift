import CXcursor
import Glibc
import Logging
import Rendering

/// The Xcursor themes legacy clients draw their cursors from, read with libXcursor (the
/// freedesktop loader every toolkit's copy of wayland-cursor mirrors, so the files are found
/// and parsed the same way the clients do), fingerprinted so a `wl_pointer.set_cursor` image
/// can be recognised as the theme cursor it is.
///
/// Toolkits in Debian 12 (GTK 4.8, Qt 6.4, foot 1.13) name their cursors ("text", "pointer",
/// "ew-resize"), load that name from the theme and attach the image unchanged. Hashing the
/// pixels of every theme image once, and of each committed cursor buffer once, turns the
/// image back into its name: a table lookup, never a per-motion cost.
final class CursorThemes {
    /// A cursor image's identity: its size in buffer pixels and a hash of its pixels. The
    /// hotspot is left out: it arrives with `set_cursor`, which may come before or after the
    /// buffer, and at a buffer scale of 2 a toolkit halves it (rounding), so it would not
    /// match the theme's own numbers; the pixels alone are what tell cursors apart.
    struct Fingerprint: Hashable {
        var width: Int32, height: Int32, hash: Int
    }

    /// A theme's image for a name, for cursors that have no adaptive form.
    struct StandardCursor {
        let image: Image
        /// In image pixels.
        let hotspot: (x: Int32, y: Int32)
        /// Image pixels per logical pixel.
        let scale: Int32
    }

    /// Themes in the order they are fingerprinted: what clients are told to use
    /// (XCURSOR_THEME), the system default, and Debian's Adwaita and DMZ.
    let themes: [String]
    /// Nominal sizes: XCURSOR_SIZE (or 24), times each output scale up to `maximumScale`.
    let baseSize: Int32
    private let log: Logger
    private var table: [Fingerprint: CursorName] = [:]
    /// Image sizes present in `table`: a buffer of any other size is not hashed at all.
    private var sizes: Set<UInt64> = []
    private var loadedScales: Set<Int32> = []
    private struct StandardKey: Hashable { var name: CursorName, scale: Int32 }
    private var standard: [StandardKey: StandardCursor?] = [:]

    init(log: Logger, environment: [String: String] = CursorThemes.environment) {
        self.log = log
        var themes: [String] = []
        for t in [environment["XCURSOR_THEME"], "default", "Adwaita", "DMZ-White", "DMZ-Black"] {
            if let t, !t.isEmpty, !themes.contains(t) { themes.append(t) }
        }
        self.themes = themes
        let size = environment["XCURSOR_SIZE"].flatMap { Int32($0) } ?? 24
        baseSize = (8...512).contains(size) ? size : 24
    }

    static var environment: [String: String] {
        var e: [String: String] = [:]
        for k in ["XCURSOR_THEME", "XCURSOR_SIZE"] { if let v = getenv(k) { e[k] = String(cString: v) } }
        return e
    }

    /// The cursor name `image` (a committed cursor buffer) shows, or nil if it is no theme
    /// cursor at the sizes in use. Loads the themes at `scale` the first time it is needed.
    func name(of image: Image, scale: Int32) -> CursorName? {
        guard image.format == .argb8888 else { return nil }
        load(scale: max(1, scale))
        guard sizes.contains(Self.sizeKey(image.width, image.height)) else { return nil }
        return table[Self.fingerprint(of: image)]
    }

    /// The theme's own image for `name` at `scale`, for cursors drawn as the theme draws
    /// them (no adaptive form, or `--pointer client`). Loaded once per name and scale.
    func standardCursor(_ name: CursorName, scale: Int32) -> StandardCursor? {
        let key = StandardKey(name: name, scale: scale)
        if let cached = standard[key] { return cached }
        var found: StandardCursor?
        search: for theme in themes {
            for file in name.themeNames {
                guard let images = XcursorLibraryLoadImages(file, theme, baseSize * scale) else { continue }
                defer { XcursorImagesDestroy(images) }
                guard images.pointee.nimage > 0, let first = images.pointee.images[0] else { continue }
                let x = first.pointee
                let w = Int32(x.width), h = Int32(x.height)
                guard w > 0, h > 0, w <= 1024, h <= 1024 else { continue }
                let image = Image(width: w, height: h, format: .argb8888)
                let row = Int(image.stride / 4)
                for y in 0..<Int(h) {
                    (image.data + y * row).update(from: x.pixels + y * Int(w), count: Int(w))
                }
                found = StandardCursor(image: image, hotspot: (Int32(x.xhot), Int32(x.yhot)), scale: scale)
                break search
            }
        }
        standard[key] = found
        return found
    }

    /// Fingerprints every image of every name in every theme at the nominal size for `scale`
    /// (and at the plain size): animated cursors contribute every frame. Names loaded earlier
    /// win where two names share an image (a theme's symlinks), so the CSS name comes first.
    private func load(scale: Int32) {
        guard !loadedScales.contains(scale) else { return }
        loadedScales.insert(scale)
        let started = Self.monotonicSeconds()
        let size = baseSize * scale
        var images = 0
        for theme in themes {
            for name in CursorName.allCases {
                for file in name.themeNames {
                    guard let set = XcursorLibraryLoadImages(file, theme, size) else { continue }
                    defer { XcursorImagesDestroy(set) }
                    for i in 0..<Int(set.pointee.nimage) {
                        guard let image = set.pointee.images[i] else { continue }
                        let x = image.pointee
                        let w = Int32(x.width), h = Int32(x.height)
                        guard w > 0, h > 0 else { continue }
                        let print = Fingerprint(width: w, height: h,
                                                hash: Self.hash(x.pixels, width: Int(w), height: Int(h), rowPixels: Int(w)))
                        images += 1
                        sizes.insert(Self.sizeKey(w, h))
                        if table[print] == nil { table[print] = name }
                    }
                }
            }
        }
        let ms = (Self.monotonicSeconds() - started) * 1000
        log.info("cursor themes \(themes.joined(separator: ", ")) at size \(size): \(table.count) distinct images of \(images) fingerprinted in \(Int(ms)) ms")
    }

    static func fingerprint(of image: Image) -> Fingerprint {
        Fingerprint(width: image.width, height: image.height,
                    hash: hash(image.data, width: Int(image.width), height: Int(image.height), rowPixels: Int(image.stride / 4)))
    }

    /// One hash over the rows of an ARGB image (Swift's Hasher: seeded per process, which
    /// is all a table built in this process needs).
    private static func hash(_ pixels: UnsafePointer<UInt32>, width: Int, height: Int, rowPixels: Int) -> Int {
        var h = Hasher()
        h.combine(width)
        h.combine(height)
        for y in 0..<height {
            h.combine(bytes: UnsafeRawBufferPointer(start: pixels + y * rowPixels, count: width * 4))
        }
        return h.finalize()
    }

    private static func sizeKey(_ w: Int32, _ h: Int32) -> UInt64 { UInt64(UInt32(bitPattern: w)) << 32 | UInt64(UInt32(bitPattern: h)) }

    private static func monotonicSeconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}
