import Glibc
import LodestoneSystem
import Logging
import AdaptivePointerProtocol
import AdaptivePointerEngine
import Rendering
import WaylandServer

/// The geometry apps publish for accessibility (AT-SPI), read from the accessibility bus so
/// that apps which declare no adaptive_pointer_v1 regions still get highlights over their
/// buttons and a beam as tall as their text (docs/accessibility.md).
///
/// Everything is asynchronous on the `wl_event_loop` (`DBusConnection`). When a window
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
package final class Accessibility {
    /// The host's event loop: the buses' fds and every timer are sources on it.
    let loop: EventLoop
    let log: Logger
    /// Whether a window's surface tree declares adaptive_pointer_v1 regions (they win): asked
    /// of the host, which knows its surfaces.
    let declaresRegions: (AdaptedWindow) -> Bool
    /// Tells the host that the placed regions may have changed (a reply, a timer): it gathers
    /// them again (`placedRegions`) before its next input or frame.
    let changed: () -> Void
    /// Whether accessibility geometry is in use at all (`--legacy-apps adaptive`), set by the host.
    package var enabled = true
    /// The pointer as the host last said (`PointerContext`).
    package var pointer = PointerContext()

    enum State { case idle, findingBus, connected, unavailable }
    var state = State.idle
    /// Only while asking the session bus where the accessibility bus is.
    var sessionBus: DBusConnection?
    var bus: DBusConnection?

    /// AT-SPI applications by PID (their unique bus names), and when the list was read.
    var appsByPID: [Int32: String] = [:]
    var appsListedAt: Double?
    var listingApps = false
    /// When the registry first left a listing unanswered (nil: it answered the last). It is
    /// started with the accessibility bus and may be slow to answer at first (a loaded
    /// machine), so it is asked again until it has been silent for `registryPatience` s.
    var registrySilentSince: Double?
    static let registryPatience = 10.0
    /// Asks again when a try was refused before its call's timeout (`listAppsAgain`).
    var registryRetryTimer: EventSource?
    /// Since when each client's app has been looked for in vain (after `appWait` s, it has none).
    var missingSince: [Int32: Double] = [:]
    var saidMissing: Set<Int32> = []
    static let appWait = 10.0
    /// Apps register just after their first window maps: listed this often for `fastWait` s, then once a second.
    static let fastListing = 0.05, fastWait = 2.0
    var recheckTimer: EventSource?

    /// What is known about one toplevel's window.
    final class AppWindow {
        /// The host's window (an xdg_toplevel, an X11 window found by _NET_WM_PID, a C host's window).
        weak var toplevel: AdaptedWindow?
        /// What the last walk (or the one going on) found, and when that walk began.
        var walked: [AccessibleElement] = []
        var readAt: Double?
        /// What a point query found under the pointer, until the walk brings it.
        var probe: [AccessibleElement] = []
        var elements: [AccessibleElement] {
            probe.isEmpty ? walked : walked + probe.filter { p in !walked.contains { $0.source == p.source } }
        }
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
        var rows: MeasuredTextRows?
        var rowsMeasuredAt: Double?
        /// When the pointer first came onto the window (for the first highlight's latency).
        var pointerCameAt: Double?
        /// The pointer's first adapting to one of its elements was logged (`adapted`).
        var adaptedLogged = false
        /// Walks still due after a scroll: the toolkit's tree may follow the page late.
        var scrollRereads = 0
        /// Region ids, stable across walks so the engine does not re-enter an element.
        var regionIDs: [RegionID] = []
        let owner: SurfaceID
        init(_ toplevel: AdaptedWindow, owner: SurfaceID) { self.toplevel = toplevel; self.owner = owner }
    }
    var windows: [ObjectIdentifier: AppWindow] = [:]
    var nextOwner: UInt64
    var lifetimeTimer: EventSource?

    /// How long a walk's elements are trusted without any signal from the app.
    static let lifetime = 3.0

    /// `ownerBase`: the first engine surface id of the windows' regions (ids of the host's own
    /// regions stay below it).
    package init(loop: EventLoop, log: Logger, ownerBase: UInt64 = 1 << 40,
                 declaresRegions: @escaping (AdaptedWindow) -> Bool, changed: @escaping () -> Void) {
        self.loop = loop
        self.log = log
        self.nextOwner = ownerBase
        self.declaresRegions = declaresRegions
        self.changed = changed
    }

    /// Wall-clock seconds (the walks' ages and the logged latencies).
    var now: Double {
        var t = timespec()
        clock_gettime(CLOCK_REALTIME, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    // MARK: What the seat pushes to the pointer

    /// The accessible elements of the window under the pointer (`pointer`), placed as regions
    /// in global space; starts finding them when none are known yet (they come with a later
    /// `changed`). `allocate` gives region ids; `covered` says whether another window (a popup)
    /// is above a point of this one: an element there must not capture the pointer.
    package func placedRegions(allocate: () -> RegionID, covered: (Point<Global>, AdaptedWindow) -> Bool) -> [RegionID: AdaptedRegion] {
        guard enabled, !pointer.declaresRegions, let toplevel = pointer.window, toplevel.isMapped,
              !declaresRegions(toplevel), let pid = toplevel.adaptedProcessID else { return [:] }
        let window = self.window(toplevel)
        if window.pointerCameAt == nil {
            window.pointerCameAt = now
            // For `make bench`: elements walked before the pointer came adapt on its first frame.
            if !window.elements.isEmpty {
                log.debug("accessibility: \(window.elements.count) elements of '\(toplevel.title)' ready when the pointer came (\(window.walkedAt.map { "walked \(Int((now - $0) * 1000)) ms before" } ?? "first walk going on"))")
            }
        }
        let frame = toplevel.adaptedFrame
        if (frame.width, frame.height) != window.size { window.stale = true }
        if window.stale || (window.walkedAt.map { now - $0 > Self.lifetime } ?? true) { refresh(window, pid: pid) }
        // Come while the window's walk goes on: what is under the pointer is asked first.
        if window.walk != nil { queryPointDuringWalk(window) }

        let placement = SurfacePlacement(origin: frame.origin)
        var elements = window.elements
        var measured = false
        if elements.isEmpty, pointer.cursorIsText, let terminal = textRows(window, toplevel) {
            // No geometry published, but text: a terminal's rows, measured from its pixels.
            let rows = terminal.rows, (w, h) = terminal.surfaceSize, (gx, gy) = terminal.geometryOffset
            elements = [AccessibleElement(kind: .text(lineHeight: rows.pitch, singleLine: false), x: -gx,
                                          y: rows.origin - gy, width: w, height: h - rows.origin, depth: 0)]
            measured = true
        }
        while window.regionIDs.count < elements.count { window.regionIDs.append(allocate()) }
        let fresh = isFresh(window)
        var placed: [RegionID: AdaptedRegion] = [:]
        for (element, id) in zip(elements, window.regionIDs) {
            var draft = Self.draft(element)
            // A guess from pixels sizes the beam but never holds the pointer in the window.
            if measured { draft.magnetism = .off }
            var region = placement.toGlobal(draft.localRegion(id: id, owner: window.owner))
            region.stackingOrder = Int32(clamping: element.depth)
            // Not the pointer's form until the app confirms it is still there (`confirm`), unless just read.
            region.awaitsConfirmation = element.source.map { !confirmed.contains($0) && !fresh } ?? false
            // A region under a popup or another window must not capture the pointer.
            if covered(region.frame.center, toplevel) { continue }
            placed[id] = AdaptedRegion(region: region, draft: draft, placement: placement)
        }
        return placed
    }

    /// What the window's last walk found at `point` (global), for Scribble: nil when it knows
    /// nothing there (no walk, or no element), else the deepest element's global extents and
    /// whether the pen may write in it (`AccessibleElement.writable`: editable text that is no
    /// password field; a button, a label or a password field is not).
    package func writableText(in toplevel: AdaptedWindow, at point: Point<Global>) -> (x: Double, y: Double, width: Double, height: Double, writable: Bool)? {
        guard enabled, let window = windows[ObjectIdentifier(toplevel)] else { return nil }
        let origin = toplevel.adaptedFrame.origin
        let (x, y) = (point.x - origin.x, point.y - origin.y)
        let hit = window.elements.filter { $0.x <= x && x < $0.x + $0.width && $0.y <= y && y < $0.y + $0.height }
            .max { $0.depth < $1.depth }
        guard let hit else { return nil }
        return (hit.x + origin.x, hit.y + origin.y, hit.width, hit.height, hit.writable)
    }

    /// Whether the window, walked before, is being walked again (its tree changed): until the
    /// walk is done, what is under a point may be missing from `writableText`.
    package func isRereading(_ toplevel: AdaptedWindow) -> Bool {
        guard enabled, let window = windows[ObjectIdentifier(toplevel)] else { return false }
        return window.walk != nil && window.walkedAt != nil
    }

    func window(_ toplevel: AdaptedWindow) -> AppWindow {
        if let w = windows[ObjectIdentifier(toplevel)] { return w }
        let w = AppWindow(toplevel, owner: SurfaceID(nextOwner))
        nextOwner += 1
        windows[ObjectIdentifier(toplevel)] = w
        return w
    }

    /// The apps' signals, gathered (`invalidate`, Accessibility+Refresh.swift).
    var invalidationTimer: EventSource?
    var invalidationPending = false
    static let invalidationDelay = 0.05

    /// The elements the app confirmed where the pointer rests (`AccessiblePointerCheck`).
    var confirmed: Set<AccessibleElement.Source> = []
    /// The element being confirmed, and the point query looking for what replaced one.
    var checking: AccessibleElement.Source?
    /// Elements whose extents the app contradicted: never the pointer's form.
    var refuted: Set<AccessibleElement.Source> = []
    var pointQuery: AccessiblePointQuery?
    /// Where the last point query was asked (global): one per place the pointer rests on.
    var lastQueried: (x: Double, y: Double)?
    /// No element is confirmed before this (a key just went to the app: what it scrolls moves late).
    var settleUntil = 0.0
    var settleTimer: EventSource?
    /// When the last key went to an app: what was read before it may have scrolled.
    var lastKeyAt = 0.0
    /// The region the pointer last took the form of (`shown`).
    var lastShown: RegionID?
    /// Times what the pointer rests on is asked again after a key (`scrollRereads`).
    var keyRereads = 0

    /// The session bus is dropped from the loop with this (`closeSessionBusSoon`).
    var idle: EventSource?
}
