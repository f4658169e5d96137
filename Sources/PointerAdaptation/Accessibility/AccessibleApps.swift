import LodestoneSystem
import Logging
import AdaptivePointerProtocol
import AdaptivePointerEngine
import Rendering
import WaylandServer

/// Finding the AT-SPI app of a window (by PID, from the registry's list), its frame (by title,
/// size, or as the only one) and walking it (`AccessibleWalk`), then keeping what the walk
/// found while it is fresh.
extension Accessibility {
    func refresh(_ window: AppWindow, pid: Int32) {
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
            // The pointer on this window: its branch of the tree is read first.
            let pointer = self.pointer.window === window.toplevel ? window.toplevel.map { t in
                (x: self.pointer.device.x - t.adaptedFrame.origin.x, y: self.pointer.device.y - t.adaptedFrame.origin.y)
            } : nil
            window.walk = AccessibleWalk(bus: bus, app: app, window: frame.path, pointer: pointer) { [weak self, weak window] elements, frameSize in
                guard let self, let window else { return }
                let nodes = window.walk?.nodes ?? 0, limit = window.walk?.limitReached, lies = window.walk?.liesSeen ?? 0
                window.walk = nil
                let wakeUp = bus.takeLongestWakeUp()
                // Each walk, for the tests of lying apps: what it cost, and which bound ended it.
                self.log.debug("accessibility: walked '\(window.toplevel?.title ?? "")': \(nodes) nodes, \(elements.count) elements, \(Int((self.now - started) * 1000)) ms, longest wake-up \(twoDecimals(wakeUp.wall * 1000)) ms wall, \(twoDecimals(wakeUp.cpu * 1000)) ms CPU\(limit.map { ", stopped at the \($0)" } ?? "")\(lies > 0 ? ", \(lies) extents that lie (read again in \(Self.lieRecheck) s)" : "")")
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
                    self.log.debug("accessibility: \(elements.count) elements of '\(window.toplevel?.title ?? "")' in place \(Int((self.now - came) * 1000)) ms after the pointer came; walk of \(nodes) nodes in \(Int((self.now - started) * 1000)) ms, \(trips.count) calls, round trip median \(twoDecimals(median * 1000)) ms, p99 \(twoDecimals(p99 * 1000)) ms")
                }
                window.readAt = started
                if elements != window.walked || !window.probe.isEmpty {
                    window.walked = elements
                    window.probe = []
                    self.changed()
                }
                self.armLifetime()
            }
            // A window with no elements yet takes them as they come.
            window.walk?.progress = { [weak self, weak window] elements, frameSize in
                guard let self, let window, window.walkedAt == nil, elements.count > window.walked.count else { return }
                if window.elements.isEmpty, let came = window.pointerCameAt {
                    self.log.debug("accessibility: \(elements.count) elements of '\(window.toplevel?.title ?? "")' in place \(Int((self.now - came) * 1000)) ms after the pointer came; walk going on, \(Int((self.now - started) * 1000)) ms in")
                }
                window.walked = self.placedInWindow(elements, window, frameSize: frameSize)
                window.readAt = started
                self.changed()
            }
            // The element under the pointer comes first, asked of the app (a window just mapped;
            // a page loaded since the last walk): once per walk where the pointer rests.
            self.lastQueried = nil
            self.queryPointDuringWalk(window)
        }
        _ = bus
    }

    /// A walk's elements in the window geometry, grown to their drawn outlines.
    func placedInWindow(_ elements: [AccessibleElement], _ window: AppWindow, frameSize: (Double, Double)) -> [AccessibleElement] {
        guard let toplevel = window.toplevel else { return elements }
        var elements = elements
        let g = toplevel.adaptedFrame, pixels = toplevel.adaptedPixels
        window.size = (g.width, g.height)
        let inset = Self.decorationInset(size: (g.width, g.height), frame: frameSize)
        for i in elements.indices {
            elements[i].x += inset.x
            elements[i].y += inset.y
            if let pixels { Self.outline(&elements[i], in: pixels) }
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
    func findFrame(of window: AppWindow, app: String, _ found: @escaping (DBusObject?) -> Void) {
        guard let bus, let toplevel = window.toplevel else { return found(nil) }
        let title = toplevel.title, g = toplevel.adaptedFrame
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
    func listApps() {
        guard let bus, state == .connected, !listingApps else { return }
        listingApps = true
        let askedAt = now
        bus.call("org.a11y.atspi.Registry", "/org/a11y/atspi/accessible/root", "org.a11y.atspi.Accessible", "GetChildren") { [weak self] result in
            guard let self, let bus = self.bus else { return }
            self.appsListedAt = self.now
            guard let m = try? result.get(), let apps = m.array("(so)", { m.readObject() }) else {
                guard case .failure(let error) = result else { self.listingApps = false; return }
                // Silent since the first unanswered question was asked, not since its timeout.
                let since = self.registrySilentSince ?? askedAt
                self.registrySilentSince = since
                guard self.now - since >= Self.registryPatience else {
                    self.log.debug("accessibility: the AT-SPI registry did not answer (\(error)): asking again")
                    // A try lasts at least a call's timeout, and no other listing goes out
                    // meanwhile: a bus without the registry's name yet refuses at once
                    // (ServiceUnknown), and asking again at once made 56,000 calls in the 10 s.
                    let timeout = Double(DBusConnection.callTimeout) / 1_000_000
                    return self.listAppsAgain(after: timeout - (self.now - askedAt))
                }
                self.listingApps = false
                self.giveUp("the AT-SPI registry did not answer for \(Int(Self.registryPatience)) s (\(error))")
                return
            }
            self.registrySilentSince = nil
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
                        self.changed()
                    }
                }
            }
        }
    }

    /// Lists the registry's applications again after `seconds` (at once when not positive);
    /// until then `listingApps` stays set, so a window waiting for its app lists nothing.
    func listAppsAgain(after seconds: Double) {
        if seconds > 0, registryRetryTimer == nil {
            registryRetryTimer = try? loop.addTimer { [weak self] in
                self?.listingApps = false
                self?.listApps()
            }
        }
        guard seconds > 0, let registryRetryTimer else {
            listingApps = false
            return listApps()
        }
        registryRetryTimer.arm(milliseconds: max(1, Int32(seconds * 1000)))
    }

    /// While the pointer is on a walked window, its elements are re-read every `lifetime`.
    func armLifetime() {
        if lifetimeTimer == nil {
            lifetimeTimer = try? loop.addTimer { [weak self] in
                guard let self else { return }
                self.windows = self.windows.filter { $0.value.toplevel != nil }
                self.changed()
            }
        }
        lifetimeTimer?.arm(milliseconds: Int32(Self.lifetime * 1000))
    }
}

/// `x` with two decimals ("%.2f"), for the walk's log lines, without Foundation.
func twoDecimals(_ x: Double) -> String {
    guard x.isFinite else { return "\(x)" }
    let hundredths = Int((abs(x) * 100).rounded())
    let fraction = hundredths % 100
    return "\(x < 0 && hundredths > 0 ? "-" : "")\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
}
