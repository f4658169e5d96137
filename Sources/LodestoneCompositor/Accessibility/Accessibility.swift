import Foundation
import LodestoneSystem
import Logging
import AdaptivePointerProtocol
import AdaptivePointerEngine
import Rendering
import WaylandServer

/// The geometry apps publish for accessibility (AT-SPI), read from the accessibility bus so
/// that apps which declare no adaptive_pointer_v1 regions still get highlights over their
/// buttons and a beam as tall as their text (README, "Apps that declare no regions").
///
/// Everything is asynchronous on the `wl_event_loop` (`DBusConnection`). When a toplevel
/// maps or gains the keyboard, not when the pointer first comes (issue 27: that made the
/// first highlight a second late), Lodestone finds the bus (`AT_SPI_BUS_ADDRESS`, else the
/// session bus's `org.a11y.Bus.GetAddress`), lists the registry's applications (again as
/// soon as the registry says one came, and every `fastListing` s while a new window's app is
/// missing), matches them to Wayland clients by PID, finds the window (AT-SPI frame) of the
/// toplevel and walks it (`AccessibleWalk`), a few replies per wake-up of the loop. The
/// elements are kept per toplevel, ready when the pointer comes, until the window's size
/// changes or the app signals that bounds, children or states changed (then walked again at
/// once, pointer or not), or `lifetime` passes while the pointer is on it. Without a bus, a
/// registry or an accessible app, only the cursor names apply, and one info line says why.
final class Accessibility {
    private unowned let compositor: Compositor
    private var log: Logger { compositor.log }

    private enum State { case idle, findingBus, connected, unavailable }
    private var state = State.idle
    /// Only while asking the session bus where the accessibility bus is.
    private var sessionBus: DBusConnection?
    private var bus: DBusConnection?

    /// AT-SPI applications by PID (their unique bus names), and when the list was read.
    private var appsByPID: [Int32: String] = [:]
    private var appsListedAt: Double?
    private var listingApps = false
    /// Since when each client's app has been looked for in vain (after `appWait` s, it has none).
    private var missingSince: [Int32: Double] = [:]
    private var saidMissing: Set<Int32> = []
    static let appWait = 10.0
    /// Apps register just after their first window maps: listed this often for `fastWait` s, then once a second.
    static let fastListing = 0.05, fastWait = 2.0
    private var recheckTimer: EventSource?

    /// What is known about one toplevel's window.
    private final class Window {
        /// An xdg_toplevel, or an X11 window (its app found by _NET_WM_PID).
        weak var toplevel: DesktopWindow?
        var elements: [AccessibleElement] = []
        /// The AT-SPI frame matched to the toplevel.
        var frame: DBusObject?
        var walk: AccessibleWalk?
        /// While its frame is being looked for: one search at a time, however often the scene changes.
        var findingFrame = false
        var walkedAt: Double?
        /// The window geometry's size when walked: a resize re-walks.
        var size: (Int32, Int32) = (0, 0)
        var stale = true
        /// Not walked again before this (after extents that lie: the toolkit gets time to lay out).
        var notBefore = 0.0
        /// A terminal's rows (`TextRows`), when it publishes nothing and its cursor says text.
        var rows: TextRows?
        var rowsMeasuredAt: Double?
        /// When the pointer first came onto the window (for the first highlight's latency).
        var pointerCameAt: Double?
        /// Walks still due after a scroll: the toolkit's tree may follow the page late.
        var scrollRereads = 0
        /// Region ids, stable across walks so the engine does not re-enter an element.
        var regionIDs: [RegionID] = []
        let owner: SurfaceID
        init(_ toplevel: DesktopWindow, owner: SurfaceID) { self.toplevel = toplevel; self.owner = owner }
    }
    private var windows: [ObjectIdentifier: Window] = [:]
    private var nextOwner: UInt64 = 1 << 40
    private var lifetimeTimer: EventSource?

    /// How long a walk's elements are trusted without any signal from the app.
    static let lifetime = 3.0

    init(compositor: Compositor) { self.compositor = compositor }

    private var now: Double { Date().timeIntervalSince1970 }

    /// Whether accessibility geometry is in use at all (`--legacy-apps adaptive`).
    private var enabled: Bool {
        let app = compositor.seat.appCursor
        return app.mode == .adaptive && app.legacyApps == .adaptive
    }

    // MARK: What the seat pushes to the pointer

    /// The accessible elements of the toplevel under the pointer, placed as regions in global
    /// space; starts finding them when none are known yet (they come with a later
    /// `sceneChanged`).
    func placedRegions(allocate: () -> RegionID) -> [RegionID: SceneRegions.Placed] {
        guard enabled, let focus = compositor.seat.pointerFocus, !compositor.scene.regions.treeHasRegions(focus),
              let toplevel = compositor.scene.window(of: focus), toplevel.isMapped,
              let surface = toplevel.surface, let pid = Self.processID(of: toplevel) else { return [:] }
        let xdg = toplevel
        let window = self.window(toplevel)
        if window.pointerCameAt == nil {
            window.pointerCameAt = now
            // For `make bench`: elements walked before the pointer came adapt on its first frame.
            if !window.elements.isEmpty {
                log.debug("accessibility: \(window.elements.count) elements of '\(toplevel.title)' ready when the pointer came (\(window.walkedAt.map { "walked \(Int((now - $0) * 1000)) ms before" } ?? "first walk going on"))")
            }
        }
        let geometry = xdg.geometry
        if (geometry.width, geometry.height) != window.size { window.stale = true }
        if window.stale || (window.walkedAt.map { now - $0 > Self.lifetime } ?? true) { refresh(window, pid: pid) }

        let (ox, oy) = xdg.surfaceOrigin
        let placement = SurfacePlacement(origin: Point(x: Double(ox) + Double(geometry.x), y: Double(oy) + Double(geometry.y)))
        let root = compositor.scene.rootSurface(surface)
        var elements = window.elements
        var measured = false
        if elements.isEmpty, compositor.seat.cursor.name == .text, let rows = textRows(window, surface) {
            // No geometry published, but text: a terminal's rows, measured from its pixels.
            let (w, h) = (Double(surface.width), Double(surface.height))
            elements = [AccessibleElement(kind: .text(lineHeight: rows.pitch, singleLine: false), x: -Double(geometry.x),
                                          y: rows.origin - Double(geometry.y), width: w, height: h - rows.origin, depth: 0)]
            measured = true
        }
        while window.regionIDs.count < elements.count { window.regionIDs.append(allocate()) }
        var placed: [RegionID: SceneRegions.Placed] = [:]
        for (element, id) in zip(elements, window.regionIDs) {
            var spec = Self.spec(element, id: id)
            // A guess from pixels sizes the beam but never holds the pointer in the window.
            if measured { spec.draft.magnetism = .off }
            var region = placement.toGlobal(spec.localRegion(owner: window.owner))
            region.stackingOrder = Int32(clamping: element.depth)
            // A region under a popup or another window must not capture the pointer.
            let c = region.frame.center
            if let top = compositor.scene.surfaceAt(x: c.x, y: c.y), compositor.scene.rootSurface(top.surface) !== root { continue }
            placed[id] = SceneRegions.Placed(region: region, spec: spec, placement: placement)
        }
        return placed
    }

    /// The process that owns the window: a Wayland client's credentials; an X11 window's
    /// _NET_WM_PID (Xwayland is the client of every X window).
    static func processID(of window: DesktopWindow) -> Int32? {
        if let x = window as? XwaylandWindow { return x.processID }
        return window.surface?.client.pid
    }

    private func window(_ toplevel: DesktopWindow) -> Window {
        if let w = windows[ObjectIdentifier(toplevel)] { return w }
        let w = Window(toplevel, owner: SurfaceID(nextOwner))
        nextOwner += 1
        windows[ObjectIdentifier(toplevel)] = w
        return w
    }

    // MARK: Walking before the pointer comes

    /// A toplevel mapped or gained the keyboard: its elements are read now (unless fresh),
    /// so that they are there when the pointer comes.
    func windowShown(_ shown: DesktopWindow) {
        guard enabled, shown.isMapped, let surface = shown.surface, let pid = Self.processID(of: shown),
              !compositor.scene.regions.treeHasRegions(surface) else { return }
        let window = self.window(shown)
        let g = shown.geometry
        if (g.width, g.height) != window.size { window.stale = true }
        guard window.stale || (window.walkedAt.map { now - $0 > Self.lifetime } ?? true) else { return }
        refresh(window, pid: pid)
    }

    /// Walks again every known window the app changed (or whose app was missing), pointer or not.
    private func refreshStale() {
        windows = windows.filter { $0.value.toplevel != nil }
        for window in windows.values where window.stale {
            guard let toplevel = window.toplevel, toplevel.isMapped, let surface = toplevel.surface,
                  let pid = Self.processID(of: toplevel), !compositor.scene.regions.treeHasRegions(surface) else { continue }
            // An app that signals all the time (a blinking caret, a progress bar) is not walked without pause.
            if let at = window.walkedAt, now - at < Self.rewalkInterval {
                recheck(after: Self.rewalkInterval)
                continue
            }
            refresh(window, pid: pid)
        }
    }

    /// The text rows of a window without published geometry, measured twice a second while
    /// the pointer is on it (its pixels change without telling the pointer).
    private func textRows(_ window: Window, _ surface: WlSurface) -> TextRows? {
        recheck(after: 0.5)
        if let at = window.rowsMeasuredAt, now - at < 0.5 { return window.rows }
        window.rowsMeasuredAt = now
        window.rows = TextRows.measure(surface)
        return window.rows
    }

    /// Looks again (re-places the regions) after `seconds`: for what comes without a signal.
    private func recheck(after seconds: Double) {
        if recheckTimer == nil {
            recheckTimer = try? compositor.display.eventLoop.addTimer { [weak self] in
                self?.refreshStale()
                self?.compositor.seat.pointerWorldChanged(regions: true)
            }
        }
        recheckTimer?.arm(milliseconds: Int32(seconds * 1000))
    }

    /// The region an element becomes (README's table of roles).
    static func spec(_ e: AccessibleElement, id: RegionID) -> RegionSpec {
        var spec = RegionSpec(id: id)
        spec.draft.frame = Rect(x: e.x, y: e.y, width: e.width, height: e.height)
        switch e.kind {
        case .control:
            spec.draft.style.effect = .highlight
        case .iconButton:
            spec.draft.style.effect = .lift
        case .slider(let horizontal):
            spec.draft.style.effect = .highlight
            spec.draft.latchingAxes = horizontal ? .horizontal : .vertical
        case .item:
            spec.draft.style.effect = .hover(tint: .overlay, shadow: false, scale: false)
            spec.draft.hitArea = .padding(0)
        case .text(let line, let singleLine):
            let length = line ?? 24
            spec.draft.style.effect = .none
            spec.draft.style.shape = .verticalBeam(length: length)
            spec.draft.hitArea = .padding(4)
            // One line, centred in the entry: the beam rests on it.
            if singleLine, e.height > length {
                spec.draft.frame = Rect(x: e.x, y: e.y + ((e.height - length) / 2).rounded(), width: e.width, height: length)
                spec.draft.hitArea = .explicit(.zero)
                spec.draft.hitRect = Rect(x: e.x, y: e.y, width: e.width, height: e.height)
            }
        }
        return spec
    }

    /// Where the AT-SPI frame's origin is in the window geometry. Toolkits publish the
    /// client area; one that draws its own title bar and border (Qt's decorations) has
    /// a window geometry larger than its frame: the border on the left, right and bottom
    /// alike, the title bar on top.
    static func decorationInset(geometry g: PixelRect, frame: (width: Double, height: Double)) -> (x: Double, y: Double) {
        let dx = max(0, Double(g.width) - frame.width), dy = max(0, Double(g.height) - frame.height)
        guard frame.width > 0, frame.height > 0, dx < 64, dy < 128 else { return (0, 0) }
        let side = (dx / 2).rounded(.down)
        return (side, max(0, dy - side))
    }

    /// Controls grow to where they are drawn (`DrawnOutline`); window coordinates are the
    /// window geometry's, the pixels the surface's.
    private static func outline(_ e: inout AccessibleElement, in surface: WlSurface, geometry g: PixelRect) {
        guard e.framed else { return }
        let (dx, dy) = (Double(g.x), Double(g.y))
        let drawn = DrawnOutline.drawn((e.x + dx, e.y + dy, e.width, e.height), in: surface)
        (e.x, e.y, e.width, e.height) = (drawn.x - dx, drawn.y - dy, drawn.width, drawn.height)
    }

    // MARK: Invalidation

    /// An app's signal that its windows changed. Apps may send thousands a second (issue 24):
    /// the scene is looked at again once per `invalidationDelay`, not once per signal.
    private func invalidate(app: String) {
        var any = false
        for window in windows.values where window.frame?.bus == app {
            window.stale = true
            any = any || window.toplevel != nil
        }
        guard any, !invalidationPending else { return }
        if invalidationTimer == nil {
            invalidationTimer = try? compositor.display.eventLoop.addTimer { [weak self] in
                guard let self else { return }
                self.invalidationPending = false
                self.refreshStale()
                self.compositor.seat.pointerWorldChanged(regions: true)
            }
        }
        guard let invalidationTimer else { return compositor.seat.pointerWorldChanged(regions: true) }
        invalidationPending = true
        invalidationTimer.arm(milliseconds: Int32(Self.invalidationDelay * 1000))
    }
    /// The pointer scrolled `surface`: what moved with the page (a web page's links, a list's
    /// rows) must not be targeted where it was (issue 27). Whatever the toolkit signals or not,
    /// the window's elements are dropped now and read again once the scrolling has paused for
    /// `scrollSettle` s.
    func scrolled(_ surface: WlSurface) {
        guard enabled, let toplevel = compositor.scene.window(of: surface), let window = windows[ObjectIdentifier(toplevel)] else { return }
        window.walk?.cancel()
        window.walk = nil
        window.stale = true
        window.notBefore = now + Self.scrollSettle
        window.scrollRereads = Self.scrollRereads
        if !window.elements.isEmpty {
            window.elements = []
            compositor.seat.pointerWorldChanged(regions: true)
        }
        recheck(after: Self.scrollSettle)
    }
    static let scrollSettle = 0.15
    /// Chromium moves its accessible tree some hundreds of milliseconds after the page: after
    /// a scroll the window is read this many more times, `scrollRereadInterval` s apart.
    static let scrollRereads = 2, scrollRereadInterval = 0.3

    private var invalidationTimer: EventSource?
    private var invalidationPending = false
    static let invalidationDelay = 0.05

    // MARK: Finding the app and its window

    private func refresh(_ window: Window, pid: Int32) {
        guard window.walk == nil, now >= window.notBefore else { return }
        switch state {
        case .idle: connect()
        case .findingBus, .unavailable: return
        case .connected: break
        }
        guard let bus, state == .connected else { return }
        guard let app = appsByPID[pid] else {
            // Apps register after their window maps: listed again, often at first, for `appWait` s.
            window.stale = true
            let since = missingSince[pid] ?? now
            missingSince[pid] = since
            guard now - since < Self.appWait else {
                if saidMissing.insert(pid).inserted {
                    log.info("accessibility: the client with PID \(pid) publishes no AT-SPI geometry; its cursor names only")
                }
                return
            }
            let interval = now - since < Self.fastWait ? Self.fastListing : 1
            if appsListedAt.map({ now - $0 >= interval }) ?? true { listApps() }
            recheck(after: interval)
            return
        }
        guard !window.findingFrame else { return }
        window.stale = false
        let started = now
        window.findingFrame = true
        findFrame(of: window, app: app) { [weak self, weak window] frame in
            window?.findingFrame = false
            guard let self, let window, let frame, let bus = self.bus else { return }
            window.frame = frame
            window.walk = AccessibleWalk(bus: bus, app: app, window: frame.path) { [weak self, weak window] elements, frameSize in
                guard let self, let window else { return }
                let nodes = window.walk?.nodes ?? 0, limit = window.walk?.limitReached, lies = window.walk?.liesSeen ?? 0
                window.walk = nil
                let wakeUp = bus.takeLongestWakeUp()
                // Each walk, for the tests of lying apps: what it cost, and which bound ended it.
                self.log.debug("accessibility: walked '\(window.toplevel?.title ?? "")': \(nodes) nodes, \(elements.count) elements, \(Int((self.now - started) * 1000)) ms, longest wake-up \(String(format: "%.2f", wakeUp.wall * 1000)) ms wall, \(String(format: "%.2f", wakeUp.cpu * 1000)) ms CPU\(limit.map { ", stopped at the \($0)" } ?? "")\(lies > 0 ? ", \(lies) extents that lie (read again in \(Self.lieRecheck) s)" : "")")
                if lies > 0 {
                    // What lied is read again later, pointer or not.
                    window.stale = true
                    window.notBefore = self.now + Self.lieRecheck
                    self.recheck(after: Self.lieRecheck)
                }
                window.walkedAt = self.now
                if window.scrollRereads > 0 {
                    window.scrollRereads -= 1
                    window.stale = true
                    window.notBefore = self.now + Self.scrollRereadInterval
                    self.recheck(after: Self.scrollRereadInterval)
                }
                let elements = self.placedInWindow(elements, window, frameSize: frameSize)
                if window.elements.isEmpty, !elements.isEmpty, let came = window.pointerCameAt {
                    // For `make bench`: how long the first highlight waited, and what D-Bus cost.
                    let trips = bus.takeRoundTrips().sorted()
                    let median = trips.isEmpty ? 0 : trips[trips.count / 2], p99 = trips.isEmpty ? 0 : trips[min(trips.count - 1, trips.count * 99 / 100)]
                    self.log.debug("accessibility: \(elements.count) elements of '\(window.toplevel?.title ?? "")' in place \(Int((self.now - came) * 1000)) ms after the pointer came; walk of \(nodes) nodes in \(Int((self.now - started) * 1000)) ms, \(trips.count) calls, round trip median \(String(format: "%.2f", median * 1000)) ms, p99 \(String(format: "%.2f", p99 * 1000)) ms")
                }
                if elements != window.elements {
                    window.elements = elements
                    self.compositor.seat.pointerWorldChanged(regions: true)
                }
                self.armLifetime()
            }
            // A window with no elements yet takes them as they come.
            window.walk?.progress = { [weak self, weak window] elements, frameSize in
                guard let self, let window, window.walkedAt == nil, elements.count > window.elements.count else { return }
                if window.elements.isEmpty, let came = window.pointerCameAt {
                    self.log.debug("accessibility: \(elements.count) elements of '\(window.toplevel?.title ?? "")' in place \(Int((self.now - came) * 1000)) ms after the pointer came; walk going on, \(Int((self.now - started) * 1000)) ms in")
                }
                window.elements = self.placedInWindow(elements, window, frameSize: frameSize)
                self.compositor.seat.pointerWorldChanged(regions: true)
            }
        }
        _ = bus
    }

    /// A walk's elements in the window geometry, grown to their drawn outlines.
    private func placedInWindow(_ elements: [AccessibleElement], _ window: Window, frameSize: (Double, Double)) -> [AccessibleElement] {
        guard let xdg = window.toplevel, let surface = xdg.surface else { return elements }
        var elements = elements
        let g = xdg.geometry
        window.size = (g.width, g.height)
        let inset = Self.decorationInset(geometry: g, frame: frameSize)
        for i in elements.indices {
            elements[i].x += inset.x
            elements[i].y += inset.y
            Self.outline(&elements[i], in: surface, geometry: g)
        }
        return elements
    }

    static let maximumFrames = 64
    /// A window whose walk met extents that lie is walked again after this long.
    static let lieRecheck = 1.0
    /// A window the pointer is not on is walked again after a change at most this often.
    static let rewalkInterval = 0.25

    /// The app's frame for this toplevel: the one titled like it, else the one of its size,
    /// else its only one.
    private func findFrame(of window: Window, app: String, _ found: @escaping (DBusObject?) -> Void) {
        guard let bus, let toplevel = window.toplevel else { return found(nil) }
        let title = toplevel.title, g = toplevel.geometry
        bus.call(app, "/org/a11y/atspi/accessible/root", "org.a11y.atspi.Accessible", "GetChildren") { [weak self] result in
            // An app's own frames, and no more than `maximumFrames`: a lying app may list a
            // million, or another app's (issue 24).
            guard let self, let bus = self.bus, let m = try? result.get(),
                  case let frames = (m.array("(so)", limit: Self.maximumFrames, { m.readObject() }) ?? []).filter({ $0.bus == app }),
                  !frames.isEmpty else {
                return found(nil)
            }
            if frames.count == 1 { return found(frames[0]) }
            var answers: [(DBusObject, String?, (Int32, Int32)?)] = []
            for frame in frames {
                bus.call(frame.bus, frame.path, "org.freedesktop.DBus.Properties", "Get", [.string("org.a11y.atspi.Accessible"), .string("Name")]) { r in
                    let name = (try? r.get()).flatMap { m in m.container("v", "s") { m.readString() } }
                    bus.call(frame.bus, frame.path, "org.a11y.atspi.Component", "GetExtents", [.uint32(1)]) { r in
                        let size = (try? r.get()).flatMap { m in
                            m.container("r", "iiii") { () -> (Int32, Int32)? in
                                _ = m.readInt32(); _ = m.readInt32()
                                guard let w = m.readInt32(), let h = m.readInt32() else { return nil }
                                return (w, h)
                            }
                        }
                        answers.append((frame, name, size))
                        guard answers.count == frames.count else { return }
                        let match = answers.first { $0.1 == title && !title.isEmpty }
                            ?? answers.first { $0.2.map { $0 == (g.width, g.height) } ?? false }
                        found(match?.0)
                    }
                }
            }
        }
    }

    /// Reads the registry's applications and each one's PID.
    private func listApps() {
        guard let bus, !listingApps else { return }
        listingApps = true
        bus.call("org.a11y.atspi.Registry", "/org/a11y/atspi/accessible/root", "org.a11y.atspi.Accessible", "GetChildren") { [weak self] result in
            guard let self, let bus = self.bus else { return }
            self.appsListedAt = self.now
            guard let m = try? result.get(), let apps = m.array("(so)", { m.readObject() }) else {
                self.listingApps = false
                if case .failure(let error) = result { self.giveUp("the AT-SPI registry did not answer (\(error))") }
                return
            }
            var remaining = apps.count
            if remaining == 0 {
                // None yet: the windows waiting for theirs list again soon.
                self.listingApps = false
                self.refreshStale()
            }
            for app in apps {
                bus.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetConnectionUnixProcessID", [.string(app.bus)]) { [weak self] r in
                    guard let self else { return }
                    if let pid = (try? r.get())?.readUInt32() { self.appsByPID[Int32(bitPattern: pid)] = app.bus }
                    remaining -= 1
                    if remaining == 0 {
                        self.listingApps = false
                        for pid in self.appsByPID.keys { self.missingSince.removeValue(forKey: pid) }
                        self.refreshStale()
                        self.compositor.seat.pointerWorldChanged(regions: true)
                    }
                }
            }
        }
    }

    /// While the pointer is on a walked window, its elements are re-read every `lifetime`.
    private func armLifetime() {
        if lifetimeTimer == nil {
            lifetimeTimer = try? compositor.display.eventLoop.addTimer { [weak self] in
                guard let self else { return }
                self.windows = self.windows.filter { $0.value.toplevel != nil }
                self.compositor.seat.pointerWorldChanged(regions: true)
            }
        }
        lifetimeTimer?.arm(milliseconds: Int32(Self.lifetime * 1000))
    }

    // MARK: The bus

    /// Connects when Lodestone starts, not at the first window: apps started afterwards find
    /// accessibility on (Qt reads `org.a11y.Status` once, when it starts), and the first
    /// window's walk does not wait for the bus.
    func start() { if enabled, state == .idle { connect() } }

    /// Finds the accessibility bus, first switching accessibility on for apps the way a screen
    /// reader does: `org.a11y.Status.IsEnabled` on the session bus's `org.a11y.Bus` (README,
    /// "Switching accessibility on"). GTK publishes anyway; Qt 6 publishes nothing without it
    /// (or `QT_LINUX_ACCESSIBILITY_ALWAYS_ON`). `ScreenReaderEnabled` is left alone: apps take
    /// it to mean a screen reader speaks (Chromium builds its whole web tree for it).
    private func connect() {
        state = .findingBus
        let env = ProcessInfo.processInfo.environment
        let atspi = env["AT_SPI_BUS_ADDRESS"].flatMap { $0.isEmpty ? nil : $0 }
        let session = env["DBUS_SESSION_BUS_ADDRESS"] ?? env["XDG_RUNTIME_DIR"].map { "unix:path=\($0)/bus" }
        guard let session else {
            if let atspi { return connectAccessibilityBus(atspi) }
            return giveUp("no session bus (DBUS_SESSION_BUS_ADDRESS and XDG_RUNTIME_DIR are unset)")
        }
        let connection: DBusConnection
        do {
            connection = try DBusConnection(address: session, loop: compositor.display.eventLoop)
        } catch {
            if let atspi { return connectAccessibilityBus(atspi) }
            return giveUp("no session bus (\(error))")
        }
        sessionBus = connection
        connection.call("org.a11y.Bus", "/org/a11y/bus", "org.freedesktop.DBus.Properties", "Set",
                        [.string("org.a11y.Status"), .string("IsEnabled"), .variantBool(true)]) { [weak self] result in
            guard let self else { return }
            if case .failure(let error) = result { self.log.debug("accessibility: could not switch org.a11y.Status.IsEnabled on (\(error))") }
            if let atspi { self.connectAccessibilityBus(atspi); return self.closeSessionBusSoon() }
            connection.call("org.a11y.Bus", "/org/a11y/bus", "org.a11y.Bus", "GetAddress") { [weak self] result in
                guard let self else { return }
                switch result {
                case .success(let m):
                    if let address = m.readString(), !address.isEmpty { self.connectAccessibilityBus(address) } else { self.giveUp("org.a11y.Bus gave no address") }
                case .failure(let error): self.giveUp("no accessibility bus on the session bus (\(error))")
                }
                // Closed from the loop, not from inside this reply's dispatch.
                self.closeSessionBusSoon()
            }
        }
    }

    private var idle: EventSource?

    /// The compositor shuts down while its loop still exists: the pending idle source goes now.
    /// libwayland frees an idle source only once it has run or been removed, and a loop
    /// destroyed with one still pending loses it (LeakSanitizer: 56 bytes from
    /// `wl_event_loop_add_idle` per compositor that gave up on the bus and stopped at once).
    func stop() {
        idle?.remove()
        idle = nil
    }
    /// Drops the session bus (and, once given up, the accessibility bus) from the loop, not
    /// from inside one of their replies.
    private func closeSessionBusSoon() {
        idle = try? compositor.display.eventLoop.addIdle { [weak self] in
            guard let self else { return }
            self.sessionBus = nil
            if self.state == .unavailable { self.bus = nil }
            self.idle = nil
        }
    }

    private func connectAccessibilityBus(_ address: String) {
        do {
            let bus = try DBusConnection(address: address, loop: compositor.display.eventLoop)
            self.bus = bus
            state = .connected
            bus.onClose = { [weak self] error in self?.giveUp("the accessibility bus closed (\(error))") }
            // Bounds, children and states: any of them may move an element.
            bus.subscribe("type='signal',interface='org.a11y.atspi.Event.Object'") { [weak self] m in
                guard let self, let member = m.member, ["BoundsChanged", "ChildrenChanged", "StateChanged"].contains(member), let sender = m.sender else { return }
                // The registry's root gained or lost an app: one may be waited for.
                if member == "ChildrenChanged", m.path == "/org/a11y/atspi/accessible/root", !self.missingSince.isEmpty { self.listApps() }
                self.invalidate(app: sender)
            }
            for event in ["object:bounds-changed", "object:children-changed", "object:state-changed"] {
                bus.call("org.a11y.atspi.Registry", "/org/a11y/atspi/registry", "org.a11y.atspi.Registry", "RegisterEvent", [.string(event)]) { _ in }
            }
            log.info("accessibility: reading app geometry from the AT-SPI bus at \(address)")
            listApps()
        } catch {
            giveUp("cannot connect to the accessibility bus (\(error))")
        }
    }

    /// No accessibility geometry for this run: cursor names alone, said once.
    private func giveUp(_ reason: String) {
        guard state != .unavailable else { return }
        state = .unavailable
        log.info("accessibility: \(reason); apps without regions get their cursor names only")
        for window in windows.values { window.walk?.cancel(); window.walk = nil }
        closeSessionBusSoon()
    }
}
