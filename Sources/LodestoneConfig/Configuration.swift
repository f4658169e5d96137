import LodestoneModes
import PointerAdaptation
import AdaptivePointerEngine

/// Everything `config.toml` can say, as plain values. A fresh value holds Lodestone's
/// defaults; `ConfigurationFile.parse` changes only what the file names, and
/// `Overrides.apply` then lays the command line's flags on top.
public struct Configuration: Hashable, Sendable {
    /// The adaptive pointer's look, motion and tuning.
    public var pointer = PointerSettings()
    /// `pointer = "adaptive" | "client"`, as `--pointer`.
    public var pointerMode = PointerMode.adaptive
    /// `legacy-apps = "adaptive" | "shapes" | "off"`, as `--legacy-apps`.
    public var legacyApps = LegacyApps.adaptive
    /// `max-render-time = "auto" | "off" | MILLISECONDS`, as `--max-render-time` (read at start).
    /// `auto` by default (issue 37: the whole suite passes with it; nested it lands frames a
    /// lead before the parent's refresh, on a TTY before the flip).
    public var maxRenderTime = MaxRenderTime.auto
    /// `[session]`: the programs a session starts, and its terminal.
    public var session = SessionSettings()
    /// `[scribble]`: handwriting with the pen in text fields.
    public var scribble = ScribbleSettings()
    /// `[keyboard]`: key repeat.
    public var keyboard = KeyboardSettings()

    public init() {}
}

/// `[keyboard]`: what wl_keyboard.repeat_info tells clients. nil: the parent's when nested,
/// else 25 a second after 600 ms (sway's and weston's defaults).
public struct KeyboardSettings: Hashable, Sendable {
    /// `repeat-rate = 25`: characters a second while a key is held; 0 turns repeat off.
    public var repeatRate: Int32?
    /// `repeat-delay = 600`: milliseconds a key is held before it repeats.
    public var repeatDelay: Int32?

    public init() {}
}

/// `[session]`: what Lodestone starts for the user, on any backend.
public struct SessionSettings: Hashable, Sendable {
    /// `startup = ["waybar", "mako"]`: shell commands (`/bin/sh -c`) run once, in order,
    /// when clients can connect (WAYLAND_DISPLAY set; DISPLAY too with --xwayland).
    public var startup: [String] = []
    /// `terminal = "foot"`: the shell command Super+Return runs; nil: the first of foot,
    /// x-terminal-emulator and weston-terminal found on PATH.
    public var terminal: String?

    public init() {}
}

/// What the command line says about the settings the file also covers; nil leaves the
/// file's value (or the default). Applied after every load, so flags keep winning when
/// the file is edited while Lodestone runs.
public struct Overrides: Hashable, Sendable {
    public var pointerMode: PointerMode?
    public var legacyApps: LegacyApps?
    public var style: PointerSettings.Style?
    public var size: Double?
    public var color: PointerColor?
    public var border: Bool?
    public var increaseContrast: Bool?
    public var reduceMotion: Bool?
    public var magnetism: Bool?
    public var autoHide: Bool?
    public var shakeToFind: Bool?
    /// Both auto-hide delays, mouse and trackpad.
    public var autoHideDelay: Double?
    public var maxRenderTime: MaxRenderTime?

    public init() {}

    public func apply(to configuration: Configuration) -> Configuration {
        var c = configuration
        if let pointerMode { c.pointerMode = pointerMode }
        if let legacyApps { c.legacyApps = legacyApps }
        if let maxRenderTime { c.maxRenderTime = maxRenderTime }
        if let style { c.pointer.style = style }
        if let size { c.pointer.sizeMultiplier = size }
        if let color { c.pointer.color = color }
        if let border { c.pointer.showsBorder = border }
        if let increaseContrast { c.pointer.increaseContrast = increaseContrast }
        if let reduceMotion { c.pointer.reduceMotion = reduceMotion }
        if let magnetism { c.pointer.magnetismEnabled = magnetism }
        if let autoHide { c.pointer.autoHide = autoHide }
        if let shakeToFind { c.pointer.shakeToFind = shakeToFind }
        if let autoHideDelay {
            c.pointer.tuning.mouseAutoHideDelay = autoHideDelay
            c.pointer.tuning.trackpadAutoHideDelay = autoHideDelay
        }
        return c
    }
}

/// A file that cannot be used, and why: the key and line at fault where there is one.
public struct ConfigurationError: Error, CustomStringConvertible, Equatable {
    public var file: String
    public var line: Int?
    /// The column, for a syntax error (TOMLKit's position).
    public var column: Int?
    /// The dotted key at fault (`appearance.size`), when one is.
    public var key: String?
    public var reason: String

    public init(file: String, line: Int? = nil, column: Int? = nil, key: String? = nil, reason: String) {
        self.file = file
        self.line = line
        self.column = column
        self.key = key
        self.reason = reason
    }

    /// `config.toml:4: appearance.size: 7 is out of range (1 to 4)` or
    /// `config.toml:3:1: syntax error: ...`, the way compilers say it.
    public var description: String {
        var s = file
        if let line { s += ":\(line)" }
        if line != nil, let column { s += ":\(column)" }
        s += ": "
        if let key { s += "\(key): " }
        return s + reason
    }
}

extension PointerColor {
    /// `"#RRGGBB"`, `"#RRGGBBAA"` (straight alpha) or a name: `standard`, `white`, `black`.
    public init?(configString text: String) {
        switch text.lowercased() {
        case "standard": self = .standard; return
        case "white": self = .white; return
        case "black": self = .black; return
        default: break
        }
        guard text.hasPrefix("#") else { return nil }
        let hex = text.dropFirst()
        guard hex.count == 6 || hex.count == 8, let value = UInt32(hex, radix: 16) else { return nil }
        let rgba = hex.count == 6 ? value << 8 | 0xff : value
        func channel(_ shift: UInt32) -> Double { Double(rgba >> shift & 0xff) / 255 }
        self.init(red: channel(24), green: channel(16), blue: channel(8), alpha: channel(0))
    }
}
