import CDRM
import Glibc
import LodestoneSystem
import Compositor
import Rendering
import WaylandServer

/// One KMS output (wlroots' `backend/drm`, reduced): the first connected connector, its
/// preferred mode, a CRTC for it, and two dumb buffers the pixman renderer's output is
/// copied into. Each frame is a page flip; the flip's completion (the DRM fd readable on the
/// event loop) lets the next frame run.
final class DRMOutput {
    let fd: Int32
    let width: Int32, height: Int32, refreshHz: Int32
    let connectorName: String
    private var connectorID: UInt32
    let crtcID: UInt32
    private var mode: drmModeModeInfo
    private var buffers: [DumbBuffer] = []
    private var back = 0
    private var source: EventSource?
    /// A flip is queued and not yet done.
    private(set) var flipPending = false
    /// The page flip happened, at this time (CLOCK_MONOTONIC).
    var flipped: (Timestamp) -> Void = { _ in }
    /// The GPU refused a page flip for good (the device is gone): nothing would be shown
    /// any more (`DRMBackend.sessionLost`).
    var failed: (String) -> Void = { _ in }

    /// A dumb buffer: kernel memory mapped into ours, with a framebuffer id.
    private struct DumbBuffer {
        var handle: UInt32, pitch: UInt32, size: UInt64, fb: UInt32
        var map: UnsafeMutableRawPointer
        var image: Image
    }

    init(fd: Int32, path: String) throws(SystemError) {
        self.fd = fd
        guard let resources = drmModeGetResources(fd) else { throw SystemError("\(path) is not a KMS device (drmModeGetResources failed)") }
        defer { drmModeFreeResources(resources) }
        var found: (UnsafeMutablePointer<drmModeConnector>, drmModeModeInfo)?
        for i in 0..<Int(resources.pointee.count_connectors) {
            guard let c = drmModeGetConnector(fd, resources.pointee.connectors[i]) else { continue }
            if c.pointee.connection == DRM_MODE_CONNECTED, c.pointee.count_modes > 0 {
                let modes = UnsafeBufferPointer(start: c.pointee.modes, count: Int(c.pointee.count_modes))
                let preferred = modes.first { $0.type & UInt32(DRM_MODE_TYPE_PREFERRED) != 0 } ?? modes[0]
                found = (c, preferred)
                break
            }
            drmModeFreeConnector(c)
        }
        guard let (connector, mode) = found else { throw SystemError("\(path) has no connected display") }
        defer { drmModeFreeConnector(connector) }
        connectorID = connector.pointee.connector_id
        connectorName = "DRM-\(connector.pointee.connector_type)-\(connector.pointee.connector_type_id)"
        self.mode = mode
        width = Int32(mode.hdisplay); height = Int32(mode.vdisplay)
        refreshHz = max(1, Int32((Double(mode.vrefresh)).rounded()))
        // The connector's current encoder's CRTC, or the first CRTC any of its encoders can drive.
        var crtc: UInt32 = 0
        if let e = drmModeGetEncoder(fd, connector.pointee.encoder_id) { crtc = e.pointee.crtc_id; drmModeFreeEncoder(e) }
        if crtc == 0 {
            for i in 0..<Int(connector.pointee.count_encoders) {
                guard let e = drmModeGetEncoder(fd, connector.pointee.encoders[i]) else { continue }
                defer { drmModeFreeEncoder(e) }
                for j in 0..<Int(resources.pointee.count_crtcs) where e.pointee.possible_crtcs & (1 << j) != 0 {
                    crtc = resources.pointee.crtcs[j]; break
                }
                if crtc != 0 { break }
            }
        }
        guard crtc != 0 else { throw SystemError("\(path): no CRTC can drive \(connectorName)") }
        crtcID = crtc
        for _ in 0..<2 { buffers.append(try makeBuffer()) }
    }

    /// Page flips are no longer read (`DRMBackend.stop`).
    func detach() {
        source?.remove()
        source = nil
    }

    deinit {
        source?.remove()
        for b in buffers {
            munmap(b.map, Int(b.size))
            drmModeRmFB(fd, b.fb)
            drmModeDestroyDumbBuffer(fd, b.handle)
        }
    }

    private func makeBuffer() throws(SystemError) -> DumbBuffer {
        var handle: UInt32 = 0, pitch: UInt32 = 0, size: UInt64 = 0, fb: UInt32 = 0, offset: UInt64 = 0
        guard drmModeCreateDumbBuffer(fd, UInt32(width), UInt32(height), 32, 0, &handle, &pitch, &size) == 0 else {
            throw SystemError("cannot create a \(width)×\(height) dumb buffer: \(String(cString: strerror(errno)))")
        }
        guard drmModeAddFB(fd, UInt32(width), UInt32(height), 24, 32, pitch, handle, &fb) == 0 else {
            throw SystemError("drmModeAddFB failed: \(String(cString: strerror(errno)))")
        }
        guard drmModeMapDumbBuffer(fd, handle, &offset) == 0,
              let map = mmap(nil, Int(size), PROT_READ | PROT_WRITE, MAP_SHARED, fd, off_t(offset)), map != MAP_FAILED else {
            throw SystemError("cannot map a dumb buffer: \(String(cString: strerror(errno)))")
        }
        guard let image = Image(borrowing: map, width: width, height: height, stride: Int32(pitch), format: .xrgb8888) else {
            throw SystemError("pixman cannot wrap the dumb buffer")
        }
        return DumbBuffer(handle: handle, pitch: pitch, size: size, fb: fb, map: map, image: image)
    }

    /// Lights the output with the first buffer (also after the session is resumed).
    func modeset() throws(SystemError) {
        guard drmModeSetCrtc(fd, crtcID, buffers[back].fb, 0, 0, &connectorID, 1, &mode) == 0 else {
            throw SystemError("drmModeSetCrtc failed: \(String(cString: strerror(errno)))")
        }
    }

    func attach(to loop: EventLoop) throws(SystemError) {
        source = try loop.addFileDescriptor(fd) { [unowned self] _ in
            var context = drmEventContext()
            context.version = 2
            context.page_flip_handler = { _, _, seconds, microseconds, data in
                guard let data else { return }
                let output = Unmanaged<DRMOutput>.fromOpaque(data).takeUnretainedValue()
                output.flipPending = false
                // The vblank the frame was shown at (CLOCK_MONOTONIC, the kernel's default).
                output.flipped(Timestamp(seconds: UInt64(seconds), nanoseconds: microseconds * 1000))
            }
            drmHandleEvent(self.fd, &context)
        }
    }

    /// Copies the composed frame's damage into the back buffer and flips to it.
    func present(_ frame: Image, damage: [PixelRect]) {
        let b = buffers[back]
        // Two buffers alternate: the back one missed the previous frame's damage too, so
        // it gets the whole frame (simple and always right; a damage ring would save copies).
        b.image.copy(from: frame, rect: PixelRect(x: 0, y: 0, width: width, height: height))
        _ = damage
        let data = Unmanaged.passUnretained(self).toOpaque()
        if drmModePageFlip(fd, crtcID, b.fb, UInt32(DRM_MODE_PAGE_FLIP_EVENT), data) == 0 {
            flipPending = true
            back = 1 - back
        } else if ![EBUSY, EACCES, EPERM, EINTR, EAGAIN].contains(errno) {
            // Busy, or not the DRM master for a moment around a VT switch: the next frame
            // tries again. Anything else (ENODEV: the GPU went away) will not get better.
            failed("the GPU refused a frame (drmModePageFlip: \(String(cString: strerror(errno))))")
        }
    }
}
