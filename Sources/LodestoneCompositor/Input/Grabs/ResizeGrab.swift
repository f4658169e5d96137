import CWaylandServer
import Rendering

/// `xdg_toplevel.resize` (or X11's `_NET_WM_MOVERESIZE` on an edge): the hand drags the
/// given edges (`xdg_toplevel.resize_edge` bits); each step asks the window for a size
/// (a configure the client follows, or X's ConfigureWindow). The opposite edges stay put.
final class ResizeGrab: PointerGrab {
    let window: DesktopWindow
    private let edges: UInt32
    private let start: (x: Double, y: Double)
    private let size: (width: Int32, height: Int32)

    init(window: DesktopWindow, edges: UInt32, device: (x: Double, y: Double)) {
        self.window = window
        self.edges = edges
        start = device
        let g = window.geometry
        size = (g.width, g.height)
        window.resizeStarted(edges: edges)
    }

    var routesToClients: Bool { false }

    func motion(device: (x: Double, y: Double), logical: (x: Double, y: Double), time: UInt32) -> GrabResponse {
        let dx = device.x - start.x, dy = device.y - start.y
        var w = Double(size.width), h = Double(size.height)
        if edges & XDG_TOPLEVEL_RESIZE_EDGE_LEFT.rawValue != 0 { w -= dx }
        if edges & XDG_TOPLEVEL_RESIZE_EDGE_RIGHT.rawValue != 0 { w += dx }
        if edges & XDG_TOPLEVEL_RESIZE_EDGE_TOP.rawValue != 0 { h -= dy }
        if edges & XDG_TOPLEVEL_RESIZE_EDGE_BOTTOM.rawValue != 0 { h += dy }
        let (minSize, maxSize) = (window.minSize, window.maxSize)
        var nw = max(Int32(clamping: Int(w.rounded())), max(1, minSize.width))
        var nh = max(Int32(clamping: Int(h.rounded())), max(1, minSize.height))
        if maxSize.width > 0 { nw = min(nw, maxSize.width) }
        if maxSize.height > 0 { nh = min(nh, maxSize.height) }
        window.resize(width: nw, height: nh)
        return .taken
    }

    func pressStarted(focus: WlSurface?) -> GrabResponse { .taken }
    func button(_ button: UInt32, pressed: Bool, time: UInt32) -> GrabResponse { .taken }

    func released(at logical: (x: Double, y: Double)) -> GrabResponse {
        window.resizeEnded()
        return .end
    }

    func axis(_ axis: PointerAxis, time: UInt32) -> GrabResponse { .taken }
    func surfaceDestroyed(_ surface: WlSurface) -> Bool { window.surface === surface }
}
