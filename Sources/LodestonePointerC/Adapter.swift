// liblodestone-pointer: the legacy-app adaptation (the lodestone_pointer_adapter_* calls).
// The work is PointerAdaptation's, the same code Lodestone runs (cursor names and their forms,
// Xcursor fingerprints, `Accessibility`); this file only keeps the host's windows and puts
// what the adaptation says into the engine.

import CLodestonePointer
import Glibc
import AdaptivePointerEngine
import Logging
import PointerAdaptation
import Rendering
import WaylandServer

/// A window a C host reported: its pid and rectangle, as `AdaptedWindow`; its pixels when the
/// host gave a way to read them (`lodestone_pointer_adapter_set_window_pixels`), or none: then
/// controls keep their published extents and terminals the cursor name's beam.
final class AdapterWindow: AdaptedWindow {
    let id: UInt64
    var pid: Int32
    var adaptedFrame: WindowFrame
    var layer: Int32
    var surface: OpaquePointer?
    var adaptedProcessID: Int32? { pid > 0 ? pid : nil }
    var title: String { "" }
    var isMapped: Bool { true }
    /// How the host's pixels are read, and the last copy with the host's commit count.
    var hostPixels: HostWindowPixels?
    var pixels: (commit: UInt64, pixels: WindowPixels)?
    var adaptedPixels: WindowPixels? { hostPixels?.pixels(of: self) }
    /// The rectangle in global space, for what covers what.
    var rect: Rect<Global> {
        Rect(x: adaptedFrame.origin.x, y: adaptedFrame.origin.y, width: Double(adaptedFrame.width), height: Double(adaptedFrame.height))
    }

    init(id: UInt64, pid: Int32, frame: WindowFrame, layer: Int32, surface: OpaquePointer?) {
        self.id = id
        self.pid = pid
        self.adaptedFrame = frame
        self.layer = layer
        self.surface = surface
    }
}

/// What a `struct lodestone_pointer_adapter *` points at.
final class AdapterHandle {
    /// The top two bits of the engine ids the adapter uses (the server helper's have the top bit only).
    static let idBits: UInt64 = 0b11 << 62

    let engine: EngineHandle
    let server: ServerHandle?
    let loop: EventLoop
    let accessibility: Accessibility
    /// Read on the first image: hosts that only name cursors never load a theme.
    lazy var themes = CursorThemes(log: AdapterHandle.logger("lodestone-pointer.cursors"))
    /// What the host pushed of the app-cursor decision (`AppCursorPolicy`, the one Lodestone's
    /// seat runs): the legacy-apps setting and the cursor of the app under the pointer; the
    /// window under the pointer and its regions are laid over them when read (`policy`).
    /// A C host has the adaptive pointer (`PointerMode.adaptive`): `--pointer client` is a
    /// host not calling the adapter.
    var pushed = AppCursorPolicy(mode: .adaptive, legacyApps: .adaptive)
    var windows: [UInt64: AdapterWindow] = [:]
    var pointerWindow: AdapterWindow?
    /// The host's window pixels, if it gives them (each window holds it too).
    var hostPixels: HostWindowPixels?
    /// The regions the adapter put into the engine.
    var installed: Set<RegionID> = []
    var nextRegion: UInt64 = 0
    /// The time the host last gave (`stepped`), for what the adapter hands the engine.
    var time = 0.0
    var changed = false
    private var applySoon: EventSource?

    /// `LODESTONE_POINTER_LEGACY_APPS_*`.
    static func legacyApps(_ value: UInt32) -> LegacyApps? {
        switch value {
        case LODESTONE_POINTER_LEGACY_APPS_ADAPTIVE.rawValue: return .adaptive
        case LODESTONE_POINTER_LEGACY_APPS_SHAPES.rawValue: return .shapes
        case LODESTONE_POINTER_LEGACY_APPS_OFF.rawValue: return .off
        default: return nil
        }
    }

    init(engine: EngineHandle, loop: EventLoop, server: ServerHandle?) {
        self.engine = engine
        self.loop = loop
        self.server = server
        let log = Self.logger("lodestone-pointer.accessibility")
        weak var weakSelf: AdapterHandle?
        accessibility = Accessibility(loop: loop, log: log, ownerBase: Self.idBits | 1 << 40,
                                      declaresRegions: { window in weakSelf?.declaresRegions(window) ?? false },
                                      changed: { weakSelf?.changedLater() })
        weakSelf = self
        accessibility.start()
    }

    /// The library writes into the host's stderr only what went wrong, unless
    /// LODESTONE_POINTER_DEBUG is set (then everything Lodestone would log, walks included).
    static func logger(_ label: String) -> Logger {
        var log = Logger(label: label)
        log.logLevel = getenv("LODESTONE_POINTER_DEBUG") != nil ? .debug : .warning
        return log
    }

    /// Whether the window's surface tree declares regions (asked of the server helper).
    func declaresRegions(_ window: AdaptedWindow) -> Bool {
        guard let server, let surface = (window as? AdapterWindow)?.surface else { return false }
        return server.treeHasRegions(surface)
    }

    /// A reply or a timer changed the elements: applied from the loop, not inside the reply.
    func changedLater() {
        if applySoon == nil {
            applySoon = try? loop.addIdle { [weak self] in
                guard let self else { return }
                self.applySoon = nil
                self.apply()
            }
        }
    }

    // MARK: What the engine gets

    var pointerDeclaresRegions: Bool { pointerWindow.map(declaresRegions) ?? false }

    /// The decision's inputs now: what the host pushed, and the window under the pointer
    /// with whether its tree declares regions (asked of the server helper, whose clients
    /// commit regions without the host).
    var policy: AppCursorPolicy {
        var p = pushed
        p.overApp = pointerWindow != nil
        p.appDeclaresRegions = pointerDeclaresRegions
        return p
    }

    /// The form where no region targets the pointer.
    var form: AdaptivePointerForm { policy.form }

    /// What shows. A theme is read at scale 1: a host gives no scale for its theme cursor
    /// (it draws it itself); the answer only asks whether the theme has the name.
    var source: lodestone_pointer_source {
        switch policy.source(themeHasImage: { themes.standardCursor($0, scale: 1) != nil }) {
        case .adaptive: return LODESTONE_POINTER_SOURCE_ADAPTIVE
        case .clientImage: return LODESTONE_POINTER_SOURCE_CLIENT_IMAGE
        case .standardCursor: return LODESTONE_POINTER_SOURCE_THEME_CURSOR
        }
    }

    /// Puts the form and the accessibility regions into the engine.
    func apply() {
        let now = Instant(seconds: time)
        var style = form
        if style.spins {
            let turns = time / AdaptivePointerForm.spinPeriod
            style = style.spinning(at: turns - turns.rounded(.down))
        }
        if engine.engine.untargetedStyle != style.style {
            engine.engine.handle(.untargetedStyle(style.style), at: now)
            changed = true
        }
        accessibility.enabled = pushed.legacyApps == .adaptive
        accessibility.pointer.window = pointerWindow
        accessibility.pointer.declaresRegions = pointerDeclaresRegions
        accessibility.pointer.cursorIsText = form.style.shape == CursorName.text.adaptiveForm?.style.shape
        let windows = Array(self.windows.values)
        let placed = accessibility.placedRegions(allocate: allocate) { point, window in
            guard let w = window as? AdapterWindow else { return false }
            return windows.contains { $0 !== w && $0.layer > w.layer && $0.rect.contains(point) }
        }
        for id in installed where placed[id] == nil {
            _ = engine.engine.regions.remove(id: id)
            changed = true
        }
        var now2: Set<RegionID> = []
        for (id, a) in placed {
            guard (try? engine.engine.regions.upsert(a.region)) != nil else { continue }
            now2.insert(id)
        }
        if now2 != installed { changed = true }
        installed = now2
    }

    func allocate() -> RegionID {
        nextRegion += 1
        return RegionID(Self.idBits | nextRegion)
    }

    /// After a step: where the pointer rests, for confirmation and point queries.
    func stepped(at time: Double) {
        self.time = time
        let device = engine.engine.devicePosition
        let awaiting = engine.engine.regionAwaitingConfirmation
        let moved = device != accessibility.pointer.device
        accessibility.pointer.device = device
        accessibility.pointer.awaitingConfirmation = awaiting
        if let awaiting { accessibility.confirm(awaiting) }
        if moved { accessibility.pointerMoved(to: device) }
        accessibility.shown(engine.presentation.targetRegion)
        apply()
        if form.spins { changed = true }
    }

    func close() {
        accessibility.stop()
        applySoon?.remove()
        applySoon = nil
        for id in installed { _ = engine.engine.regions.remove(id: id) }
        installed = []
        engine.engine.handle(.untargetedStyle(PointerStyle()), at: Instant(seconds: time))
    }

    static func from(_ pointer: OpaquePointer?) -> AdapterHandle? {
        guard let pointer else { return nil }
        return Unmanaged<AdapterHandle>.fromOpaque(UnsafeRawPointer(pointer)).takeUnretainedValue()
    }
}

extension CursorName {
    /// A name as hosts give it: a CSS name, or a theme file name ("left_ptr", "xterm", "hand2").
    init?(hostName: String) {
        if let css = CursorName(rawValue: hostName) { self = css; return }
        guard let legacy = CursorName.allCases.first(where: { $0.themeNames.contains(hostName) }) else { return nil }
        self = legacy
    }
}

// MARK: The C calls

@_cdecl("lodestone_pointer_adapter_create")
public func lodestone_pointer_adapter_create(_ engine: OpaquePointer?, _ loop: OpaquePointer?, _ server: OpaquePointer?) -> OpaquePointer? {
    guard let engine = EngineHandle.from(engine), let loop else { return nil }
    let adapter = AdapterHandle(engine: engine, loop: EventLoop(borrowing: loop), server: ServerHandle.from(server))
    return OpaquePointer(Unmanaged.passRetained(adapter).toOpaque())
}

@_cdecl("lodestone_pointer_adapter_destroy")
public func lodestone_pointer_adapter_destroy(_ adapter: OpaquePointer?) {
    guard let adapter else { return }
    let handle = Unmanaged<AdapterHandle>.fromOpaque(UnsafeRawPointer(adapter))
    handle.takeUnretainedValue().close()
    handle.release()
}

@_cdecl("lodestone_pointer_adapter_set_legacy_apps")
public func lodestone_pointer_adapter_set_legacy_apps(_ adapter: OpaquePointer?, _ mode: UInt32) -> Bool {
    guard let a = AdapterHandle.from(adapter), let m = AdapterHandle.legacyApps(mode) else { return false }
    a.pushed.legacyApps = m
    a.apply()
    return true
}

@_cdecl("lodestone_pointer_adapter_window_configured")
public func lodestone_pointer_adapter_window_configured(_ adapter: OpaquePointer?, _ window: UInt64, _ pid: Int32,
                                                        _ x: Double, _ y: Double, _ width: Double, _ height: Double,
                                                        _ layer: Int32, _ surface: OpaquePointer?) -> Bool {
    guard let a = AdapterHandle.from(adapter), window != 0, validRect(x, y, width, height) != nil,
          let w = Int32(exactly: width.rounded()), let h = Int32(exactly: height.rounded()), w > 0, h > 0 else { return false }
    let frame = WindowFrame(origin: Point(x: x, y: y), width: w, height: h)
    if let known = a.windows[window] {
        known.pid = pid
        known.adaptedFrame = frame
        known.layer = layer
        known.surface = surface
    } else {
        let new = AdapterWindow(id: window, pid: pid, frame: frame, layer: layer, surface: surface)
        new.hostPixels = a.hostPixels
        a.windows[window] = new
        // Walked now, so the elements are there when the pointer comes.
        a.accessibility.windowShown(new)
    }
    a.apply()
    return true
}

@_cdecl("lodestone_pointer_adapter_window_unmapped")
public func lodestone_pointer_adapter_window_unmapped(_ adapter: OpaquePointer?, _ window: UInt64) {
    guard let a = AdapterHandle.from(adapter), let gone = a.windows.removeValue(forKey: window) else { return }
    if a.pointerWindow === gone { a.pointerWindow = nil }
    a.accessibility.windowGone(gone)
    a.apply()
}

@_cdecl("lodestone_pointer_adapter_window_activated")
public func lodestone_pointer_adapter_window_activated(_ adapter: OpaquePointer?, _ window: UInt64) {
    guard let a = AdapterHandle.from(adapter), let w = a.windows[window] else { return }
    a.accessibility.windowShown(w)
}

@_cdecl("lodestone_pointer_adapter_pointer_over")
public func lodestone_pointer_adapter_pointer_over(_ adapter: OpaquePointer?, _ window: UInt64) {
    guard let a = AdapterHandle.from(adapter) else { return }
    a.pointerWindow = a.windows[window]
    a.apply()
}

@_cdecl("lodestone_pointer_adapter_cursor_name")
public func lodestone_pointer_adapter_cursor_name(_ adapter: OpaquePointer?, _ name: UnsafePointer<CChar>?) -> Bool {
    guard let a = AdapterHandle.from(adapter) else { return false }
    guard let name else {
        a.pushed.cursor = .unset
        a.apply()
        return true
    }
    let known = CursorName(hostName: String(cString: name))
    a.pushed.cursor = known.map { .named($0) } ?? .unset
    a.apply()
    return known != nil
}

@_cdecl("lodestone_pointer_adapter_cursor_image")
public func lodestone_pointer_adapter_cursor_image(_ adapter: OpaquePointer?, _ pixels: UnsafePointer<UInt32>?,
                                                   _ width: Int32, _ height: Int32, _ stride: Int32, _ scale: Int32,
                                                   _ hotspotX: Int32, _ hotspotY: Int32) -> Bool {
    guard let a = AdapterHandle.from(adapter) else { return false }
    guard let pixels, width > 0, height > 0, width <= 1024, height <= 1024, stride >= width * 4, stride % 4 == 0, scale >= 1 else {
        a.pushed.cursor = .image(nil)
        a.apply()
        return false
    }
    // Copied into an image of our own (the fingerprint reads rows of the image's stride).
    let image = Image(width: width, height: height, format: .argb8888)
    let rowPixels = Int(image.stride / 4), sourceRow = Int(stride / 4)
    image.withPixels { data in
        for y in 0..<Int(height) { (data + y * rowPixels).update(from: pixels + y * sourceRow, count: Int(width)) }
    }
    let name = a.pushed.readsCursorNames ? a.themes.name(of: image, scale: scale) : nil
    a.pushed.cursor = .image(name)
    a.apply()
    return name != nil
}

@_cdecl("lodestone_pointer_adapter_cursor_hidden")
public func lodestone_pointer_adapter_cursor_hidden(_ adapter: OpaquePointer?) {
    guard let a = AdapterHandle.from(adapter) else { return }
    a.pushed.cursor = .hidden
    a.apply()
}

@_cdecl("lodestone_pointer_adapter_key_pressed")
public func lodestone_pointer_adapter_key_pressed(_ adapter: OpaquePointer?) {
    AdapterHandle.from(adapter)?.accessibility.keyPressed()
}

@_cdecl("lodestone_pointer_adapter_scrolled")
public func lodestone_pointer_adapter_scrolled(_ adapter: OpaquePointer?, _ window: UInt64) {
    guard let a = AdapterHandle.from(adapter), let w = a.windows[window] else { return }
    a.accessibility.scrolled(w)
    a.apply()
}

@_cdecl("lodestone_pointer_adapter_stepped")
public func lodestone_pointer_adapter_stepped(_ adapter: OpaquePointer?, _ time: Double) {
    guard time.isFinite else { return }
    AdapterHandle.from(adapter)?.stepped(at: time)
}

@_cdecl("lodestone_pointer_adapter_changed")
public func lodestone_pointer_adapter_changed(_ adapter: OpaquePointer?) -> Bool {
    guard let a = AdapterHandle.from(adapter) else { return false }
    defer { a.changed = false }
    return a.changed
}

@_cdecl("lodestone_pointer_adapter_pointer_source")
public func lodestone_pointer_adapter_pointer_source(_ adapter: OpaquePointer?) -> UInt32 {
    AdapterHandle.from(adapter)?.source.rawValue ?? LODESTONE_POINTER_SOURCE_ADAPTIVE.rawValue
}

@_cdecl("lodestone_pointer_adapter_element_count")
public func lodestone_pointer_adapter_element_count(_ adapter: OpaquePointer?, _ window: UInt64) -> UInt32 {
    guard let a = AdapterHandle.from(adapter), let w = a.windows[window] else { return 0 }
    return UInt32(clamping: a.accessibility.elementCount(w))
}

@_cdecl("lodestone_pointer_engine_set_cursor_name")
public func lodestone_pointer_engine_set_cursor_name(_ engine: OpaquePointer?, _ time: Double, _ name: UnsafePointer<CChar>?) -> Bool {
    guard let h = EngineHandle.from(engine), time.isFinite else { return false }
    let known = name.flatMap { CursorName(hostName: String(cString: $0)) }
    h.engine.handle(.untargetedStyle((known?.adaptiveForm ?? .circle).style), at: Instant(seconds: time))
    return name == nil || known != nil
}

@_cdecl("lodestone_pointer_server_surface_has_regions")
public func lodestone_pointer_server_surface_has_regions(_ server: OpaquePointer?, _ surface: OpaquePointer?) -> Bool {
    guard let s = ServerHandle.from(server), let surface else { return false }
    return s.treeHasRegions(surface)
}
