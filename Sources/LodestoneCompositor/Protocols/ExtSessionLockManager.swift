import CWaylandServer
import WaylandServer

/// `ext_session_lock_manager_v1` (ext-session-lock-v1, version 1): a locker (swaylock) asks
/// for the session to be locked. The state is `SessionLock` (`Desktop/`), which decides
/// whether the lock is granted and when the screen is covered.
final class ExtSessionLockManager: Resource, ExtSessionLockManagerV1Handler {
    static let version: Int32 = 1
    unowned let sessionLock: SessionLock
    /// Applies what the lock returns (the seat's, the desktop's and the frames' part).
    unowned let host: any SessionLockHost

    init?(sessionLock: SessionLock, host: any SessionLockHost, client: Client, version: UInt32, id: UInt32) {
        self.sessionLock = sessionLock
        self.host = host
        super.init(client: client, version: version, id: id)
    }

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        case .lock:
            guard let lock = ExtSessionLock(sessionLock: sessionLock, host: host, client: client, version: version, id: a.newID(0)) else { return }
            host.apply(sessionLock.lockRequested(lock))
        case .destroy: destroy()
        }
    }
}

/// `ext_session_lock_v1`: one locker's lock. It hears `locked` once the session is locked
/// for it, or `finished` when it cannot be (another live locker holds the session).
final class ExtSessionLock: Resource, ExtSessionLockV1Handler {
    unowned let sessionLock: SessionLock
    unowned let host: any SessionLockHost
    /// `locked` went out: only `unlock_and_destroy` may end it now.
    private(set) var sentLocked = false
    /// `finished` went out: the lock was refused, and its requests change nothing.
    private(set) var sentFinished = false
    /// The client destroyed it with a request (not by dying).
    private(set) var destroyedByRequest = false
    /// Its lock surfaces, one per head at most.
    private(set) var surfaces: [Weak<ExtSessionLockSurface>] = []

    init?(sessionLock: SessionLock, host: any SessionLockHost, client: Client, version: UInt32, id: UInt32) {
        self.sessionLock = sessionLock
        self.host = host
        super.init(client: client, version: version, id: id)
    }

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        case .destroy:
            guard !sentLocked else {
                return postError(EXT_SESSION_LOCK_V1_ERROR_INVALID_DESTROY.rawValue,
                                 "ext_session_lock_v1 destroyed after locked; only unlock_and_destroy may end it")
            }
            destroyedByRequest = true
            destroy()
        case .unlockAndDestroy:
            guard sentLocked else {
                return postError(EXT_SESSION_LOCK_V1_ERROR_INVALID_UNLOCK.rawValue,
                                 "unlock_and_destroy before the locked event; destroy it instead")
            }
            host.apply(sessionLock.unlockRequested(by: self))
            destroyedByRequest = true
            destroy()
        case .getLockSurface:
            getLockSurface(id: a.newID(0), surface: a.object(1, as: WlSurface.self), output: a.object(2, as: WlOutput.self))
        }
    }

    private func getLockSurface(id: UInt32, surface: WlSurface?, output: WlOutput?) {
        guard let surface, let output else { return }
        if let roleName = surface.roleName, roleName != ExtSessionLockSurface.role {
            return postError(EXT_SESSION_LOCK_V1_ERROR_ROLE.rawValue, "wl_surface@\(surface.objectID) already has the role \(roleName)")
        }
        if surface.hasContent || surface.pending.buffer != nil {
            return postError(EXT_SESSION_LOCK_V1_ERROR_ALREADY_CONSTRUCTED.rawValue,
                             "wl_surface@\(surface.objectID) already has a buffer attached or committed")
        }
        surfaces.removeAll { $0.value == nil }
        if surfaces.contains(where: { $0.value.map { $0.isOn(output) } ?? false }) {
            return postError(EXT_SESSION_LOCK_V1_ERROR_DUPLICATE_OUTPUT.rawValue,
                             "wl_output@\(output.objectID) already has a lock surface from this ext_session_lock_v1")
        }
        guard let lockSurface = ExtSessionLockSurface(lock: self, surface: surface, output: output, id: id) else { return }
        guard surface.assignRole(lockSurface, error: (self, EXT_SESSION_LOCK_V1_ERROR_ROLE.rawValue)) else { return }
        surfaces.append(Weak(lockSurface))
        lockSurface.configure()
    }

    /// The live lock surfaces that have a buffer, each with its head.
    var mappedSurfaces: [ExtSessionLockSurface] { surfaces.compactMap(\.value).filter(\.isMapped) }

    func sendLocked() {
        guard !sentLocked, !sentFinished else { return }
        sentLocked = true
        send { ext_session_lock_v1_send_locked($0) }
    }

    func sendFinished() {
        guard !sentFinished else { return }
        sentFinished = true
        send { ext_session_lock_v1_send_finished($0) }
    }

    override func destroyed() { host.apply(sessionLock.lockDestroyed(self)) }
}

/// `ext_session_lock_surface_v1`: a surface the locker draws on one head while the session
/// is locked, always exactly the head's size (each `configure` says it; a commit of another
/// size is `dimensions_mismatch`).
final class ExtSessionLockSurface: Resource, ExtSessionLockSurfaceV1Handler, SurfaceRole {
    static let role = "ext_session_lock_surface_v1"
    let roleName = ExtSessionLockSurface.role
    private weak var lock: ExtSessionLock?
    private(set) weak var surface: WlSurface?
    /// The head it covers; nil once the head was unplugged (or its wl_output bound late).
    private(set) weak var head: OutputHead?
    private weak var output: WlOutput?
    /// Configures sent and not yet acknowledged, oldest first.
    private var unacked: [(serial: UInt32, width: Int32, height: Int32)] = []
    /// The size of the last configure sent.
    private var configured: (width: Int32, height: Int32)?
    /// The size of the last configure acknowledged: the next commit must have it.
    private var acked: (width: Int32, height: Int32)?
    /// Committed with a buffer of the acknowledged size: drawn while it is its lock's.
    private(set) var isMapped = false

    init?(lock: ExtSessionLock, surface: WlSurface, output: WlOutput, id: UInt32) {
        self.lock = lock
        self.surface = surface
        self.output = output
        head = output.head
        super.init(client: lock.client, version: lock.version, id: id)
    }

    func isOn(_ other: WlOutput) -> Bool {
        if let head, let otherHead = other.head { return head === otherHead }
        return output === other
    }

    /// The head's logical size: a scaled head's locker draws at the scale with
    /// `wl_surface.set_buffer_scale`, as for any surface.
    func configure() {
        guard let head, lock?.sentFinished == false else { return }
        let size = (width: head.bounds.width, height: head.bounds.height)
        if let configured, configured == size { return }
        configured = size
        let serial = lock?.sessionLock.nextSerial() ?? 0
        unacked.append((serial, size.width, size.height))
        send { ext_session_lock_surface_v1_send_configure($0, serial, UInt32(size.width), UInt32(size.height)) }
    }

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        case .ackConfigure:
            let serial = a.uint(0)
            guard let index = unacked.firstIndex(where: { $0.serial == serial }) else {
                return postError(EXT_SESSION_LOCK_SURFACE_V1_ERROR_INVALID_SERIAL.rawValue,
                                 "ack_configure with serial \(serial), which is no configure awaiting an ack")
            }
            acked = (unacked[index].width, unacked[index].height)
            unacked.removeFirst(index + 1)
        case .destroy: destroy()
        }
    }

    // MARK: The surface's role

    func surfaceWillCommit() -> Bool {
        guard let surface else { return true }
        guard acked != nil else {
            postError(EXT_SESSION_LOCK_SURFACE_V1_ERROR_COMMIT_BEFORE_FIRST_ACK.rawValue, "commit before the first ack_configure")
            return false
        }
        // A null buffer attached, or a first commit with none: the head would show nothing.
        let nullBuffer: Bool
        if let attached = surface.pending.buffer { nullBuffer = attached == nil } else { nullBuffer = !surface.hasContent }
        if nullBuffer {
            postError(EXT_SESSION_LOCK_SURFACE_V1_ERROR_NULL_BUFFER.rawValue, "a lock surface committed with a null buffer")
            return false
        }
        return true
    }

    func surfaceCommitted() {
        guard let surface, let acked else { return }
        guard surface.width == acked.width, surface.height == acked.height else {
            return postError(EXT_SESSION_LOCK_SURFACE_V1_ERROR_DIMENSIONS_MISMATCH.rawValue,
                             "a lock surface of \(surface.width)×\(surface.height) committed after acknowledging \(acked.width)×\(acked.height)")
        }
        guard !isMapped else { return }
        isMapped = true
        if let lock { lock.host.apply(lock.sessionLock.lockSurfaceMapped(self)) }
    }

    override func destroyed() {
        isMapped = false
        if let lock { lock.host.apply(lock.sessionLock.lockSurfaceDestroyed(self)) }
    }
}
