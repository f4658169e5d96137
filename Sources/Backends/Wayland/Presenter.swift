import CWaylandClient
import CWaylandProtocols
import Glibc
import LodestoneCompositor
import Logging
import Rendering
import WaylandClient

/// Sends composed frames to the parent through `wl_shm` buffers.
///
/// - Buffers: at least two; a buffer the parent holds (attached, no
///   `wl_buffer.release` yet) is never written. When all are held a new one
///   is made, up to `maximumBuffers`; past that the frame waits for a release.
/// - Copies: each buffer remembers which output pixels changed since it was
///   last written (its "stale" region), so a frame copies only those.
/// - Damage: `wl_surface.damage_buffer` with the rectangles that changed
///   since the previous commit, nothing more.
/// - Pacing: after a commit the frame clock is held until the parent's
///   `wl_surface.frame` callback, so Lodestone draws at the parent's pace and
///   not at all while its window is hidden; an idle Lodestone arms no timer.
///   With `--max-render-time` other than off, each commit asks for the parent's
///   `wp_presentation` feedback: the frame clock predicts the parent's refreshes from it,
///   and the frame the callback released starts at the next one less the lead.
final class Presenter {
    private unowned let window: ParentWindow
    private let shm: Proxy
    private let globals: ParentGlobals
    /// Feedback asked for and not yet answered (the parent destroys each when it answers).
    private var feedbacks: [Proxy] = []
    private let clock: FrameClock
    private let output: Output
    private let log: Logger
    private var buffers: [Slot] = []
    /// Output pixels changed since the last commit (what the parent must redraw).
    private let pendingDamage = PixelRegion()
    private var frameCallback: Proxy?
    /// Buffer scale last sent with `wl_surface.set_buffer_scale`.
    private var committedScale: Int32 = 1
    /// The viewport destination last set (a fractional scale), nil while unset.
    private var committedDestination: (width: Int32, height: Int32)?
    static let maximumBuffers = 4

    /// The parent's cursor as Lodestone's cursor plane: its hand-overs go with our commits.
    var cursorPlane: ParentPointerPlane?
    /// Client surfaces as subsurfaces of the window: what a frame changed on them is applied
    /// by the window's commit of that frame, with or without new pixels of the window's own.
    var planes: ParentPlanes?

    /// Counters for the benchmark and the log.
    private(set) var commits = 0

    /// One `wl_buffer` with its pixels and what of them is out of date.
    private final class Slot {
        let buffer: ClientShmBuffer
        let image: Image
        /// Attached and not yet released by the parent.
        var busy = false
        let stale: PixelRegion
        init?(shm: Proxy, width: Int32, height: Int32, log: Logger) {
            // XRGB: the output is opaque, and the parent may skip blending.
            let buffer: ClientShmBuffer
            do {
                buffer = try ClientShmBuffer(on: shm, width: width, height: height, format: WL_SHM_FORMAT_XRGB8888.rawValue)
            } catch {
                log.error("cannot make a buffer for the parent: \(error)")
                return nil
            }
            guard let image = buffer.image( width: width, height: height, stride: buffer.stride, format: .xrgb8888)
            else { return nil }
            self.buffer = buffer
            self.image = image
            stale = PixelRegion(PixelRect(x: 0, y: 0, width: width, height: height))
        }
    }

    init(window: ParentWindow, globals: ParentGlobals, clock: FrameClock, output: Output, logger: Logger) {
        self.window = window
        self.globals = globals
        shm = globals.shm
        self.clock = clock
        self.output = output
        log = logger
    }

    /// A frame was composed with `damage` (output pixels; empty when only planes changed).
    func present(damage: PixelRegion) {
        pendingDamage.add(damage)
        for slot in buffers { slot.stale.add(damage) }
        commitIfPossible()
    }

    /// The window's (new) configure is acknowledged; the first frame may go.
    func windowConfigured() {
        commitIfPossible()
    }

    private var waitingForFrame: Bool { frameCallback != nil }

    /// Whether a frame composed now would go out at once: the window is configured, the
    /// parent drew our last commit, and a buffer is free (or may be made) for its pixels.
    /// The planes are handed over only then (`ParentPlanes.canPresent`), so what they change
    /// is never applied without the frame it goes with.
    var canCommit: Bool {
        window.isConfigured && !waitingForFrame && (buffers.contains { !$0.busy } || buffers.count < Self.maximumBuffers)
    }

    private func commitIfPossible() {
        let planesChanged = planes?.changed ?? false
        guard window.isConfigured, !waitingForFrame, !pendingDamage.isEmpty || planesChanged else { return }
        let surface = window.surface
        // The composed frame's pixels, when it has new ones: the planes' changes alone
        // (a client's frame on a plane) commit the window without a buffer.
        if !pendingDamage.isEmpty {
            guard attachFrame(to: surface) else { return }
        }
        planes?.windowCommitted()

        // Without a frame callback the clock is not held: frames go out
        // unpaced rather than never.
        do {
            let callback = try Proxy(creating: { surface.request { wl_surface_frame($0) } }, on: shm.connection, what: "wl_surface.frame")
            callback.handleEvents(CallbackEvent.self) { [unowned self] event in
                switch event {
                case .done: self.frameDone()
                }
            }
            frameCallback = callback
            clock.hold()
        } catch {
            log.error("cannot pace frames to the parent: \(error)")
        }
        requestPresentationFeedback()
        // The parent's cursor changes with the frame composed for it (in the same flush):
        // no parent frame shows the pointer twice or not at all.
        cursorPlane?.frameCommitting()
        surface.request { wl_surface_commit($0) }
        commits += 1
        // The loop flushes only Lodestone's own clients; the parent must see
        // the commit now. A lost connection shows up on the next read.
        shm.connection.flush()
    }

    /// Brings a free buffer up to date with the composed frame and attaches it, with the
    /// damage since the last commit and the scale it is at; false (nothing sent) when every
    /// buffer is held.
    private func attachFrame(to surface: Proxy) -> Bool {
        let width = output.pixelWidth, height = output.pixelHeight
        // A new mode: buffers of the old size are of no use any more.
        if let first = buffers.first, first.image.width != width || first.image.height != height {
            buffers.removeAll()
        }
        guard let slot = freeSlot(width: width, height: height) else {
            log.debug("all \(buffers.count) parent buffers are held; the frame waits for a release")
            return false
        }

        // Bring the buffer up to date: only what changed since it was last written.
        let bounds = PixelRect(x: 0, y: 0, width: width, height: height)
        slot.stale.intersect(bounds)
        for rect in slot.stale.rects { slot.image.copy(from: output.image, rect: rect) }
        slot.stale.clear()

        // A whole scale is the buffer scale; a fractional one (the parent's preferred
        // scale) is a buffer of that many pixels that the viewport maps onto the window's
        // logical size, pixel for pixel in a parent that rounds as we do.
        let scale = output.scale
        let bufferScale: Int32 = scale.isIntegral ? scale.ceiling : 1
        if committedScale != bufferScale {
            surface.request { wl_surface_set_buffer_scale($0, bufferScale) }
            committedScale = bufferScale
        }
        let destination: (width: Int32, height: Int32)? = scale.isIntegral ? nil : (output.width, output.height)
        if let viewport = window.viewport, committedDestination.map({ ($0.width, $0.height) }) ?? (-1, -1) != destination.map({ ($0.width, $0.height) }) ?? (-1, -1) {
            viewport.request { wp_viewport_set_destination($0, destination?.width ?? -1, destination?.height ?? -1) }
            committedDestination = destination
        }
        surface.request(slot.buffer.buffer) { wl_surface_attach($0, $1, 0, 0) }
        pendingDamage.intersect(bounds)
        for rect in pendingDamage.rects {
            surface.request { wl_surface_damage_buffer($0, rect.x, rect.y, rect.width, rect.height) }
        }
        pendingDamage.clear()
        slot.busy = true
        return true
    }

    /// When the parent shows this commit: the frame clock's refreshes follow it. Only when
    /// the clock schedules from it (`--max-render-time` not off), on the monotonic clock.
    private func requestPresentationFeedback() {
        guard clock.scheduler.mode != .off, let presentation = globals.presentation, globals.presentationClock == UInt32(CLOCK_MONOTONIC),
              feedbacks.count < Self.maximumBuffers else { return }
        guard let feedback = try? Proxy(creating: { presentation.request(window.surface) { wp_presentation_feedback($0, $1) } },
                                        on: shm.connection, what: "wp_presentation.feedback") else { return }
        feedback.handleEvents(PresentationFeedbackEvent.self) { [unowned self, unowned feedback] event in
            switch event {
            case .syncOutput: return
            case .presented(let seconds, let nanoseconds, _, _, _):
                self.clock.presented(at: Timestamp(seconds: seconds, nanoseconds: nanoseconds))
            case .discarded: break
            }
            // The parent destroyed it: the proxy goes once this event returns.
            if let i = self.feedbacks.firstIndex(where: { $0 === feedback }) {
                withExtendedLifetime(self.feedbacks.remove(at: i)) {}
            }
        }
        feedbacks.append(feedback)
    }

    /// A released buffer, or a new one while there are fewer than the maximum.
    private func freeSlot(width: Int32, height: Int32) -> Slot? {
        if let slot = buffers.first(where: { !$0.busy }) { return slot }
        guard buffers.count < Self.maximumBuffers, let slot = Slot(shm: shm, width: width, height: height, log: log) else { return nil }
        slot.buffer.buffer.handleEvents(BufferEvent.self) { [unowned self, unowned slot] event in
            switch event {
            case .release:
                slot.busy = false
                // A frame may have been waiting for a buffer.
                self.commitIfPossible()
            }
        }
        buffers.append(slot)
        return slot
    }

    /// The parent drew our last commit: time for the next frame.
    private func frameDone() {
        // This runs inside the callback's own event: keep the proxy alive
        // until we return (its deinit destroys the wl_callback).
        let callback = frameCallback
        defer { withExtendedLifetime(callback) {} }
        frameCallback = nil
        // Frames that were due run now and present through `present`.
        clock.resume()
        // A frame composed while we waited (a capture) still has to go out.
        commitIfPossible()
    }
}
