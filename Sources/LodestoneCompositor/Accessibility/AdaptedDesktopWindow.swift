import AdaptivePointerEngine
import PointerAdaptation

/// Lodestone's windows as the adaptation reads them (PointerAdaptation's `AdaptedWindow`):
/// the client's pid, the window geometry in global space, the root surface's pixels.
extension DesktopWindow {
    /// A Wayland client's credentials; an X11 window's _NET_WM_PID (Xwayland is the client of every X window).
    var adaptedProcessID: Int32? {
        if let x = self as? XwaylandWindow { return x.processID }
        return surface?.client.pid
    }

    var adaptedFrame: WindowFrame {
        let g = geometry, (ox, oy) = surfaceOrigin
        return WindowFrame(origin: Point(x: Double(ox) + Double(g.x), y: Double(oy) + Double(g.y)), width: g.width, height: g.height)
    }

    var adaptedPixels: WindowPixels? {
        guard let surface, let image = surface.texture else { return nil }
        let g = geometry
        return WindowPixels(image: image, surfaceToBuffer: surface.surfaceToBuffer, scale: surface.scale,
                            surfaceSize: (surface.width, surface.height), geometryOffset: (g.x, g.y))
    }
}
