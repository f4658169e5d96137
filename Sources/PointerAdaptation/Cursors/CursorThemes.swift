// Over 300 lines: loading themes, fingerprinting their images and finding a name's standard image share one cache and must agree on sizes and scales.
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
package final class CursorThemes {
    /// A cursor image's identity: its size in buffer pixels and a hash of its pixels. The
    /// hotspot is left out: it arrives with `set_cursor`, which may come before or after the
    /// buffer, and at a buffer scale of 2 a toolkit halves it (rounding), so it would not
    /// match the theme's own numbers; the pixels alone are what tell cursors apart.
    package struct Fingerprint: Hashable {
        package var width: Int32, height: Int32, hash: Int
    }

    /// A theme's image for a name, for cursors that have no adaptive form.
    package struct StandardCursor {
        package let image: Image
        /// In image pixels.
        package let hotspot: (x: Int32, y: Int32)
        /// Image pixels per logical pixel.
        package let scale: Int32
    }

    /// Themes in the order they are fingerprinted: what clients are told to use
    /// (XCURSOR_THEME), the system default, and Debian's Adwaita and DMZ.
    package let themes: [String]
    /// Nominal sizes: XCURSOR_SIZE (or 24), times each output scale up to `maximumScale`.
    package let baseSize: Int32
    /// Nominal sizes fingerprinted beside `baseSize` (times the scale too): sizes apps pick
    /// without being told one (`toolkitDefaultSize`).
    private let alsoSizes: [Int32]
    private let log: Logger
    private var table: [Fingerprint: CursorName] = [:]
    /// Image sizes present in `table`: a buffer of any other size is not hashed at all.
    private var sizes: Set<UInt64> = []
    private var loadedScales: Set<Int32> = []
    private struct StandardKey: Hashable { var name: CursorName, scale: Int32 }
    private var standard: [StandardKey: StandardCursor?] = [:]

    /// The largest scale themes are read at: well past any output's (`OutputScale.maximum`
    /// is 4), for a client's buffer scale may be larger; 512 × 16 is far from Int32's end.
    package static let maximumScale: Int32 = 16

    /// GTK 4's cursor size when its settings say none: with a settings portal that answers
    /// without cursor keys it reads the "default" theme at 32 (Breeze's 48×48 images, its
    /// nominal 36), not XCURSOR_SIZE. Seen in WestonModuleTests' gtk4-widget-factory test,
    /// where the module's adapter then took GTK's arrow for the app's own image.
    package static let toolkitDefaultSize: Int32 = 32

    /// The themes after XCURSOR_THEME's.
    package static let systemThemes = ["default", "Adwaita", "DMZ-White", "DMZ-Black"]

    /// `fallbackThemes`: the themes tried after XCURSOR_THEME's (`lodestone-xcursor-fuzz`
    /// gives none, so only its own theme is read).
    package init(log: Logger, environment: [String: String] = CursorThemes.environment, fallbackThemes: [String] = CursorThemes.systemThemes,
                 alsoSizes: [Int32] = []) {
        self.log = log
        var themes: [String] = []
        for t in [environment["XCURSOR_THEME"]] + fallbackThemes {
            if let t, !t.isEmpty, !themes.contains(t) { themes.append(t) }
        }
        self.themes = themes
        let size = environment["XCURSOR_SIZE"].flatMap { Int32($0) } ?? 24
        let base: Int32 = (8...512).contains(size) ? size : 24
        baseSize = base
        self.alsoSizes = alsoSizes.filter { (8...512).contains($0) && $0 != base }
    }

    package static var environment: [String: String] {
        var e: [String: String] = [:]
        for k in ["XCURSOR_THEME", "XCURSOR_SIZE"] { if let v = getenv(k) { e[k] = String(cString: v) } }
        return e
    }

    /// The cursor name `image` (a committed cursor buffer) shows, or nil if it is no theme
    /// cursor at the sizes in use. Loads the themes at `scale` the first time it is needed.
    package func name(of image: Image, scale: Int32) -> CursorName? {
        // A client's buffer scale is any positive Int32: the nominal size (baseSize × scale)
        // trapped past 2³¹-1. No theme is read beyond the largest output scale.
        guard image.format == .argb8888, (1...Self.maximumScale).contains(scale) else { return nil }
        load(scale: scale)
        guard sizes.contains(Self.sizeKey(image.width, image.height)) else { return nil }
        return table[Self.fingerprint(of: image)]
    }

    /// The theme's own image for `name` at `scale`, for cursors drawn as the theme draws
    /// them (no adaptive form, or `--pointer client`). Loaded once per name and scale.
    package func standardCursor(_ name: CursorName, scale: Int32) -> StandardCursor? {
        guard (1...Self.maximumScale).contains(scale) else { return nil }
        let key = StandardKey(name: name, scale: scale)
        if let cached = standard[key] { return cached }
        var found: StandardCursor?
        search: for theme in themes {
            for file in name.themeNames {
                if let cursor = Self.standardCursor(file: file, theme: theme, size: baseSize * scale, scale: scale) {
                    found = cursor
                    break search
                }
            }
        }
        standard[key] = found
        return found
    }

    /// The first image of one cursor file of one theme, as libXcursor finds it for `size`.
    package static func standardCursor(file: String, theme: String, size: Int32, scale: Int32) -> StandardCursor? {
        guard XcursorFiles.canLoad(file, theme: theme) else { return nil }
        guard let images = XcursorLibraryLoadImages(file, theme, size) else { return nil }
        defer { XcursorImagesDestroy(images) }
        guard images.pointee.nimage > 0, let first = images.pointee.images[0] else { return nil }
        let x = first.pointee
        let w = Int32(x.width), h = Int32(x.height)
        guard w > 0, h > 0, w <= 1024, h <= 1024 else { return nil }
        let image = Image(width: w, height: h, format: .argb8888)
        let row = Int(image.stride / 4)
        image.withPixels { data in
            for y in 0..<Int(h) { (data + y * row).update(from: x.pixels + y * Int(w), count: Int(w)) }
        }
        return StandardCursor(image: image, hotspot: (Int32(x.xhot), Int32(x.yhot)), scale: scale)
    }

    /// Loads the themes at `scale` (once) and says how many images are fingerprinted.
    package func loadedImageCount(scale: Int32) -> Int {
        guard (1...Self.maximumScale).contains(scale) else { return 0 }
        load(scale: scale)
        return table.count
    }

    /// Fingerprints every image of every name in every theme at the nominal size for `scale`
    /// (and at the plain size): animated cursors contribute every frame. Names loaded earlier
    /// win where two names share an image (a theme's symlinks), so the CSS name comes first.
    private func load(scale: Int32) {
        guard !loadedScales.contains(scale) else { return }
        loadedScales.insert(scale)
        let started = Self.monotonicSeconds()
        let sizes = ([baseSize] + alsoSizes).map { $0 * scale }
        var images = 0
        for size in sizes {
            for theme in themes {
                for name in CursorName.allCases {
                    for file in name.themeNames { images += fingerprint(file: file, theme: theme, size: size, as: name) }
                }
            }
        }
        let ms = (Self.monotonicSeconds() - started) * 1000
        let at = sizes.map(String.init).joined(separator: " and ")
        log.info("cursor themes \(themes.joined(separator: ", ")) at size \(at): \(table.count) distinct images of \(images) fingerprinted in \(Int(ms)) ms")
    }

    /// Fingerprints every image of one cursor file of one theme as `name`; how many.
    private func fingerprint(file: String, theme: String, size: Int32, as name: CursorName) -> Int {
        guard XcursorFiles.canLoad(file, theme: theme) else {
            log.warning("the cursor theme \(theme)'s '\(file)' is not a regular file (a FIFO?): not read")
            return 0
        }
        guard let set = XcursorLibraryLoadImages(file, theme, size) else { return 0 }
        defer { XcursorImagesDestroy(set) }
        var images = 0
        for i in 0..<Int(set.pointee.nimage) {
            guard let image = set.pointee.images[i] else { continue }
            let x = image.pointee
            let w = Int32(x.width), h = Int32(x.height)
            guard w > 0, h > 0 else { continue }
            let print = Fingerprint(width: w, height: h, hash: Self.hash(x.pixels, width: Int(w), height: Int(h), rowPixels: Int(w)))
            images += 1
            sizes.insert(Self.sizeKey(w, h))
            if table[print] == nil { table[print] = name }
        }
        return images
    }

    package static func fingerprint(of image: Image) -> Fingerprint {
        Fingerprint(width: image.width, height: image.height,
                    hash: image.withPixels { hash($0, width: Int(image.width), height: Int(image.height), rowPixels: Int(image.stride / 4)) })
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


/// Lodestone's own reading of an Xcursor theme, for `lodestone-xcursor-fuzz` (issue 24): the
/// theme named `theme` alone (found through XCURSOR_PATH, as libXcursor finds it), with
/// `environment` as XCURSOR_SIZE, read the two ways a session reads it: every image
/// fingerprinted at each scale, and every cursor's standard image, which must then be
/// recognised as a theme cursor.
public enum CursorThemeReading {
    /// What was read: images fingerprinted, standard cursors found, and any standard
    /// cursor the fingerprints did not recognise (a finding: it must be empty).
    public struct Result {
        public var fingerprinted = 0, standard = 0
        public var unrecognised: [String] = []
        public init() {}
    }

    public static func read(theme: String, size: String?, scales: [Int32], log: Logger) -> Result {
        var environment = ["XCURSOR_THEME": theme]
        environment["XCURSOR_SIZE"] = size
        let themes = CursorThemes(log: log, environment: environment, fallbackThemes: [])
        var result = Result()
        for scale in scales {
            result.fingerprinted += themes.loadedImageCount(scale: scale)
            for name in CursorName.allCases {
                guard let cursor = themes.standardCursor(name, scale: scale) else { continue }
                result.standard += 1
                if themes.name(of: cursor.image, scale: scale) == nil { result.unrecognised.append("\(name.rawValue)@\(scale)") }
            }
        }
        return result
    }
}

/// Whether libXcursor can read a theme's cursor without blocking. It opens each candidate
/// with `fopen`, and a FIFO there (or an `index.theme` that is one) blocks Lodestone for good
/// (issue 24). This walks the files `XcursorLibraryLoadImages(name, theme, _)` looks at, in
/// libXcursor 1.2's order: each `XcursorLibraryPath()` directory's THEME/cursors/NAME (the
/// first that exists is the one opened), each THEME/index.theme until one names what it
/// inherits, then those themes, then "default"; and says no when what would be opened is not
/// a regular file. A directory or a symlink loop fails libXcursor's read (or open) at once,
/// so reading nothing changes nothing there.
public enum XcursorFiles {
    public static func canLoad(_ name: String, theme: String) -> Bool {
        var seen: Set<String> = []
        for t in [theme, "default"] {
            switch find(name, theme: t, seen: &seen, depth: 0) {
            case .regular: return true
            case .blocking: return false
            case .none: continue
            }
        }
        return true
    }

    private enum Found { case none, regular, blocking }

    private static func find(_ name: String, theme: String, seen: inout Set<String>, depth: Int) -> Found {
        // libXcursor follows inheritance without a guard against cycles of more than one theme;
        // its own depth limit ends them. Here a theme seen is not walked again.
        guard depth < 32, seen.insert(theme).inserted else { return .none }
        var inherits: [String]?
        for dir in directories() {
            let themeDir = dir + "/" + theme
            switch kind(themeDir + "/cursors/" + name) {
            case .regular: return .regular
            case .blocking: return .blocking
            case .none: break
            }
            if inherits == nil {
                let index = themeDir + "/index.theme"
                switch kind(index) {
                case .blocking: return .blocking
                case .regular: inherits = inherited(index)
                case .none: break
                }
            }
        }
        for t in inherits ?? [] where t != theme {
            let found = find(name, theme: t, seen: &seen, depth: depth + 1)
            if found != .none { return found }
        }
        return .none
    }

    /// nil-like `.none` when there is nothing to open (missing, a symlink loop).
    private static func kind(_ path: String) -> Found {
        var s = stat()
        guard stat(path, &s) == 0 else { return .none }
        switch s.st_mode & S_IFMT {
        case S_IFREG: return .regular
        case S_IFDIR: return .none  // fopen succeeds, the read fails at once
        default: return .blocking  // a FIFO, a device, a socket
        }
    }

    /// XcursorLibraryPath's directories, "~" expanded as libXcursor does.
    private static func directories() -> [String] {
        guard let path = XcursorLibraryPath() else { return [] }
        let home = getenv("HOME").map { String(cString: $0) } ?? ""
        return String(cString: path).split(separator: ":", omittingEmptySubsequences: false).map { dir in
            dir.hasPrefix("~") ? home + dir.dropFirst() : String(dir)
        }
    }

    /// The themes an index.theme's first `Inherits` line names (separated by , ; or :).
    private static func inherited(_ index: String) -> [String]? {
        guard let file = fopen(index, "r") else { return nil }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 8192)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = line.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            guard text.hasPrefix("Inherits") else { continue }
            let value = text.dropFirst("Inherits".count).drop { $0 == " " || $0 == "\t" }
            guard value.first == "=" else { continue }
            return value.dropFirst().split { ",;:".contains($0) }
                .map { $0.trimmingCharacters(in: " \t\r\n") }.filter { !$0.isEmpty }
        }
        return nil
    }
}

private extension Substring {
    func trimmingCharacters(in set: String) -> String {
        String(drop { set.contains($0) }.reversed().drop { set.contains($0) }.reversed())
    }
}
