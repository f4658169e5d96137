// liblodestone-pointer: the legacy-app adaptation (the lodestone_pointer_adapter_* calls,
// AdapterCalls.swift). The work is PointerAdaptation's, the same code Lodestone runs (cursor
// names and their forms, `AppCursorPolicy`, Xcursor fingerprints, `Accessibility`); the adapter
// only keeps the host's windows (AdapterWindow.swift, their pixels in AdapterPixels.swift) and
// puts what the adaptation says into the engine.

import CLodestonePointer
import Glibc
import AdaptivePointerEngine
import Logging
import PointerAdaptation
import Rendering
import WaylandServer

/// What a `struct lodestone_pointer_adapter *` points at.
final class AdapterHandle {
    /// The top two bits of the engine ids the adapter uses (the server helper's have the top bit only).
    static let idBits: UInt64 = 0b11 << 62

    let engine: EngineHandle
    let server: ServerHandle?
    let loop: EventLoop
    let accessibility: Accessibility
    /// Read on the first image: hosts that only name cursors never load a theme.
    /// Also at GTK's size without settings: a host's apps are told no cursor size by it.
    lazy var themes = CursorThemes(log: cursorLog, alsoSizes: [CursorThemes.toolkitDefaultSize])
    /// What became of each cursor image a host handed over (at debug: which theme cursor).
    lazy var cursorLog = AdapterHandle.logger("lodestone-pointer.cursors")
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
