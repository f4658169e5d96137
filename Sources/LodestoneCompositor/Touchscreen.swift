import WaylandServer

/// Routes touch points: each point belongs to the surface it went down on
/// until it lifts, wherever it moves (wl_touch has no enter/leave). Exists
/// only when `Compositor.Options.touch` is set: no backend has a touchscreen
/// yet, the wlcs integration drives it.
public final class Touchscreen {
    unowned let compositor: Compositor
    var touches: [WlTouch] = []
    private struct Point {
        weak var surface: WlSurface?
    }
    private var points: [Int32: Point] = [:]

    init(compositor: Compositor) { self.compositor = compositor }

    private func touches(of surface: WlSurface) -> [WlTouch] { touches.filter { $0.client == surface.client } }

    /// A finger touches global (x, y). Like a click, it raises and focuses the window.
    func down(id: Int32, x: Double, y: Double, time: UInt32) {
        guard points[id] == nil, let hit = compositor.scene.surfaceAt(x: x, y: y) else { return }
        points[id] = Point(surface: hit.surface)
        if let toplevel = compositor.scene.window(of: hit.surface) { compositor.desktop.activate(toplevel) }
        let serial = compositor.display.nextSerial()
        for t in touches(of: hit.surface) {
            t.down(serial: serial, time: time, surface: hit.surface, id: id, x: hit.sx, y: hit.sy)
            t.frame()
        }
    }

    /// The finger moved to global (x, y); its surface hears it in its own coordinates.
    func motion(id: Int32, x: Double, y: Double, time: UInt32) {
        guard let surface = points[id]?.surface, let (ox, oy) = compositor.origin(of: surface) else { return }
        for t in touches(of: surface) {
            t.motion(time: time, id: id, x: x - Double(ox), y: y - Double(oy))
            t.frame()
        }
    }

    func up(id: Int32, time: UInt32) {
        guard let point = points.removeValue(forKey: id), let surface = point.surface else { return }
        let serial = compositor.display.nextSerial()
        for t in touches(of: surface) {
            t.up(serial: serial, time: time, id: id)
            t.frame()
        }
    }

    /// A surface under a finger went away: its client hears the touch end
    /// (wl_touch has no leave), and the point is forgotten.
    func surfaceDestroyed(_ surface: WlSurface) {
        for (id, point) in points where point.surface === surface || point.surface == nil {
            points[id] = nil
            let serial = compositor.display.nextSerial()
            for t in touches(of: surface) {
                t.up(serial: serial, time: compositor.clock.now, id: id)
                t.frame()
            }
        }
    }
}
