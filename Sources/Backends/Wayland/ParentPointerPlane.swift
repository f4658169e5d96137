import CWaylandClient
import LodestoneCompositor
import Logging
import AdaptivePointerEngine
import Rendering
import WaylandClient

/// Nested, the parent's cursor is Lodestone's cursor plane: while the pointer is plain (the
/// circle or the arrow alone, as `PointerPlanePlanner` decides) its image is the parent's
/// `wl_pointer` cursor surface, hotspot at the circle's centre or the arrow's tip, so the
/// pointer moves at the parent's cursor latency and plain motion composes no frame.
///
/// Hand-overs ride on the frame that needs them: when the pointer goes into or out of
/// Lodestone's frame, the cursor changes (`set_cursor`) just before that frame's
/// `wl_surface.commit` (`Presenter`), in the same flush, so no parent frame shows two
/// pointers or none. A new image while the cursor already shows goes at once: no frame is
/// involved. While magnetism or latching holds the pointer away from the hand the parent's
/// cursor (always at the hand) would disagree: the pointer is composed instead.
final class ParentPointerPlane: PointerPlane {
    /// The image one plain pointer needs, as the parent's cursor surface shows it.
    private struct Cursor {
        let key: PointerPlanePlanner.CursorImageKey
        let buffer: ClientShmBuffer
        /// The buffer scale and the hotspot in surface points.
        let scale: Int32, hotspotX: Int32, hotspotY: Int32
    }

    /// The cursor image's side in points: room for the circle or the arrow at their larger sizes.
    static let side: Int32 = 64

    private let shm: Proxy
    private let compositor: Proxy
    private let output: Output
    private let log: Logger
    private var planner: PointerPlanePlanner
    private let painter = PointerRenderer()
    /// The parent's pointer and the serial of its enter on Lodestone's window (nil: left).
    private var pointer: Proxy?
    private var serial: UInt32?
    private var surface: Proxy?
    /// Images drawn so far (a handful: one per size, scale, style and colour seen).
    private var images: [PointerPlanePlanner.CursorImageKey: Cursor] = [:]
    /// What the parent's cursor shows (nil: hidden), and what it should show after the next frame.
    private var shown: Cursor?
    private var wanted: Cursor?
    /// Whether the frame last committed to the parent draws the pointer, and whether the
    /// one being composed does: a cursor change waits for a commit only when a frame's
    /// pointer goes or comes with it.
    private var committedFrameDrawsPointer = false
    private var frameDrawsPointer = false

    /// `set_cursor` requests and cursor surface commits so far (the log at exit and tests).
    private(set) var cursorUpdates = 0

    init(shm: Proxy, compositor: Proxy, output: Output, logger: Logger) {
        self.shm = shm
        self.compositor = compositor
        self.output = output
        log = logger
        planner = PointerPlanePlanner(width: Self.side, height: Self.side, scale: 1)
    }

    deinit { surface?.destroy { wl_surface_destroy($0) } }

    /// The parent's pointer entered Lodestone's window with `serial`: the cursor is ours
    /// to set again (hidden until a frame or the plane shows it).
    func entered(_ pointer: Proxy, serial: UInt32) {
        self.pointer = pointer
        self.serial = serial
        apply(shown)
    }

    /// The parent's pointer left the window (or went away): the serial is spent.
    func left() { serial = nil }

    /// The parent's pointer is gone (its capability removed).
    func pointerReleased() {
        pointer = nil
        serial = nil
    }

    func present(_ p: PointerPresentation, adaptive: Bool) -> Bool {
        let scale = max(1, output.scale.ceiling)
        if planner.scale != scale { planner = PointerPlanePlanner(width: Self.side * scale, height: Self.side * scale, scale: scale) }
        // The parent's cursor is at the hand: only a pointer at the hand can be it.
        let anchor = PointerPlanePlanner.anchor(p.pointer)
        let atHand = abs(anchor.x - p.devicePosition.x) < 0.5 && abs(anchor.y - p.devicePosition.y) < 0.5
        let decision: PointerPlanePlanner.Decision = atHand || !adaptive ? planner.plan(p, adaptive: adaptive) : .composite(.beneathContent)
        switch decision {
        case .composite:
            // Hidden with the frame that draws the pointer.
            wanted = nil
            frameDrawsPointer = true
            return false
        case .off:
            wanted = nil
            frameDrawsPointer = false
            apply(nil)
            return true
        case .plane:
            let key = PointerPlanePlanner.key(p.pointer, scale: scale)
            guard let cursor = images[key] ?? draw(p, key: key, scale: scale) else { return false }
            wanted = cursor
            frameDrawsPointer = false
            // Already the parent's cursor (a new image), or no frame shows the pointer:
            // nothing waits for a frame.
            if let shown, shown.key != key {
                apply(cursor)
            } else if shown == nil, !committedFrameDrawsPointer {
                apply(cursor)
            }
            return true
        }
    }

    /// Called just before the frame's commit: the cursor the frame was composed for.
    func frameCommitting() {
        committedFrameDrawsPointer = frameDrawsPointer
        if shown?.key != wanted?.key || (shown == nil) != (wanted == nil) { apply(wanted) }
    }

    /// Sets the parent's cursor to `cursor` (nil: hidden) under the current enter.
    private func apply(_ cursor: Cursor?) {
        shown = cursor
        guard let pointer, let serial else { return }
        cursorUpdates += 1
        // Flushed at once: a change that goes with a frame is made just before its commit,
        // which the presenter flushes right after.
        defer { pointer.connection.flush() }
        guard let cursor else {
            pointer.request { wl_pointer_set_cursor($0, serial, nil, 0, 0) }
            return
        }
        if surface == nil {
            surface = try? Proxy(creating: { compositor.request { wl_compositor_create_surface($0) } }, on: pointer.connection, what: "wl_compositor.create_surface")
        }
        guard let surface else { return }
        pointer.request(surface) { wl_pointer_set_cursor($0, serial, $1, cursor.hotspotX, cursor.hotspotY) }
        surface.request { wl_surface_set_buffer_scale($0, cursor.scale) }
        surface.request(cursor.buffer.buffer) { wl_surface_attach($0, $1, 0, 0) }
        surface.request { wl_surface_damage_buffer($0, 0, 0, cursor.buffer.width, cursor.buffer.height) }
        surface.request { wl_surface_commit($0) }
    }

    /// The image for `key`, drawn once (the cache is emptied when it grows past a handful:
    /// a pointer whose colour animates would otherwise keep every step).
    private func draw(_ p: PointerPresentation, key: PointerPlanePlanner.CursorImageKey, scale: Int32) -> Cursor? {
        let side = planner.width
        guard let buffer = ClientShmBuffer(shm: shm, width: side, height: side),
              let image = buffer.image( width: side, height: side, stride: buffer.stride, format: .argb8888)
        else {
            log.error("cannot make the parent's cursor image")
            return nil
        }
        buffer.fill(0)
        let whole = PixelRegion(PixelRect(x: 0, y: 0, width: side, height: side))
        painter.draw(planner.imagePresentation(of: p), into: image, scale: Double(scale), clip: whole, preview: nil)
        if images.count >= 16 { images = images.filter { $0.key == shown?.key } }
        let cursor = Cursor(key: key, buffer: buffer, scale: scale, hotspotX: Self.side / 2, hotspotY: Self.side / 2)
        images[key] = cursor
        return cursor
    }
}
