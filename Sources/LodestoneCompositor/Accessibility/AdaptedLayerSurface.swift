import AdaptivePointerEngine
import PointerAdaptation

/// A layer surface (a panel, a launcher) as the adaptation reads it, as it reads a window:
/// its client's pid, its box, its pixels. Its title is its namespace, which is what GTK
/// panels title their AT-SPI frame ("waybar"); otherwise the frame is found by its size.
extension ZwlrLayerSurface: AdaptedWindow {
    var adaptedProcessID: Int32? { surface?.client.pid }
    var title: String { namespace }

    var adaptedFrame: WindowFrame {
        WindowFrame(origin: Point(x: Double(box.x), y: Double(box.y)), width: surface?.width ?? box.width, height: surface?.height ?? box.height)
    }

    var adaptedPixels: WindowPixels? {
        guard let surface, let image = surface.texture else { return nil }
        return WindowPixels(image: image, surfaceToBuffer: surface.surfaceToBuffer, scale: surface.scale,
                            surfaceSize: (surface.width, surface.height), geometryOffset: (0, 0))
    }
}

extension Scene {
    /// What the adaptation reads under a surface: its window, or its layer surface.
    func adaptedWindow(of surface: WlSurface) -> AdaptedWindow? { window(of: surface) ?? layerSurface(of: surface) }

    /// The root surface of what the adaptation reads.
    static func rootSurface(of window: AdaptedWindow) -> WlSurface? {
        (window as? DesktopWindow)?.surface ?? (window as? ZwlrLayerSurface)?.surface
    }
}
