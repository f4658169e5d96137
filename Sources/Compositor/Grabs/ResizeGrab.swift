import CWaylandServer
import Rendering

/// `xdg_toplevel.resize`: the hand drags the given edges; each step is a configure the
/// client follows. The opposite edges stay put (`XdgToplevel.resizeAnchor`).
final class ResizeGrab: PointerGrab {
    let toplevel: XdgToplevel
    private let edges: UInt32
    private let start: (x: Double, y: Double)
    private let size: (width: Int32, height: Int32)

    init(toplevel: XdgToplevel, edges: UInt32, device: (x: Double, y: Double)) {
        self.toplevel = toplevel
        self.edges = edges
        start = device
        let g = toplevel.xdgSurface.geometry
        let p = toplevel.xdgSurface.position
        size = (g.width, g.height)
        toplevel.resizeAnchor = (edges, p.x.clampedAdding(g.width), p.y.clampedAdding(g.height))
        toplevel.setResizing(true)
    }

    var routesToClients: Bool { false }

    func motion(_ seat: Seat, device: (x: Double, y: Double), time: UInt32) {
        let dx = device.x - start.x, dy = device.y - start.y
        var w = Double(size.width), h = Double(size.height)
        if edges & XDG_TOPLEVEL_RESIZE_EDGE_LEFT.rawValue != 0 { w -= dx }
        if edges & XDG_TOPLEVEL_RESIZE_EDGE_RIGHT.rawValue != 0 { w += dx }
        if edges & XDG_TOPLEVEL_RESIZE_EDGE_TOP.rawValue != 0 { h -= dy }
        if edges & XDG_TOPLEVEL_RESIZE_EDGE_BOTTOM.rawValue != 0 { h += dy }
        var nw = max(Int32(clamping: Int(w.rounded())), max(1, toplevel.minSize.width))
        var nh = max(Int32(clamping: Int(h.rounded())), max(1, toplevel.minSize.height))
        if toplevel.maxSize.width > 0 { nw = min(nw, toplevel.maxSize.width) }
        if toplevel.maxSize.height > 0 { nh = min(nh, toplevel.maxSize.height) }
        toplevel.configure(width: nw, height: nh)
    }

    func pressStarted(_ seat: Seat) {}
    func button(_ seat: Seat, _ button: UInt32, pressed: Bool, time: UInt32) {}

    func released(_ seat: Seat) {
        toplevel.resizeEnded()
        seat.endGrab()
    }

    func axis(_ seat: Seat, _ axis: PointerAxis, time: UInt32) {}
    func surfaceDestroyed(_ surface: WlSurface) -> Bool { toplevel.xdgSurface.surface === surface }
}
