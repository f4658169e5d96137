import CDRM
import LodestoneCompositor
import Glibc
import LodestoneSystem
import AdaptivePointerEngine
import Rendering

/// The DRM cursor plane (legacy `drmModeSetCursor2` / `drmModeMoveCursor`, as wlroots falls
/// back to): one ARGB8888 dumb buffer of the driver's cursor size the plain pointer is drawn
/// into, shown on the CRTC's cursor plane so moving the pointer needs no composed frame.
/// `PointerPlanePlanner` decides; this only carries its decisions out. Compiled here, run only
/// on a machine with a GPU (this one has no /dev/dri).
final class DRMPointerPlane: PointerPlane {
    private let fd: Int32, crtc: UInt32
    private var planner: PointerPlanePlanner
    private let handle: UInt32, size: UInt64
    private let map: UnsafeMutableRawPointer
    private let image: Image
    private let whole: PixelRegion
    private let painter = PointerRenderer()
    private var shown = false
    /// The CRTC's part of the composed frame, in its pixels: the plane shows the pointer
    /// where it overlaps it, at its place within it.
    private let area: PixelRect
    /// The plane refused the pointer: the line to log.
    var refused: (String) -> Void = { _ in }

    /// nil when the driver has no cursor plane or its buffer cannot be made: the pointer is
    /// then always composed.
    init?(fd: Int32, crtc: UInt32, scale: Int32, area: PixelRect) {
        var w: UInt64 = 64, h: UInt64 = 64
        if drmGetCap(fd, UInt64(DRM_CAP_CURSOR_WIDTH), &w) != 0 { w = 64 }
        if drmGetCap(fd, UInt64(DRM_CAP_CURSOR_HEIGHT), &h) != 0 { h = 64 }
        let width = Int32(clamping: w), height = Int32(clamping: h)
        var handle: UInt32 = 0, pitch: UInt32 = 0, size: UInt64 = 0, offset: UInt64 = 0
        guard width > 0, height > 0, drmModeCreateDumbBuffer(fd, UInt32(width), UInt32(height), 32, 0, &handle, &pitch, &size) == 0 else { return nil }
        guard drmModeMapDumbBuffer(fd, handle, &offset) == 0,
              let map = mmap(nil, Int(size), PROT_READ | PROT_WRITE, MAP_SHARED, fd, off_t(offset)), map != MAP_FAILED,
              let image = Image(borrowing: map, width: width, height: height, stride: Int32(pitch), format: .argb8888) else {
            drmModeDestroyDumbBuffer(fd, handle)
            return nil
        }
        self.fd = fd
        self.crtc = crtc
        self.area = area
        self.handle = handle
        self.size = size
        self.map = map
        self.image = image
        planner = PointerPlanePlanner(width: width, height: height, scale: scale)
        whole = PixelRegion(PixelRect(x: 0, y: 0, width: width, height: height))
    }

    deinit {
        hide()
        munmap(map, Int(size))
        drmModeDestroyDumbBuffer(fd, handle)
    }

    /// The plane showed the pointer where the last step left it (`MotionToFlip`).
    var moved: () -> Void = {}

    func present(_ p: PointerPresentation, adaptive: Bool) -> Bool {
        switch planner.plan(p, adaptive: adaptive) {
        case .composite:
            hide()
            return false
        case .off:
            hide()
            return true
        case .plane(let x, let y, let hx, let hy, let upload):
            // Off this CRTC: another one's plane shows it.
            guard !PixelRect(x: x, y: y, width: planner.width, height: planner.height).intersection(area).isEmpty else {
                hide()
                return true
            }
            if upload || !shown {
                image.fill(PixelRect(x: 0, y: 0, width: planner.width, height: planner.height), color: 0)
                painter.draw(planner.imagePresentation(of: p), into: image, scale: Double(planner.scale), clip: whole, preview: nil)
                guard drmModeSetCursor2(fd, crtc, handle, UInt32(planner.width), UInt32(planner.height), hx, hy) == 0 else {
                    let e = lastErrno
                    // Busy (a commit on the CRTC not yet done): composed this once, the plane
                    // tried again with the next frame. Anything else: composed from now on.
                    let transient = [EBUSY, EINTR, EAGAIN].contains(e)
                    if !transient { planner.driverRefused() }
                    refused("the cursor plane on CRTC \(crtc) refused the pointer (\(SystemError("drmModeSetCursor2", errno: e)))\(transient ? "; trying again" : "; the pointer is composed from now on")")
                    return false
                }
                shown = true
            }
            _ = drmModeMoveCursor(fd, crtc, x &- area.x, y &- area.y)
            moved()
            return true
        }
    }

    /// The plane off (also before a VT switch: the next session's cursor is its own).
    func hide() {
        guard shown else { return }
        _ = drmModeSetCursor(fd, crtc, 0, 0, 0)
        shown = false
    }
}

/// The cursor planes of every lit CRTC as one `PointerPlane`: each shows the pointer where
/// it is over its output (both, while it straddles two), and the frame draws the pointer
/// only when one of them cannot.
final class DRMCursors: PointerPlane {
    private let planes: [DRMPointerPlane]

    init?(_ planes: [DRMPointerPlane]) {
        guard !planes.isEmpty else { return nil }
        self.planes = planes
    }

    func present(_ p: PointerPresentation, adaptive: Bool) -> Bool {
        planes.map { $0.present(p, adaptive: adaptive) }.allSatisfy { $0 }
    }

    func hide() { for plane in planes { plane.hide() } }
}
