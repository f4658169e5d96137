import CDRM
import LodestoneCompositor
import Glibc
import LodestoneSystem
import Logging
import Rendering
import WaylandServer

/// Lodestone on a bare TTY (`--backend drm`): libseat for the session, udev + libinput for
/// input devices (opened through the session), DRM/KMS for the output, all on the
/// `wl_event_loop` through their fds, no threads. Every connected connector is lit, each on
/// a CRTC of its own, and shows its part of the frame (`OutputLayout`: side by side, in
/// connector order). Modelled on wlroots' `backend/session`,
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
    /// Lit outputs, in the order of the compositor's heads.
    var outputs: [DRMOutput]
    /// Outputs whose monitor went, kept until their last flip completes (its event names them).
    private var retired: [DRMOutput] = []
    private var flipEvents: EventSource?
    private var hotplug: DRMHotplug?
    /// The number in the next new head's name (DRM-N).
    private var nextHead = 1
    private var input: LibinputContext?
    private var cursor: DRMCursors?
    private let cardPath: String
    /// Motion → page flip (`--stats`), nil unless asked for: read it at exit.
    public var motionToFlip: MotionToFlip?
    private var cardFD: Int32
    /// The compositor whose heads clients arrange (`DRMBackend+Configure`).
    weak var configuredCompositor: Compositor?

    /// Each lit connector's mode in pixels, in connector order, for the compositor's options.
    public var modes: [(width: Int32, height: Int32, refreshHz: Int32)] { outputs.map { ($0.width, $0.height, $0.refreshHz) } }

    public init(logger: Logger) throws(SystemError) {
        log = logger
        let missing = Self.missingPieces()
        if !missing.isEmpty {
            throw SystemError("cannot start the DRM backend:\n" + missing.map { "  - " + $0 + "\n" }.joined()
                              + "Run it on a machine with a GPU, from a text console, as a user in the video and input groups or with seatd (see docs/tty.md)")
        }
        session = try SeatSession()
        guard let card = Self.cards().first else { throw SystemError("cannot start the DRM backend: no DRM device") }
        cardPath = card
        cardFD = session.open(path: card, flags: O_RDWR | O_CLOEXEC)
        guard cardFD >= 0 else { throw SystemError("cannot open \(card) through the seat", call: "libseat_open_device", errno: -cardFD) }
        outputs = try DRMOutput.probe(fd: cardFD, path: card)
    }

    deinit { session.close(fd: cardFD) }

    /// The seat's, the card's and libinput's fds leave the loop; libinput (which holds the
    /// frame clock) goes.
    public func stop() {
        input = nil
        hotplug?.detach()
        hotplug = nil
        flipEvents?.remove()
        flipEvents = nil
        for output in outputs + retired { output.detach() }
        session.detach()
        // Nothing here may keep the compositor alive past the display: its globals and
        // listeners would be freed after libwayland's (heap corruption at every exit).
        for output in outputs + retired {
            output.flipped = { _ in }
            output.failed = { _ in }
            output.stalled = { _ in }
            output.flipEventCame = {}
        }
        session.paused = {}
        session.resumed = {}
        session.lost = { _ in }
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
        // Each frame waits for the page flips: wp_presentation reports vsync.
        compositor.pacing = .vsync
        // linux-dmabuf's main device is the card Lodestone drives (its buffers are read, linear).
        compositor.dmabuf.localDevice = DmabufDevice.of(fd: cardFD)
        try session.attach(to: loop)
        // Page flips complete on the card's fd, for every output.
        flipEvents = try loop.addFileDescriptor(cardFD) { [cardFD] _ in DRMOutput.dispatchEvents(fd: cardFD) }
        // Outputs in connector order are the compositor's heads in layout order.
        for (output, head) in zip(outputs, compositor.layout.heads) {
            output.headName = head.name
            describe(head, output, compositor)
            try light(output, compositor)
            log.info("DRM output \(output.connectorName) (\(head.name)) on \(cardPath): \(output.width)×\(output.height) @\(output.refreshHz) Hz at \(head.bounds.x),\(head.bounds.y), seat \(session.name)")
        }
        nextHead = outputs.count + 1
        // Frames: composed into the output image, each head's part copied into its back
        // buffer and flipped. One head: the next frame waits for its flip. Several: a head
        // whose flip is pending is held (`OutputHead.isHeld`) and its own flip releases it,
        // so each head goes at its own pace and the others compose on.
        compositor.framePresented = { [unowned self, unowned compositor] image, damage in
            for output in self.outputs {
                guard let head = compositor.layout.head(named: output.headName) else { continue }
                let part = compositor.output.pixels(logical: head.bounds)
                output.present(image, fromX: part.x, y: part.y, damage: damage.rects)
                if compositor.layout.heads.count > 1, output.flipPending { head.isHeld = true }
            }
            if self.outputs.contains(where: \.flipPending) {
                if compositor.layout.heads.count == 1 { compositor.clock.hold() }
                self.motionToFlip?.frameQueued()
            }
            self.frameComposed?(image, compositor.frameCount)
        }
        placeCursors(compositor)
        // Clients' arrangements of the heads (zwlr_output_manager_v1): see DRMBackend+Configure.
        compositor.outputManagement.configurator = self
        configuredCompositor = compositor
        // Monitors plugged in and pulled out: udev says the card changed, a rescan says how.
        do throws(SystemError) {
            let hotplug = try DRMHotplug(devnode: cardPath)
            try hotplug.attach(to: loop) { [unowned self, unowned compositor] in self.rescan(compositor) }
            self.hotplug = hotplug
        } catch {
            log.warning("\(error); monitors plugged in or out while Lodestone runs are not seen")
        }
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
            for output in self.outputs {
                do throws(SystemError) { try output.modeset() } catch { self.log.error("\(error)") }
            }
            compositor.clock.resume()
            compositor.output.damageAll()
            compositor.scheduleFrame()
            // Monitors may have come or gone while another session had the seat.
            self.rescan(compositor)
        }
        session.lost = { [unowned self] reason in
            self.log.error("\(reason)")
            self.sessionLost?(reason)
        }
    }

    /// Lights an output: its flips watched and reported, its CRTC set to its mode.
    private func light(_ output: DRMOutput, _ compositor: Compositor) throws(SystemError) {
        try output.attach(to: compositor.display.eventLoop)
        // The flip's time is the refresh the next frames are scheduled from (`--max-render-time`).
        output.flipped = { [unowned self, unowned compositor, unowned output] time in
            if let time {
                self.motionToFlip?.flipped(at: time.seconds * 1_000_000 + UInt64(time.nanoseconds / 1000))
                compositor.clock.presented(at: time)
            }
            if let head = compositor.layout.head(named: output.headName), head.isHeld { compositor.resume(head) }
            if !self.outputs.contains(where: \.flipPending) { compositor.clock.resume() }
        }
        output.stalled = { [unowned self] in self.log.warning("\($0)") }
        output.failed = { [unowned self] reason in
            for output in self.outputs { output.failed = { _ in } }  // one line, once
            self.log.error("\(reason)")
            self.sessionLost?(reason)
        }
        try output.modeset()
    }

    /// The plain pointer on the cursor planes when the driver has them (see
    /// `PointerPlanePlanner`), one per lit CRTC over its part of the frame. The plane's image
    /// is drawn at a whole scale: at a fractional one the pointer is composed (with the rest
    /// of the frame, at the exact scale).
    func placeCursors(_ compositor: Compositor) {
        cursor?.hide()
        let scale = compositor.output.scale
        let log = log
        cursor = scale.isIntegral ? DRMCursors(outputs.compactMap { output in
            compositor.layout.head(named: output.headName).flatMap {
                let plane = DRMPointerPlane(fd: cardFD, crtc: output.crtcID, scale: scale.ceiling, area: compositor.output.pixels(logical: $0.bounds))
                plane?.refused = { log.warning("\($0)") }
                plane?.moved = { [unowned self] in self.motionToFlip?.shownOnPlane() }
                return plane
            }
        }) : nil
        compositor.pointerPlane = cursor
        if cursor == nil { log.info("\(scale.isIntegral ? "no cursor plane" : "a fractional scale"): the pointer is composed into every frame") }
    }

    /// Removed outputs whose last flip has completed: nothing names them any more. (The
    /// flip event's handler holds the output it reports, so dropping it there is safe.)
    private func dropRetired() {
        retired.removeAll { !$0.flipQueued }
    }

    /// After a hotplug event (or a return to the VT): outputs whose monitor went are turned
    /// off and their heads removed (their windows move onto a remaining head); monitors that
    /// came are lit as new heads to the right. The last head stays, lit or not.
    private func rescan(_ compositor: Compositor) {
        var changed = false
        for output in outputs where !output.isConnected && outputs.count > 1 {
            log.info("DRM output \(output.connectorName) (\(output.headName)) disconnected")
            compositor.removeOutput(named: output.headName)
            output.detach()
            output.disable()
            outputs.removeAll { $0 === output }
            // A flip may still be queued with this output as its user data: kept until it
            // completes (its event names the output), then dropped with its buffers.
            output.flipped = { _ in }
            if output.flipQueued {
                output.flipEventCame = { [unowned self] in self.dropRetired() }
                retired.append(output)
            }
            changed = true
        }
        let added: [DRMOutput]
        do throws(SystemError) { added = try DRMOutput.probe(fd: cardFD, path: cardPath, lit: outputs) } catch {
            log.error("\(error)")
            added = []
        }
        for output in added {
            let name = "DRM-\(nextHead)"
            nextHead += 1
            let scale = compositor.output.scale
            do throws(SystemError) {
                let head = try compositor.addOutput(OutputMode(name: name, width: scale.logical(output.width), height: scale.logical(output.height), refreshHz: output.refreshHz))
                output.headName = name
                describe(head, output, compositor)
                outputs.append(output)
                try light(output, compositor)
                log.info("DRM output \(output.connectorName) (\(name)) connected: \(output.width)×\(output.height) @\(output.refreshHz) Hz at \(head.bounds.x),\(head.bounds.y)")
                changed = true
            } catch {
                log.error("cannot light \(output.connectorName): \(error)")
            }
        }
        guard changed else { return }
        // The frame may have been waiting for a flip of an output now gone.
        if !outputs.contains(where: \.flipPending) { compositor.clock.resume() }
        placeCursors(compositor)
        compositor.output.damageAll()
        compositor.scheduleFrame()
    }
}
