import CDRM
import Glibc
import LodestoneSystem
import LodestoneCompositor
import Rendering
import WaylandServer

/// One KMS output (wlroots' `backend/drm`, reduced): a connected connector, its
/// preferred mode, a CRTC for it, and two dumb buffers its part of the pixman renderer's
/// output is copied into. Each frame is a page flip; the flip's completion (the DRM fd readable on the
/// event loop) lets the next frame run.
final class DRMOutput {
    let fd: Int32
    private(set) var width: Int32, height: Int32, refreshHz: Int32
    let connectorName: String
    /// Every mode the connector lists, in its order (the preferred one flagged), and its
    /// size in millimetres: what `zwlr_output_manager_v1` offers (`DRMBackend+Configure`).
    let modes: [drmModeModeInfo]
    let millimetres: (width: Int32, height: Int32)
    /// The CRTC is lit (a client may switch the head off, `disable`).
    private(set) var isLit = true
    private(set) var connectorID: UInt32
    /// The compositor's head this output shows (`OutputHead.name`).
    var headName = ""
    let crtcID: UInt32
    private(set) var mode: drmModeModeInfo
    private var buffers: [DumbBuffer] = []
    private var back = 0
    /// Fires when a queued flip takes too long (`flipTimedOut`).
    private var watchdog: EventSource?
    /// A flip is queued and not yet done.
    private(set) var flipPending = false
    /// The kernel still owes a flip event naming this output (even one given up on by
    /// `flipTimedOut`): until it comes the output must not be freed.
    private(set) var flipQueued = false
    /// A flip event came (after `flipped` when it was awaited): a removed output that was
    /// kept for it may be let go.
    var flipEventCame: () -> Void = {}
    /// A flip completed, at the vblank it was shown at (CLOCK_MONOTONIC, the kernel's
    /// default), or was given up on (nil, `flipTimedOut`).
    var flipped: (Timestamp?) -> Void = { _ in }
    /// A flip never completed (`flipTimedOut`): the line to log.
    var stalled: (String) -> Void = { _ in }
    /// The GPU refused a page flip for good (the device is gone): nothing would be shown
    /// any more (`DRMBackend.sessionLost`).
    var failed: (String) -> Void = { _ in }

    /// A dumb buffer: kernel memory mapped into ours, with a framebuffer id.
    private struct DumbBuffer {
        var handle: UInt32, pitch: UInt32, size: UInt64, fb: UInt32
        var map: UnsafeMutableRawPointer
        var image: Image
    }

    /// One output per connected connector, in connector order, each on a CRTC of its own
    /// (a connector no free CRTC can drive is left dark, with a log line from the caller).
    /// `lit`: outputs already lit (a rescan after a hotplug): their connectors are skipped
    /// and their CRTCs not taken. drmModeGetConnector probes each connector, so a monitor
    /// plugged in since the last look is seen now.
    static func probe(fd: Int32, path: String, lit: [DRMOutput] = []) throws(SystemError) -> [DRMOutput] {
        guard let resources = drmModeGetResources(fd) else { throw SystemError("\(path) is not a KMS device (drmModeGetResources failed)") }
        defer { drmModeFreeResources(resources) }
        var outputs: [DRMOutput] = []
        var taken = Set(lit.map(\.crtcID))
        for i in 0..<Int(resources.pointee.count_connectors) {
            guard !lit.contains(where: { $0.connectorID == resources.pointee.connectors[i] }),
                  let c = drmModeGetConnector(fd, resources.pointee.connectors[i]) else { continue }
            defer { drmModeFreeConnector(c) }
            guard c.pointee.connection == DRM_MODE_CONNECTED, c.pointee.count_modes > 0 else { continue }
            let modes = UnsafeBufferPointer(start: c.pointee.modes, count: Int(c.pointee.count_modes))
            let preferred = modes.first { $0.type & UInt32(DRM_MODE_TYPE_PREFERRED) != 0 } ?? modes[0]
            guard let crtc = freeCRTC(fd: fd, connector: c, resources: resources, taken: taken) else { continue }
            taken.insert(crtc)
            outputs.append(try DRMOutput(fd: fd, connector: c, mode: preferred, crtc: crtc))
        }
        guard !outputs.isEmpty || !lit.isEmpty else { throw SystemError("\(path) has no connected display") }
        return outputs
    }

    /// Whether the monitor is still there (drmModeGetConnector probes it: the kernel does
    /// not while a DRM master holds the device, see `DRMHotplug`).
    var isConnected: Bool {
        guard let c = drmModeGetConnector(fd, connectorID) else { return false }
        defer { drmModeFreeConnector(c) }
        return c.pointee.connection == DRM_MODE_CONNECTED
    }

    /// Turns the CRTC off (its monitor was pulled out).
    func disable() {
        _ = drmModeSetCrtc(fd, crtcID, 0, 0, 0, nil, 0, nil)
        isLit = false
    }

    /// A modeset to `newMode` (one of `modes`): new buffers of its size, the CRTC set to the
    /// first; the old buffers go only once the new mode shows, so a refusal leaves the
    /// output as it was, lit or not.
    func setMode(_ newMode: drmModeModeInfo) throws(SystemError) {
        let old = (buffers, mode, width, height, refreshHz)
        mode = newMode
        width = Int32(newMode.hdisplay); height = Int32(newMode.vdisplay)
        refreshHz = max(1, Int32(newMode.vrefresh))
        var made: [DumbBuffer] = []
        let wasLit = isLit
        isLit = true
        do throws(SystemError) {
            for _ in 0..<2 { made.append(try makeBuffer()) }
            buffers = made
            back = 0
            try modeset()
        } catch {
            for b in made { free(b) }
            (buffers, mode, width, height, refreshHz) = old
            isLit = wasLit
            throw error
        }
        for b in old.0 { free(b) }
    }

    private func free(_ b: DumbBuffer) {
        munmap(b.map, Int(b.size))
        drmModeRmFB(fd, b.fb)
        drmModeDestroyDumbBuffer(fd, b.handle)
    }

    /// The connector's current encoder's CRTC, or the first CRTC any of its encoders can
    /// drive, not taken by an earlier connector.
    private static func freeCRTC(fd: Int32, connector: UnsafeMutablePointer<drmModeConnector>, resources: UnsafeMutablePointer<drmModeRes>,
                                 taken: Set<UInt32>) -> UInt32? {
        if let e = drmModeGetEncoder(fd, connector.pointee.encoder_id) {
            defer { drmModeFreeEncoder(e) }
            if e.pointee.crtc_id != 0, !taken.contains(e.pointee.crtc_id) { return e.pointee.crtc_id }
        }
        for i in 0..<Int(connector.pointee.count_encoders) {
            guard let e = drmModeGetEncoder(fd, connector.pointee.encoders[i]) else { continue }
            defer { drmModeFreeEncoder(e) }
            for j in 0..<Int(resources.pointee.count_crtcs) where e.pointee.possible_crtcs & (1 << j) != 0 {
                if !taken.contains(resources.pointee.crtcs[j]) { return resources.pointee.crtcs[j] }
            }
        }
        return nil
    }

    private init(fd: Int32, connector: UnsafeMutablePointer<drmModeConnector>, mode: drmModeModeInfo, crtc: UInt32) throws(SystemError) {
        self.fd = fd
        connectorID = connector.pointee.connector_id
        connectorName = "DRM-\(connector.pointee.connector_type)-\(connector.pointee.connector_type_id)"
        self.mode = mode
        modes = Array(UnsafeBufferPointer(start: connector.pointee.modes, count: Int(connector.pointee.count_modes)))
        millimetres = (Int32(clamping: connector.pointee.mmWidth), Int32(clamping: connector.pointee.mmHeight))
        width = Int32(mode.hdisplay); height = Int32(mode.vdisplay)
        refreshHz = max(1, Int32((Double(mode.vrefresh)).rounded()))
        crtcID = crtc
        for _ in 0..<2 { buffers.append(try makeBuffer()) }
    }

    /// Page flips are no longer read (`DRMBackend.stop`).
    func detach() {
        watchdog?.remove()
        watchdog = nil
    }

    deinit {
        watchdog?.remove()
        for b in buffers { free(b) }
    }

    private func makeBuffer() throws(SystemError) -> DumbBuffer {
        var handle: UInt32 = 0, pitch: UInt32 = 0, size: UInt64 = 0, fb: UInt32 = 0, offset: UInt64 = 0
        guard drmModeCreateDumbBuffer(fd, UInt32(width), UInt32(height), 32, 0, &handle, &pitch, &size) == 0 else {
            throw SystemError.lastError("cannot create a \(width)×\(height) dumb buffer", call: "drmModeCreateDumbBuffer")
        }
        guard drmModeAddFB(fd, UInt32(width), UInt32(height), 24, 32, pitch, handle, &fb) == 0 else {
            throw SystemError.lastError("drmModeAddFB failed", call: "drmModeAddFB")
        }
        guard drmModeMapDumbBuffer(fd, handle, &offset) == 0,
              let map = mmap(nil, Int(size), PROT_READ | PROT_WRITE, MAP_SHARED, fd, off_t(offset)), map != MAP_FAILED else {
            throw SystemError.lastError("cannot map a dumb buffer", call: "mmap")
        }
        guard let image = Image(borrowing: map, width: width, height: height, stride: Int32(pitch), format: .xrgb8888) else {
            throw SystemError("pixman cannot wrap the dumb buffer")
        }
        return DumbBuffer(handle: handle, pitch: pitch, size: size, fb: fb, map: map, image: image)
    }

    /// Lights the output with the first buffer (also after the session is resumed).
    func modeset() throws(SystemError) {
        guard isLit else { return }
        guard drmModeSetCrtc(fd, crtcID, buffers[back].fb, 0, 0, &connectorID, 1, &mode) == 0 else {
            throw SystemError.lastError("drmModeSetCrtc failed", call: "drmModeSetCrtc")
        }
    }

    /// How long a queued flip may take before it is given up on (`flipTimedOut`): a
    /// refresh is 7 to 50 ms, so a second is a flip the driver lost.
    static let flipTimeoutMilliseconds: Int32 = 1000

    /// Starts watching this output's flips (`flipTimedOut`).
    func attach(to loop: EventLoop) throws(SystemError) {
        watchdog = try loop.addTimer { [unowned self] in self.flipTimedOut() }
    }

    /// Reads the card's events (its fd readable): each completed flip names its output
    /// through the user data. One reader per card: an fd can be on the loop once.
    static func dispatchEvents(fd: Int32) {
        var context = drmEventContext()
        context.version = 2
        context.page_flip_handler = { _, _, seconds, microseconds, data in
            guard let data else { return }
            let time = Timestamp(seconds: UInt64(seconds), nanoseconds: microseconds * 1000)
            // Held for the call: a removed output's last flip event lets it go (`flipEventCame`).
            let output = Unmanaged<DRMOutput>.fromOpaque(data).takeUnretainedValue()
            withExtendedLifetime(output) { output.flipCompleted(at: time) }
        }
        drmHandleEvent(fd, &context)
    }

    private func flipCompleted(at time: Timestamp) {
        watchdog?.arm(milliseconds: 0)
        flipQueued = false
        // Not awaited when given up on already (`flipTimedOut`).
        if flipPending {
            flipPending = false
            flipped(time)
        }
        flipEventCame()
    }

    /// A flip the kernel accepted never completed: said once per stall, and frames go on
    /// as if it had (the next flip may fail with EBUSY and is retried a frame later).
    private func flipTimedOut() {
        guard flipPending else { return }
        stalled("\(connectorName): a page flip on CRTC \(crtcID) did not complete in \(Self.flipTimeoutMilliseconds) ms; going on without it")
        flipPending = false
        flipped(nil)
    }

    /// Copies this output's part of the composed frame (from `x`, `y` in its pixels) into
    /// the back buffer and flips to it. Nothing is flipped when the frame's damage misses
    /// the part.
    func present(_ frame: Image, fromX x: Int32, y: Int32, damage: [PixelRect]) {
        let part = PixelRect(x: x, y: y, width: width, height: height)
        guard damage.contains(where: { !$0.intersection(part).isEmpty }) else { return }
        let b = buffers[back]
        // Two buffers alternate: the back one missed the previous frame's damage too, so
        // it gets the whole part (simple and always right; a damage ring would save copies).
        b.image.copy(from: frame, rect: part, toX: 0, y: 0)
        let data = Unmanaged.passUnretained(self).toOpaque()
        if drmModePageFlip(fd, crtcID, b.fb, UInt32(DRM_MODE_PAGE_FLIP_EVENT), data) == 0 {
            flipPending = true
            flipQueued = true
            back = 1 - back
            watchdog?.arm(milliseconds: Self.flipTimeoutMilliseconds)
        } else if case let refusal = SystemError.lastError("the GPU refused a frame", call: "drmModePageFlip"),
                  ![EBUSY, EACCES, EPERM, EINTR, EAGAIN].contains(refusal.errnoCode ?? 0) {
            // Busy, or not the DRM master for a moment around a VT switch: the next frame
            // tries again. Anything else (ENODEV: the GPU went away) will not get better.
            failed("\(refusal.what) (drmModePageFlip: \(refusal.reason ?? "no reason given"))")
        }
    }
}
