import Logging
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
///
/// It covers the scene and reads the keyboard's focus itself; what the seat, the desktop
/// and the frames must do it returns as `Effect`s, which the lock's handlers have the core
/// apply, in order (`SessionLockHost`), as the outputs' owner does after a layout change.
final class SessionLock {
    private let scene: Scene
    private let layout: OutputLayout
    private let output: Output
    private let keyboard: KeyboardFocus
    private let clock: FrameClock
    private let display: Display
    private let log: Logger
    /// The lock that holds the session: nil when unlocked or abandoned.
    private(set) weak var owner: ExtSessionLock?
    /// The owner took a session its dead locker had left locked: withdrawing its lock before
    /// `locked` leaves the session locked (only a lock that locked the session may lift it so).
    private var ownerTookOver = false
    /// The screen is covered (owned or abandoned).
    var isLocked: Bool { scene.lock != nil }
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

    init(scene: Scene, layout: OutputLayout, output: Output, keyboard: KeyboardFocus, clock: FrameClock, display: Display, log: Logger) {
        self.scene = scene
        self.layout = layout
        self.output = output
        self.keyboard = keyboard
        self.clock = clock
        self.display = display
        self.log = log
    }

    /// What the lock asks of the rest of the session, applied in order by its owner.
    enum Effect {
        /// The seat ends its grabs and no window keeps the pointer or the keyboard (`Seat.sessionLocked`).
        case seatLocked
        /// The keyboard goes to the surface, or to none (`Seat.setKeyboardFocus`).
        case keyboardFocus(WlSurface?)
        /// The window comes forward with the keyboard (`Desktop.activate`).
        case activate(DesktopWindow)
        /// The keyboard moves onto a lock surface shown (`keyboardOntoCover`), read then: the
        /// effects before it may have moved it.
        case keyboardOntoCover
        /// The frames report what they compose (`framePresented`) from now on, or no longer.
        case watchFrames(Bool)
        /// The locker hears `locked` if every head is covered now (`sendLockedIfCovered`).
        case lockedIfCovered
    }

    func nextSerial() -> UInt32 { display.nextSerial() }

    // MARK: Requests

    /// `lock`: granted unless a live locker holds the session.
    func lockRequested(_ lock: ExtSessionLock) -> [Effect] {
        if owner != nil {
            log.info("session lock: refused a second locker (pid \(lock.client.pid)): another holds the session")
            lock.sendFinished()
            return []
        }
        owner = lock
        ownerTookOver = isLocked
        let effects: [Effect]
        if isLocked {
            log.info("session lock: a new locker (pid \(lock.client.pid)) took the locked session")
            effects = coverChanged()
        } else {
            log.info("session lock: locked by pid \(lock.client.pid)")
            effects = engage()
        }
        return effects + [.lockedIfCovered]
    }

    /// `unlock_and_destroy` (after `locked`): the desktop comes back.
    func unlockRequested(by lock: ExtSessionLock) -> [Effect] {
        guard lock === owner else { return [] }
        log.info("session lock: unlocked by pid \(lock.client.pid)")
        return disengage()
    }

    /// The lock object went: by `unlock_and_destroy` (already unlocked), by `destroy` before
    /// `locked` (the lock is withdrawn), or with its client (abandoned: stays locked).
    func lockDestroyed(_ lock: ExtSessionLock) -> [Effect] {
        guard lock === owner, isLocked else { return [] }
        owner = nil
        if lock.destroyedByRequest && !lock.sentLocked && !ownerTookOver {
            log.info("session lock: withdrawn before it was locked (pid \(lock.client.pid))")
            return disengage()
        }
        log.warning("session lock: the locker (pid \(lock.client.pid)) went without unlocking; the session stays locked until a new locker unlocks it")
        return coverChanged()
    }

    /// A lock surface's first buffer: shown if its lock holds the session (a lock surface
    /// of a lock already unlocked, or refused, is never shown). With no lock surface
    /// holding the keyboard, the first one shown gets it (`coverChanged`).
    func lockSurfaceMapped(_ surface: ExtSessionLockSurface) -> [Effect] {
        guard owner != nil else { return [] }
        return coverChanged()
    }

    func lockSurfaceDestroyed(_ surface: ExtSessionLockSurface) -> [Effect] {
        guard isLocked else { return [] }
        return coverChanged()
    }

    // MARK: Locking

    private func engage() -> [Effect] {
        focusAfterUnlock = keyboard.focus
        headsToCover = layout.heads.map(ObjectIdentifier.init)
        scene.lock = LockedScreen(covers: [], fill: fill)
        // The seat lets go of the windows before the covers are shown.
        return [.seatLocked] + coverChanged() + [.watchFrames(true)]
    }

    private func disengage() -> [Effect] {
        owner = nil
        headsToCover = []
        scene.lock = nil
        output.damageAll()
        scene.changed(.layout)
        clock.schedule()
        // The window that had the keyboard (or was activated meanwhile) has it again.
        let focus: Effect
        if let surface = focusAfterUnlock, scene.origin(of: surface) != nil {
            focus = .keyboardFocus(surface)
        } else if let window = scene.windows.last {
            focus = .activate(window)
        } else {
            focus = .keyboardFocus(nil)
        }
        return [.watchFrames(false), focus]
    }

    /// While locked, a window that would take the keyboard gets it at unlock instead.
    func focusDeferred(_ surface: WlSurface?) { if let surface { focusAfterUnlock = surface } }

    /// What each head shows changed (a lock surface came or went, a head came or went, a
    /// new locker): the scene's covers follow, the keyboard moves onto a lock surface shown
    /// (the effect returned), surfaces enter their heads, every head is redrawn, and what is
    /// under the pointer is found again.
    private func coverChanged() -> [Effect] {
        guard scene.lock != nil else { return [] }
        let surfaces = owner?.mappedSurfaces ?? []
        scene.lock?.covers = layout.heads.map { head in
            LockedScreen.Cover(bounds: head.bounds, surface: surfaces.first { $0.head === head }?.surface)
        }
        return [.keyboardOntoCover]
    }

    /// The keyboard moves, from `focus`, onto a lock surface shown: the surfaces to give it,
    /// in order (a focus whose lock surface is no longer shown loses it; with none, the
    /// first lock surface shown gets it). Then the covers are shown: surfaces enter their
    /// heads, every head is redrawn, and the scene's layout changed.
    func keyboardOntoCover(from focus: WlSurface?) -> [WlSurface?] {
        guard let lock = scene.lock else { return [] }
        var moves: [WlSurface?] = []
        var focus = focus
        if let current = focus, !lock.shows(current) {
            moves.append(nil)
            focus = nil
        }
        if focus == nil, let first = lock.covers.lazy.compactMap(\.surface).first { moves.append(first) }
        return moves
    }

    /// After the keyboard moved (`keyboardOntoCover`): surfaces enter their heads, every head
    /// is redrawn, and what is under the pointer is found again.
    func showCovers() {
        scene.forEachMappedRoot { layout.updateOutputs(of: $0, in: scene) }
        output.damageAll()
        scene.changed(.layout)
        clock.schedule()
    }

    /// Heads came, went or changed size: lock surfaces are configured to their head's size.
    func layoutChanged() -> [Effect] {
        guard isLocked else { return [] }
        for surface in owner?.surfaces.compactMap(\.value) ?? [] { surface.configure() }
        headsToCover.removeAll { id in !layout.heads.contains { ObjectIdentifier($0) == id } }
        return coverChanged() + [.lockedIfCovered]
    }

    /// After the effects before it: the owner hears `locked` once every head is covered.
    func sendLockedIfCovered() {
        if headsToCover.isEmpty { owner?.sendLocked() }
    }

    /// A frame was composed (`Frames.present`, while the frames report to it: from the lock
    /// until the unlock): the heads it drew are covered. Once every head is, the locker
    /// hears `locked`; later frames change nothing.
    func framePresented(damage: PixelRegion) {
        guard !headsToCover.isEmpty else { return }
        headsToCover.removeAll { id in
            guard let head = layout.heads.first(where: { ObjectIdentifier($0) == id }) else { return true }
            return damage.intersects(output.pixels(logical: head.bounds))
        }
        guard headsToCover.isEmpty else { return }
        owner?.sendLocked()
    }
}

/// What the session lock's handlers have the core do with what the lock returns
/// (`SessionLock.Effect`): `Compositor` applies each, in order, to its seat, desktop and
/// frames. Only the handlers hold it, never `SessionLock`.
protocol SessionLockHost: AnyObject {
    func apply(_ effects: [SessionLock.Effect])
}

extension Compositor: SessionLockHost {
    func apply(_ effects: [SessionLock.Effect]) {
        for effect in effects {
            switch effect {
            case .seatLocked: seat.sessionLocked()
            case .keyboardFocus(let surface): seat.setKeyboardFocus(surface)
            case .activate(let window): seat.apply(desktop.activate(window))
            case .keyboardOntoCover:
                for surface in sessionLock.keyboardOntoCover(from: seat.keyboard.focus) { seat.setKeyboardFocus(surface) }
                sessionLock.showCovers()
            case .watchFrames(let on): frames.sessionLock = on ? sessionLock : nil
            case .lockedIfCovered: sessionLock.sendLockedIfCovered()
            }
        }
    }
}
