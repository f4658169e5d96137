import AdaptivePointerEngine
import WaylandServer

/// The element under the pointer is read again before the pointer takes its form (issue 27:
/// stale extents must never target the wrong element). An accessibility region that may be
/// stale (not `isFresh`) is placed awaiting confirmation (`Region.awaitsConfirmation`): the engine targets it but keeps its
/// untargeted form. The one the pointer comes onto is asked for its extents again
/// (`GetExtents`, one call per element the pointer rests on); when they are still the ones
/// cached, the pointer takes its form; when they moved (or the node is gone), the window's
/// elements are dropped, the element now at the pointer is asked of the app
/// (`AccessiblePointQuery`) and the window is walked again. A key sent to an app may scroll
/// it (Page Down) without any signal: what the pointer rests on is confirmed again once the
/// app has had `keySettle` s, and when nothing cached is there, the app is asked what is.
extension Accessibility {
    /// After a key, what the pointer rests on is asked again this much later: the app
    /// scrolls after the key reaches it, and its accessible tree follows.
    static let keySettle = 0.15
    /// The pointer this far (px) from where a point query was asked cancels it.
    static let pointQueryReach = 4.0

    /// Whether the window's walked elements need no confirmation: read within `lifetime` (the
    /// time a walk is trusted without a signal) and after the last key. Everything else that
    /// moves elements (scrolls, the toolkit's bounds and children events, a resize) drops them
    /// and walks again; a key may scroll without a signal, and an older walk may be out of
    /// date. A confirmation is a round trip to the app, which waits behind whatever the app is
    /// doing (60 ms for an idle-looking gtk4-widget-factory in one run): asked for every
    /// element, it cost the next-frame target.
    func isFresh(_ window: AppWindow) -> Bool {
        window.readAt.map { now - $0 < Self.lifetime && $0 >= lastKeyAt } ?? false
    }

    /// The pointer took the form of region `id` (the seat, after each step): a fresh element
    /// it shows counts as confirmed for this rest position, so it keeps its form when the
    /// reading ages.
    package func shown(_ id: RegionID?) {
        guard id != lastShown else { return }
        lastShown = id
        guard let id, let (window, element) = element(of: id), let source = element.source else { return }
        // Most often the walk was fresh and no round trip was needed: `make bench` hears that too.
        adapted(window, "at once: its walk is fresh")
        guard !confirmed.contains(source), isFresh(window) else { return }
        confirmed = [source]
    }

    /// The window and element placed as region `id`.
    func element(of id: RegionID) -> (AppWindow, AccessibleElement)? {
        for window in windows.values {
            let elements = window.elements
            guard let i = window.regionIDs.firstIndex(of: id), i < elements.count else { continue }
            return (window, elements[i])
        }
        return nil
    }

    /// The pointer came onto region `id` (the seat, from the engine's answer): if it is an
    /// app's element not yet confirmed, its extents are asked again.
    package func confirm(_ id: RegionID) {
        guard enabled, let (window, element) = element(of: id), let source = element.source,
              !confirmed.contains(source), checking != source, !refuted.contains(source), let bus else { return }
        guard now >= settleUntil else { return armSettle() }
        // One rest position at a time: what the pointer left is confirmed again when it comes back.
        confirmed = []
        checking = source
        let asked = now
        bus.call(source.app, source.path, "org.a11y.atspi.Component", "GetExtents", [.uint32(0)]) { [weak self, weak window] result in
            guard let self else { return }
            if self.checking == source { self.checking = nil }
            let extents = (try? result.get()).flatMap { m in
                m.container("r", "iiii") { () -> (Double, Double, Double, Double)? in
                    guard let x = m.readInt32(), let y = m.readInt32(), let w = m.readInt32(), let h = m.readInt32() else { return nil }
                    return (Double(x), Double(y), Double(w), Double(h))
                }
            }
            if let e = extents, abs(e.0 - source.x) <= 1, abs(e.1 - source.y) <= 1, abs(e.2 - source.width) <= 1, abs(e.3 - source.height) <= 1 {
                self.confirmed.insert(source)
                if let window { self.adapted(window, "confirmed in \(Int((self.now - asked) * 1000)) ms") }
                self.changed()
            } else if let window {
                if self.refuted.count > 256 { self.refuted = [] }
                self.refuted.insert(source)
                self.log.debug("accessibility: an element under the pointer in '\(window.toplevel?.title ?? "")' moved (\(Int(source.x)),\(Int(source.y)) \(Int(source.width))×\(Int(source.height)) → \(extents.map { "\(Int($0.0)),\(Int($0.1)) \(Int($0.2))×\(Int($0.3))" } ?? "gone")): read again")
                self.moved(window)
            }
        }
    }

    /// The window's cached elements are stale: dropped now for `found` (what the app says is
    /// at the pointer, when known; else it is asked), the window walked again.
    func moved(_ window: AppWindow, found: [AccessibleElement] = []) {
        window.walk?.cancel()
        window.walk = nil
        window.walked = []
        window.probe = found
        window.stale = true
        // An element that moves all the time (an animation) is not walked without pause.
        window.notBefore = max(now, (window.walkedAt ?? 0) + Self.rewalkInterval)
        changed()
        guard let toplevel = window.toplevel, let pid = toplevel.adaptedProcessID else { return }
        if now >= window.notBefore { refresh(window, pid: pid) } else { recheck(after: window.notBefore - now) }
    }

    /// A key went to an app: what the pointer rests on is confirmed again after `keySettle`.
    package func keyPressed() {
        guard enabled, pointer.window != nil else { return }
        confirmed = []
        checking = nil
        settleUntil = now + Self.keySettle
        lastKeyAt = now
        lastShown = nil
        keyRereads = Self.scrollRereads
        changed()
        armSettle()
    }

    private func armSettle() {
        if settleTimer == nil {
            settleTimer = try? loop.addTimer { [weak self] in self?.settled() }
        }
        settleTimer?.arm(milliseconds: Int32(max(1, (settleUntil - now) * 1000).rounded(.up)))
    }

    /// The app had time to scroll: the element the pointer is on is confirmed; when none
    /// awaits, the app is asked what is there, and an answer other than the cache's means it
    /// moved. Asked again `scrollRereads` times: Chromium's tree follows its page late.
    private func settled() {
        guard now >= settleUntil else { return armSettle() }
        defer {
            if keyRereads > 0 {
                keyRereads -= 1
                settleUntil = now + Self.scrollRereadInterval
                armSettle()
            }
        }
        if let id = pointer.awaitingConfirmation { return confirm(id) }
        guard let toplevel = pointer.window, let window = windows[ObjectIdentifier(toplevel)], !window.elements.isEmpty else { return }
        let cached = cachedUnderPointer(window)
        queryPoint(window) { [weak self, weak window] found in
            guard let self, let window, let found else { return }
            let sources = Set(found.compactMap(\.source))
            let deepest = cached.max { $0.depth < $1.depth }?.source
            let same = sources.isSubset(of: Set(cached.compactMap(\.source))) && deepest.map { sources.contains($0) } ?? sources.isEmpty
            guard !same else { return }
            self.log.debug("accessibility: another element under the pointer in '\(window.toplevel?.title ?? "")' after a key: read again")
            self.moved(window, found: found)
        }
    }

    /// The cached elements of `window` under the pointer.
    func cachedUnderPointer(_ window: AppWindow) -> [AccessibleElement] {
        guard let toplevel = window.toplevel else { return [] }
        let (x, y) = pointerInWindow(toplevel)
        return window.elements.filter { x >= $0.x - 1 && x < $0.x + $0.width + 1 && y >= $0.y - 1 && y < $0.y + $0.height + 1 }
    }

    /// The pointer in `toplevel`'s window coordinates (from its geometry's origin).
    private func pointerInWindow(_ toplevel: AdaptedWindow) -> (x: Double, y: Double) {
        let p = pointer.device, o = toplevel.adaptedFrame.origin
        return (p.x - o.x, p.y - o.y)
    }

    /// Asks the app what is under the pointer in `window` (`AccessiblePointQuery`); what it
    /// finds is confirmed as it is (just read) and handed to `found` in window coordinates
    /// (nil: the app could not tell).
    func queryPoint(_ window: AppWindow, _ found: @escaping ([AccessibleElement]?) -> Void) {
        guard let bus, let frame = window.frame, let toplevel = window.toplevel, pointQuery == nil else { return }
        let started = now
        let p = pointer.device
        let g = toplevel.adaptedFrame, local = pointerInWindow(toplevel)
        guard local.x >= 0, local.y >= 0, local.x < Double(g.width), local.y < Double(g.height) else { return }
        lastQueried = (p.x, p.y)
        pointQuery = AccessiblePointQuery(bus: bus, app: frame.bus, frame: frame.path, at: (p.x, p.y), locate: { w, h in
            let inset = Self.decorationInset(size: (g.width, g.height), frame: (w, h))
            return (local.x - inset.x, local.y - inset.y)
        }) { [weak self, weak window] elements, frameSize in
            guard let self else { return }
            let levels = self.pointQuery?.levels ?? 0
            self.pointQuery = nil
            guard let window else { return }
            self.log.debug("accessibility: point query in '\(toplevel.title)': \(levels) levels, \(elements.map { "\($0.count) elements" } ?? "no answer"), \(Int((self.now - started) * 1000)) ms")
            guard let elements else { return found(nil) }
            let placed = self.placedInWindow(elements, window, frameSize: frameSize)
            for e in placed { if let s = e.source { self.confirmed.insert(s) } }
            found(placed)
        }
    }

    /// The element under the pointer while the window's walk goes on and has not reached it
    /// (its first hover): asked of the app, placed and confirmed at once, until the walk
    /// brings it. Asked once per place the pointer rests on, per walk.
    func queryPointDuringWalk(_ window: AppWindow) {
        guard window.walk != nil, let toplevel = window.toplevel, pointer.window === toplevel,
              cachedUnderPointer(window).isEmpty else { return }
        let p = pointer.device
        // The rest of the walk reads the branch under the pointer first.
        window.walk?.pointer = (p.x - toplevel.adaptedFrame.origin.x, p.y - toplevel.adaptedFrame.origin.y)
        if let q = lastQueried, abs(p.x - q.x) <= Self.pointQueryReach, abs(p.y - q.y) <= Self.pointQueryReach { return }
        let started = now
        queryPoint(window) { [weak self, weak window] found in
            guard let self, let window, window.walk != nil, let found, !found.isEmpty else { return }
            self.log.debug("accessibility: \(found.count) elements under the pointer in '\(window.toplevel?.title ?? "")' from a point query in \(Int((self.now - started) * 1000)) ms")
            window.probe = found
            self.adapted(window, "point query, the walk going on")
            self.changed()
        }
    }

    /// The pointer moved: a point query asked elsewhere is cancelled.
    package func pointerMoved(to p: Point<Global>) {
        guard let query = pointQuery, abs(p.x - query.point.x) > Self.pointQueryReach || abs(p.y - query.point.y) > Self.pointQueryReach else { return }
        query.cancel()
        pointQuery = nil
    }

    /// For `make bench`: the first time the pointer took the form of one of the window's
    /// elements, how long after it came onto the window.
    func adapted(_ window: AppWindow, _ how: String) {
        guard let came = window.pointerCameAt, !window.adaptedLogged else { return }
        window.adaptedLogged = true
        log.debug("accessibility: the pointer adapts to an element of '\(window.toplevel?.title ?? "")' \(Int((now - came) * 1000)) ms after it came (\(how))")
    }
}
