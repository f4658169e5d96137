/// When a window's elements are read again: as it is shown (before the pointer comes), when
/// the app signals a change (at most once per `invalidationDelay`) and after a scroll.
extension Accessibility {
    // MARK: Walking before the pointer comes

    /// A window mapped or gained the keyboard: its elements are read now (unless fresh),
    /// so that they are there when the pointer comes.
    package func windowShown(_ shown: AdaptedWindow) {
        guard enabled, shown.isMapped, let pid = shown.adaptedProcessID, !declaresRegions(shown) else { return }
        let window = self.window(shown)
        let g = shown.adaptedFrame
        if (g.width, g.height) != window.size { window.stale = true }
        guard window.stale || (window.walkedAt.map { now - $0 > Self.lifetime } ?? true) else { return }
        refresh(window, pid: pid)
    }

    /// The host's window is gone: what was known of it goes (its regions with the next gathering).
    package func windowGone(_ gone: AdaptedWindow) {
        guard let window = windows.removeValue(forKey: ObjectIdentifier(gone)) else { return }
        window.walk?.cancel()
        window.walk = nil
    }

    /// How many elements of `window` are known (walked, or found by a point query).
    package func elementCount(_ toplevel: AdaptedWindow) -> Int { windows[ObjectIdentifier(toplevel)]?.elements.count ?? 0 }

    /// Walks again every known window the app changed (or whose app was missing), pointer or not.
    func refreshStale() {
        windows = windows.filter { $0.value.toplevel != nil }
        for window in windows.values where window.stale {
            guard let toplevel = window.toplevel, toplevel.isMapped,
                  let pid = toplevel.adaptedProcessID, !declaresRegions(toplevel) else { continue }
            // An app that signals all the time (a blinking caret, a progress bar) is not walked without pause.
            if let at = window.walkedAt, now - at < Self.rewalkInterval {
                recheck(after: Self.rewalkInterval)
                continue
            }
            refresh(window, pid: pid)
        }
    }

    /// Looks again (re-places the regions) after `seconds`: for what comes without a signal.
    func recheck(after seconds: Double) {
        if recheckTimer == nil {
            recheckTimer = try? loop.addTimer { [weak self] in
                self?.refreshStale()
                self?.changed()
            }
        }
        recheckTimer?.arm(milliseconds: Int32(seconds * 1000))
    }

    // MARK: Invalidation

    /// An app's signal that its windows changed. Apps may send thousands a second (issue 24):
    /// the scene is looked at again once per `invalidationDelay`, not once per signal.
    func invalidate(app: String) {
        var any = false
        for window in windows.values where window.frame?.bus == app {
            window.stale = true
            any = any || window.toplevel != nil
        }
        guard any, !invalidationPending else { return }
        if invalidationTimer == nil {
            invalidationTimer = try? loop.addTimer { [weak self] in
                guard let self else { return }
                self.invalidationPending = false
                self.refreshStale()
                self.changed()
            }
        }
        guard let invalidationTimer else { return changed() }
        invalidationPending = true
        invalidationTimer.arm(milliseconds: Int32(Self.invalidationDelay * 1000))
    }
    /// The pointer scrolled `scrolled`'s window: what moved with the page (a web page's links, a list's
    /// rows) must not be targeted where it was (issue 27). Whatever the toolkit signals or not,
    /// the window's elements are dropped now and read again once the scrolling has paused for
    /// `scrollSettle` s.
    package func scrolled(_ toplevel: AdaptedWindow) {
        guard enabled, let window = windows[ObjectIdentifier(toplevel)] else { return }
        window.walk?.cancel()
        window.walk = nil
        window.stale = true
        window.notBefore = now + Self.scrollSettle
        window.scrollRereads = Self.scrollRereads
        if !window.elements.isEmpty {
            window.walked = []
            window.probe = []
            changed()
        }
        recheck(after: Self.scrollSettle)
    }
    static let scrollSettle = 0.15
    /// Chromium moves its accessible tree some hundreds of milliseconds after the page: after
    /// a scroll the window is read this many more times, `scrollRereadInterval` s apart.
    static let scrollRereads = 2, scrollRereadInterval = 0.3
}
