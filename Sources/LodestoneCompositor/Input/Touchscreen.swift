import WaylandServer

/// Routes touch points: each point belongs to the surface it went down on
/// until it lifts, wherever it moves (wl_touch has no enter/leave). Exists
/// while a TTY's libinput has a touch device (`Seat.touchscreenPresent`),
/// or for good with `Compositor.Options.touch` (`--touchscreen`: the test
/// protocol's touch points; the wlcs integration drives it too).
///
/// A point whose client starts a drag with its down's serial belongs to the
/// drag from then on (`drag`, a `DragGrab` following the point): its client
/// hears no more of it, the drag moves with it, drops where it lifts and is
/// cancelled with the touches, as wlroots' touch drag grab does. The pointer
/// and the other points go on as before.
///
/// It holds the scene, the display (serials) and the clock; the window a finger lands on is
/// the seat's to activate (`hit`, then `down`).
public final class Touchscreen {
    private let scene: Scene
    private let display: Display
    private let clock: FrameClock
    var touches: [WlTouch] = []
    private struct Point {
        weak var surface: WlSurface?
        /// The serial its down was sent with: `start_drag` names it.
        let serial: UInt32
        /// Where it is, global.
        var x, y: Double
    }
    private var points: [Int32: Point] = [:]
    /// The drag a finger holds, and which finger.
    private(set) var drag: (id: Int32, grab: DragGrab)?

    init(scene: Scene, display: Display, clock: FrameClock) {
        self.scene = scene
        self.display = display
        self.clock = clock
    }

    private func touches(of surface: WlSurface) -> [WlTouch] { touches.filter { $0.client == surface.client } }

    /// What a finger touching global (x, y) lands on: the surface and the point in it; nil
    /// when nothing is there or the finger is already down. The seat activates its window
    /// (like a click), then puts the finger `down`.
    func hit(id: Int32, x: Double, y: Double) -> (surface: WlSurface, sx: Double, sy: Double)? {
        guard points[id] == nil, drag?.id != id, let hit = scene.surfaceAt(x: x, y: y) else { return nil }
        return (hit.surface, hit.sx, hit.sy)
    }

    /// A finger touches global (x, y), on what `hit` found there.
    func down(id: Int32, on hit: (surface: WlSurface, sx: Double, sy: Double), x: Double, y: Double, time: UInt32) {
        let serial = display.nextSerial()
        points[id] = Point(surface: hit.surface, serial: serial, x: x, y: y)
        for t in touches(of: hit.surface) {
            t.down(serial: serial, time: time, surface: hit.surface, id: id, x: hit.sx, y: hit.sy)
            t.frame()
        }
    }

    /// The finger moved to global (x, y); its surface hears it in its own coordinates.
    func motion(id: Int32, x: Double, y: Double, time: UInt32) {
        if let drag, drag.id == id { return drag.grab.touchMoved(x: x, y: y, time: time) }
        points[id]?.x = x
        points[id]?.y = y
        guard let surface = points[id]?.surface, let (ox, oy) = scene.origin(of: surface) else { return }
        for t in touches(of: surface) {
            t.motion(time: time, id: id, x: x - Double(ox), y: y - Double(oy))
            t.frame()
        }
    }

    func up(id: Int32, time: UInt32) {
        if let drag, drag.id == id { return drag.grab.touchReleased() }
        guard let point = points.removeValue(forKey: id), let surface = point.surface else { return }
        let serial = display.nextSerial()
        for t in touches(of: surface) {
            t.up(serial: serial, time: time, id: id)
            t.frame()
        }
    }

    /// Every point ends (`wl_touch.cancel` to the clients that had one), and a drag a
    /// finger holds is cancelled.
    func cancel() {
        drag?.grab.cancel()
        let clients = points.values.compactMap(\.surface?.client)
        points = [:]
        for t in touches where clients.contains(t.client) { t.cancel() }
    }

    /// A surface under a finger went away: its client hears the touch end
    /// (wl_touch has no leave), and the point is forgotten.
    func surfaceDestroyed(_ surface: WlSurface) {
        _ = drag?.grab.surfaceDestroyed(surface)
        for (id, point) in points where point.surface === surface || point.surface == nil {
            points[id] = nil
            let serial = display.nextSerial()
            for t in touches(of: surface) {
                t.up(serial: serial, time: clock.now, id: id)
                t.frame()
            }
        }
    }

    // MARK: Drags

    /// The finger still down whose down `serial` went to `client` (the implicit touch
    /// grab), if there is one.
    func point(serial: UInt32, of client: Client) -> (id: Int32, x: Double, y: Double)? {
        points.first { $0.value.serial == serial && $0.value.surface?.client == client }.map { ($0.key, $0.value.x, $0.value.y) }
    }

    /// The point's client started a drag: the point is the drag's now (its client hears
    /// nothing more of it).
    func dragStarted(_ grab: DragGrab, id: Int32) {
        points[id] = nil
        drag = (id, grab)
    }

    func dragEnded(_ grab: DragGrab) {
        if drag?.grab === grab { drag = nil }
    }
}
