import CWaylandProtocols
import CWaylandServer
import Rendering
import WaylandServer

/// `zwlr_screencopy_manager_v1` (wlr-protocols' wlr-screencopy-unstable-v1, in `protocols/`):
/// copies the output, or a region of it, into a client's wl_shm buffer, which is how
/// `grim` and screen recorders read the screen. Whoever binds it reads every window, so
/// it is offered only where the screen is Lodestone's own (headless, nested), and
/// `--no-screencopy` withdraws it (`Compositor.Options.screencopy`).
///
/// Frames are copied from what Lodestone composes: with `overlay_cursor` the output's
/// pixels exactly as presented (the pointer and its effects included); without it, the
/// windows composed again without the pointer.
final class ZwlrScreencopyManager: Resource, ZwlrScreencopyManagerV1Handler {
    static let version: Int32 = 3
    unowned let screencopy: Screencopy
    /// The output's pixels and composition without the pointer, for its frames' copies.
    unowned let source: any ScreencopySource
    /// Output pixels that changed since this manager's last `copy_with_damage` (the
    /// protocol counts damage per manager); everything until its first.
    let damage: PixelRegion
    /// False once the client destroyed the manager; frames it made still complete.
    private(set) var isLive = true

    init?(screencopy: Screencopy, source: any ScreencopySource, client: Client, version: UInt32, id: UInt32) {
        self.screencopy = screencopy
        self.source = source
        let output = screencopy.output
        damage = PixelRegion(PixelRect(x: 0, y: 0, width: output.pixelWidth, height: output.pixelHeight))
        super.init(client: client, version: version, id: id)
        screencopy.managers.append(self)
    }

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        case .captureOutput:
            capture(id: a.newID(0), overlayCursor: a.int(1) != 0, output: a.object(2), logical: nil)
        case .captureOutputRegion:
            capture(id: a.newID(0), overlayCursor: a.int(1) != 0, output: a.object(2),
                    logical: PixelRect(x: a.int(3), y: a.int(4), width: a.int(5), height: a.int(6)))
        case .destroy: destroy()
        }
    }

    override func destroyed() {
        isLive = false
        screencopy.managers.removeAll { $0 === self }
    }

    /// A frame of the whole output, or of `logical` (output logical coordinates, clipped
    /// to the output); a region that misses the output fails at once.
    private func capture(id: UInt32, overlayCursor: Bool, output: ObjectArgument?, logical: PixelRect?) {
        let out = screencopy.output
        var area: PixelRect?
        if let wlOutput = output?.object(as: WlOutput.self), wlOutput.output === out, let head = wlOutput.head {
            // The head's part of the composed frame.
            let whole = out.pixels(logical: head.bounds)
            // Logical to output pixels (edges rounded at a fractional scale, as wlroots
            // does), through PixelRect's saturating arithmetic.
            area = logical.map { out.pixels(logical: PixelRect.sanitized(x: $0.x.clampedAdding(head.bounds.x), y: $0.y.clampedAdding(head.bounds.y), width: $0.width, height: $0.height)).intersection(whole) } ?? whole
        }
        guard let frame = ZwlrScreencopyFrame(manager: self, area: area.flatMap { $0.isEmpty ? nil : $0 }, overlayCursor: overlayCursor,
                                              client: client, version: version, id: id) else { return }
        frame.announce()
    }
}

/// `zwlr_screencopy_frame_v1`: one copy. It says which buffer it needs (`buffer`,
/// `buffer_done`), takes one with `copy` or `copy_with_damage`, and answers `flags` and
/// `ready`, or `failed`.
final class ZwlrScreencopyFrame: Resource, ZwlrScreencopyFrameV1Handler {
    /// Kept after the client destroys it: its frames stay valid (the protocol says so).
    let manager: ZwlrScreencopyManager
    /// What is copied, in output pixels; nil when there is nothing to copy (another
    /// output, or a region outside this one): such a frame only fails.
    let area: PixelRect?
    let overlayCursor: Bool
    /// The client's buffer while a `copy_with_damage` waits for damage.
    private(set) var waiting: AttachedBuffer?
    private var used = false

    /// The only format offered: the output's own, so a copy is a plain blit.
    static let format = WL_SHM_FORMAT_XRGB8888.rawValue

    init?(manager: ZwlrScreencopyManager, area: PixelRect?, overlayCursor: Bool, client: Client, version: UInt32, id: UInt32) {
        self.manager = manager
        self.area = area
        self.overlayCursor = overlayCursor
        super.init(client: client, version: version, id: id)
    }

    /// The buffer this frame takes: wl_shm only (no dmabuf here).
    func announce() {
        guard let area else { return send { zwlr_screencopy_frame_v1_send_failed($0) } }
        send { zwlr_screencopy_frame_v1_send_buffer($0, Self.format, UInt32(area.width), UInt32(area.height), UInt32(area.width) * 4) }
        // Since 3
        if has(3) { send { zwlr_screencopy_frame_v1_send_buffer_done($0) } }
    }

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        case .copy: copy(a.object(0), withDamage: false)
        case .copyWithDamage: copy(a.object(0), withDamage: true)
        case .destroy: destroy()
        }
    }

    override func destroyed() {
        waiting = nil
        manager.screencopy.waiting.removeAll { $0 === self }
    }

    private func copy(_ object: ObjectArgument?, withDamage: Bool) {
        guard !used else {
            return postError(ZWLR_SCREENCOPY_FRAME_V1_ERROR_ALREADY_USED.rawValue, "this zwlr_screencopy_frame_v1 was already used to copy a buffer")
        }
        used = true
        guard let area, let buffer = object?.buffer else { return send { zwlr_screencopy_frame_v1_send_failed($0) } }
        // A buffer Lodestone cannot write into (a single-pixel buffer) is not malformed: the copy fails.
        guard let shm = buffer.shm else { return send { zwlr_screencopy_frame_v1_send_failed($0) } }
        guard shm.format == Self.format || shm.format == WL_SHM_FORMAT_ARGB8888.rawValue,
              shm.width == area.width, shm.height == area.height, shm.stride >= area.width * 4 else {
            return postError(ZWLR_SCREENCOPY_FRAME_V1_ERROR_INVALID_BUFFER.rawValue,
                             "buffer \(shm.width)×\(shm.height) (stride \(shm.stride), wl_shm format \(shm.format)) is not the " +
                             "\(area.width)×\(area.height) xrgb8888 or argb8888 buffer this frame announced")
        }
        // The latest state first: a copy shows what the clients have committed.
        manager.source.composeIfNeeded()
        if withDamage {
            guard let attached = AttachedBuffer(buffer) else { return client.postNoMemory() }
            waiting = attached
            manager.screencopy.waiting.append(self)
            manager.screencopy.completeDamaged()
        } else {
            complete(into: buffer, damage: nil)
        }
    }

    /// Copies the frame if the manager saw damage in its area since its last copy, sending
    /// that damage first; true when the frame is done.
    func completeIfDamaged() -> Bool {
        guard let area else { return true }
        guard let buffer = waiting?.buffer else {
            // The client destroyed the buffer while waiting.
            send { zwlr_screencopy_frame_v1_send_failed($0) }
            return true
        }
        let damage = manager.damage.copy()
        damage.intersect(area)
        guard !damage.isEmpty else { return false }
        manager.damage.clear()
        waiting = nil
        complete(into: buffer, damage: damage.extents.offsetBy(dx: -area.x, dy: -area.y))
        return true
    }

    /// The copy itself, then `flags` (never y-inverted: the output is top-down), the damage
    /// box if asked, and `ready` with the time the copied frame was presented.
    private func complete(into buffer: WlBuffer, damage: PixelRect?) {
        guard let area, let shm = buffer.shm else { return send { zwlr_screencopy_frame_v1_send_failed($0) } }
        let source = overlayCursor ? manager.source.capturedImage() : manager.source.composeWithoutPointer(area)
        shm.withPixels { data in
            let format: Image.Format = shm.format == Self.format ? .xrgb8888 : .argb8888
            guard let target = Image(borrowing: data, width: shm.width, height: shm.height, stride: shm.stride, format: format) else { return }
            target.copy(from: source, rect: area, toX: 0, y: 0)
        }
        send { zwlr_screencopy_frame_v1_send_flags($0, 0) }
        // Since 2
        if let damage, has(2) {
            send { zwlr_screencopy_frame_v1_send_damage($0, UInt32(damage.x), UInt32(damage.y), UInt32(damage.width), UInt32(damage.height)) }
        }
        let t = manager.source.lastPresented
        send { zwlr_screencopy_frame_v1_send_ready($0, t.secondsHigh, t.secondsLow, t.nanoseconds) }
    }
}
