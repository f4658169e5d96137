import CDRM
import Compositor
import Glibc
import LodestoneSystem
import Logging
import Rendering

/// Lodestone on a bare TTY (`--backend drm`): libseat for the session, udev + libinput for
/// input devices (opened through the session), DRM/KMS for the output, all on the
/// `wl_event_loop` through their fds, no threads. Modelled on wlroots' `backend/session`,
/// `backend/libinput` and `backend/drm`, and on tinywl.
///
/// `init` checks what the machine has before touching anything, so a machine without a GPU
/// or a seat gets one clear sentence (and exit status 1) in well under a second.
public final class DRMBackend: Backend {
    public let name = "drm"
    public var frameComposed: ((Image, Int) -> Void)?
    /// The seat or the GPU went away: the session cannot go on (Lodestone exits with status 1).
    public var sessionLost: ((String) -> Void)?
    private let log: Logger
    private let session: SeatSession
    private let output: DRMOutput
    private var input: LibinputContext?
    private var cursor: DRMCursor?
    private let cardPath: String
    /// Motion → page flip (`--stats`), nil unless asked for: read it at exit.
    public var motionToFlip: MotionToFlip?
    private var cardFD: Int32

    /// The output's mode, for the compositor's options (width, height, refresh).
    public var mode: (width: Int32, height: Int32, refreshHz: Int32) { (output.width, output.height, output.refreshHz) }

    public init(logger: Logger) throws(SystemError) {
        log = logger
        let missing = Self.missingPieces()
        if !missing.isEmpty {
            throw SystemError("cannot start the DRM backend:\n" + missing.map { "  - " + $0 + "\n" }.joined()
                              + "Run it on a machine with a GPU, from a text console, as a user in the video and input groups or with seatd (see README, \"On a TTY\")")
        }
        session = try SeatSession()
        guard let card = Self.cards().first else { throw SystemError("cannot start the DRM backend: no DRM device") }
        cardPath = card
        cardFD = session.open(path: card, flags: O_RDWR | O_CLOEXEC)
        guard cardFD >= 0 else { throw SystemError("cannot open \(card) through the seat: \(String(cString: strerror(-cardFD)))") }
        output = try DRMOutput(fd: cardFD, path: card)
    }

    deinit { session.close(fd: cardFD) }

    /// The seat's, the card's and libinput's fds leave the loop; libinput (which holds the
    /// frame clock) goes.
    public func stop() {
        input = nil
        output.detach()
        session.detach()
        // Nothing here may keep the compositor alive past the display: its globals and
        // listeners would be freed after libwayland's (heap corruption at every exit).
        output.flipped = { _ in }
        session.paused = {}
        session.resumed = {}
        session.lost = { _ in }
        output.failed = { _ in }
    }

    /// What this machine lacks for a TTY session (see `TTYPrerequisites`).
    public static func missingPieces() -> [String] { TTYPrerequisites.probe().missing }

    /// `/dev/dri/card*`, in order.
    static func cards() -> [String] {
        guard let dir = opendir("/dev/dri") else { return [] }
        defer { closedir(dir) }
        var cards: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasPrefix("card") { cards.append("/dev/dri/" + name) }
        }
        return cards.sorted()
    }

    public func start(_ compositor: Compositor) throws(SystemError) {
        let loop = compositor.display.eventLoop
        // Each frame waits for the page flip: wp_presentation reports vsync.
        compositor.pacing = .vsync
        try session.attach(to: loop)
        try output.attach(to: loop)
        try output.modeset()
        // Frames: composed into the output image, copied into the back buffer, flipped; the
        // next frame waits for the flip.
        compositor.framePresented = { [unowned self, unowned compositor] image, damage in
            self.output.present(image, damage: damage.rects)
            if self.output.flipPending {
                compositor.clock.hold()
                self.motionToFlip?.frameQueued()
            }
            self.frameComposed?(image, compositor.frameCount)
        }
        // The flip's time is the refresh the next frames are scheduled from (`--max-render-time`).
        output.flipped = { [unowned self, unowned compositor] time in
            self.motionToFlip?.flipped(at: time.seconds * 1_000_000 + UInt64(time.nanoseconds / 1000))
            compositor.clock.presented(at: time)
            compositor.clock.resume()
        }
        // The plain pointer on the cursor plane when the driver has one (see `CursorPlanePlanner`).
        // The plane's image is drawn at a whole scale: at a fractional one the pointer is
        // composed (with the rest of the frame, at the exact scale).
        let scale = compositor.output.scale
        cursor = scale.isIntegral ? DRMCursor(fd: cardFD, crtc: output.crtcID, scale: scale.ceiling) : nil
        compositor.pointerPlane = cursor
        cursor?.moved = { [unowned self] in self.motionToFlip?.shownOnPlane() }
        if cursor == nil { log.info("\(scale.isIntegral ? "no cursor plane" : "a fractional scale"): the pointer is composed into every frame") }
        // Input: every device of the seat, opened through the session.
        let input = try LibinputContext(seat: session.name, opener: session)
        try input.attach(to: loop, seat: compositor.seat,
                         output: { (Double(compositor.output.width), Double(compositor.output.height)) }, clock: compositor.clock)
        input.switchToVT = { [unowned self] vt in self.session.switchSession(to: vt) }
        if motionToFlip != nil { input.motionTime = { [unowned self] time in self.motionToFlip?.motion(at: time) } }
        self.input = input
        // VT switches: devices are released while away and taken again on return.
        session.paused = { [unowned self, unowned compositor] in
            self.input?.suspend()
            self.cursor?.hide()
            compositor.clock.hold()
        }
        session.resumed = { [unowned self, unowned compositor] in
            self.input?.resume()
            do throws(SystemError) { try self.output.modeset() } catch { self.log.error("\(error)") }
            compositor.clock.resume()
            compositor.output.damageAll()
            compositor.scheduleFrame()
        }
        session.lost = { [unowned self] reason in
            self.log.error("\(reason)")
            self.sessionLost?(reason)
        }
        output.failed = { [unowned self] reason in
            self.output.failed = { _ in }  // one line, once
            self.log.error("\(reason)")
            self.sessionLost?(reason)
        }
        log.info("DRM output \(output.connectorName) on \(cardPath): \(output.width)×\(output.height) @\(output.refreshHz) Hz, seat \(session.name)")
    }
}
