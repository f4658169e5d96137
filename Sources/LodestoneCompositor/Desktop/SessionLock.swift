import Rendering
import WaylandServer

/// The session lock (ext_session_lock_v1, `Protocols/ExtSessionLockManager.swift`).
///
/// A `lock` request locks the session at once: the scene shows only an opaque fill over
/// every head (`LockedScreen`), no window is drawn or hit, the seat's grabs end and the
/// keyboard leaves every window. `locked` goes to the locker once a frame with the fill has
/// been composed on every head. Each head then shows the locker's lock surface for it once
/// one is committed, over the fill; a head plugged in meanwhile shows the fill until the
/// locker makes one for its new wl_output. A locker that never draws leaves the fill.
///
/// Only `unlock_and_destroy` unlocks. A locker that dies, or is disconnected for a protocol
/// error, leaves the session locked behind the fill ("abandoned"); a new locker may then
/// lock, and its `locked` comes at once. While a live locker holds the session, another's
/// `lock` gets `finished`. A lock destroyed before its `locked` (the locker changed its
/// mind) unlocks, as no locker ever took the screen, unless it took over an abandoned one.
final class SessionLock {
    unowned let compositor: Compositor
    /// The lock that holds the session: nil when unlocked or abandoned.
    private(set) weak var owner: ExtSessionLock?
    /// The owner took a session its dead locker had left locked: withdrawing its lock before
    /// `locked` leaves the session locked (only a lock that locked the session may lift it so).
    private var ownerTookOver = false
    /// The screen is covered (owned or abandoned).
    var isLocked: Bool { compositor.scene.lock != nil }
    /// Heads not yet composed with the lock since it began: `locked` waits for them.
    private var headsToCover: [ObjectIdentifier] = []
    /// The keyboard's window before the lock (or the window activated meanwhile): it gets
    /// the keyboard back at unlock.
    private weak var focusAfterUnlock: WlSurface?
    /// 0xAARRGGBB: opaque black, what a head shows where no lock surface is.
    static let fillPixel: UInt32 = 0xff00_0000
    private let fill: Image = {
        let image = Image(width: 1, height: 1, format: .xrgb8888)
        image.withPixels { $0[0] = SessionLock.fillPixel }
        return image
    }()

    init(compositor: Compositor) { self.compositor = compositor }

    func nextSerial() -> UInt32 { compositor.display.nextSerial() }

    // MARK: Requests

    /// `lock`: granted unless a live locker holds the session.
    func lockRequested(_ lock: ExtSessionLock) {
        if owner != nil {
            compositor.log.info("session lock: refused a second locker (pid \(lock.client.pid)): another holds the session")
            return lock.sendFinished()
        }
        owner = lock
        ownerTookOver = isLocked
        if isLocked {
            compositor.log.info("session lock: a new locker (pid \(lock.client.pid)) took the locked session")
            coverChanged()
        } else {
            compositor.log.info("session lock: locked by pid \(lock.client.pid)")
            engage()
        }
        if headsToCover.isEmpty { lock.sendLocked() }
    }

    /// `unlock_and_destroy` (after `locked`): the desktop comes back.
    func unlockRequested(by lock: ExtSessionLock) {
        guard lock === owner else { return }
        compositor.log.info("session lock: unlocked by pid \(lock.client.pid)")
        disengage()
    }

    /// The lock object went: by `unlock_and_destroy` (already unlocked), by `destroy` before
    /// `locked` (the lock is withdrawn), or with its client (abandoned: stays locked).
    func lockDestroyed(_ lock: ExtSessionLock) {
        guard lock === owner, isLocked else { return }
        owner = nil
        if lock.destroyedByRequest && !lock.sentLocked && !ownerTookOver {
            compositor.log.info("session lock: withdrawn before it was locked (pid \(lock.client.pid))")
            return disengage()
        }
        compositor.log.warning("session lock: the locker (pid \(lock.client.pid)) went without unlocking; the session stays locked until a new locker unlocks it")
        coverChanged()
    }

    /// A lock surface's first buffer: shown if its lock holds the session (a lock surface
    /// of a lock already unlocked, or refused, is never shown). With no lock surface
    /// holding the keyboard, the first one shown gets it (`coverChanged`).
    func lockSurfaceMapped(_ surface: ExtSessionLockSurface) {
        guard owner != nil else { return }
        coverChanged()
    }

    func lockSurfaceDestroyed(_ surface: ExtSessionLockSurface) {
        guard isLocked else { return }
        coverChanged()
    }

    // MARK: Locking

    private func engage() {
        let seat = compositor.seat!
        focusAfterUnlock = seat.keyboard.focus
        headsToCover = compositor.layout.heads.map(ObjectIdentifier.init)
        compositor.scene.lock = LockedScreen(covers: [], fill: fill)
        seat.sessionLocked()
        coverChanged()
        compositor.frames.sessionLock = self
    }

    private func disengage() {
        owner = nil
        headsToCover = []
        compositor.frames.sessionLock = nil
        compositor.scene.lock = nil
        compositor.output.damageAll()
        compositor.scene.changed(.layout)
        // The window that had the keyboard (or was activated meanwhile) has it again.
        let desktop = compositor.desktop!
        if let surface = focusAfterUnlock, compositor.origin(of: surface) != nil {
            compositor.seat.setKeyboardFocus(surface)
        } else if let window = compositor.scene.windows.last {
            desktop.activate(window)
        } else {
            compositor.seat.setKeyboardFocus(nil)
        }
        compositor.scheduleFrame()
    }

    /// While locked, a window that would take the keyboard gets it at unlock instead.
    func focusDeferred(_ surface: WlSurface?) { if let surface { focusAfterUnlock = surface } }

    /// What each head shows changed (a lock surface came or went, a head came or went, a
    /// new locker): the scene's covers follow, every head is redrawn, and what is under the
    /// pointer is found again.
    private func coverChanged() {
        guard compositor.scene.lock != nil else { return }
        let surfaces = owner?.mappedSurfaces ?? []
        compositor.scene.lock?.covers = compositor.layout.heads.map { head in
            LockedScreen.Cover(bounds: head.bounds, surface: surfaces.first { $0.head === head }?.surface)
        }
        // A keyboard focus whose lock surface is no longer shown moves to one that is.
        if let focus = compositor.seat.keyboard.focus, compositor.scene.lock?.shows(focus) != true {
            compositor.seat.setKeyboardFocus(nil)
        }
        if compositor.seat.keyboard.focus == nil, let first = compositor.scene.lock?.covers.lazy.compactMap(\.surface).first {
            compositor.seat.setKeyboardFocus(first)
        }
        compositor.scene.forEachMappedRoot(compositor.updateOutputs)
        compositor.output.damageAll()
        compositor.scene.changed(.layout)
        compositor.scheduleFrame()
    }

    /// Heads came, went or changed size: lock surfaces are configured to their head's size.
    func layoutChanged() {
        guard isLocked else { return }
        for surface in owner?.surfaces.compactMap(\.value) ?? [] { surface.configure() }
        headsToCover.removeAll { id in !compositor.layout.heads.contains { ObjectIdentifier($0) == id } }
        coverChanged()
        if headsToCover.isEmpty { owner?.sendLocked() }
    }

    /// A frame was composed (`Frames.present`): the heads it drew are covered. Once every
    /// head is, the locker hears `locked`.
    func framePresented(damage: PixelRegion) {
        let output = compositor.output
        headsToCover.removeAll { id in
            guard let head = compositor.layout.heads.first(where: { ObjectIdentifier($0) == id }) else { return true }
            return damage.intersects(output.pixels(logical: head.bounds))
        }
        guard headsToCover.isEmpty else { return }
        compositor.frames.sessionLock = nil
        owner?.sendLocked()
    }
}
