// liblodestone-pointer: a host's window pixels for the adapter
// (lodestone_pointer_adapter_set_window_pixels), so a C host that can read a window's buffer
// gets what Lodestone gets: controls grown to their drawn outlines (`DrawnOutline`) and a
// terminal's rows (`TextRows`).

import CLodestonePointer
import PointerAdaptation
import Rendering

/// The host's `lodestone_pointer_window_pixels_fn` and its data: asked only when the
/// adaptation reads a window's pixels (once per walk, twice a second over a terminal).
final class HostWindowPixels {
    let callback: lodestone_pointer_window_pixels_fn
    let data: UnsafeMutableRawPointer?

    /// The largest buffer copied, each side, in pixels (a window on an 8K output fits).
    static let maximumSide: Int32 = 8192

    init(callback: lodestone_pointer_window_pixels_fn, data: UnsafeMutableRawPointer?) {
        self.callback = callback
        self.data = data
    }

    /// `window`'s pixels as the host gives them now, copied (the host's memory is read during
    /// the call only); the last copy again when the host's commit count is unchanged.
    func pixels(of window: AdapterWindow) -> WindowPixels? {
        var p = lodestone_pointer_window_pixels()
        p.size = UInt32(MemoryLayout<lodestone_pointer_window_pixels>.size)
        guard callback(data, window.id, &p) else {
            window.pixels = nil
            return nil
        }
        if let kept = window.pixels, kept.commit == p.commit { return kept.pixels }
        window.pixels = nil
        let (width, height, stride, scale) = (p.width, p.height, p.stride, p.scale)
        guard let argb = p.argb, width > 0, height > 0, width <= Self.maximumSide, height <= Self.maximumSide,
              stride % 4 == 0, stride / 4 >= width, (1...CursorThemes.maximumScale).contains(scale) else { return nil }
        let image = Image(width: width, height: height, format: .argb8888)
        let rowPixels = Int(image.stride / 4), sourceRow = Int(stride / 4)
        image.withPixels { data in
            for y in 0..<Int(height) { (data + y * rowPixels).update(from: argb + y * sourceRow, count: Int(width)) }
        }
        let pixels = WindowPixels(image: image, surfaceToBuffer: .scale(Double(scale), Double(scale)), scale: scale,
                                  surfaceSize: (width / scale, height / scale), geometryOffset: (p.geometry_x, p.geometry_y))
        window.pixels = (p.commit, pixels)
        return pixels
    }
}

@_cdecl("lodestone_pointer_adapter_set_window_pixels")
public func lodestone_pointer_adapter_set_window_pixels(_ adapter: OpaquePointer?, _ pixels: lodestone_pointer_window_pixels_fn?,
                                                        _ data: UnsafeMutableRawPointer?) {
    guard let a = AdapterHandle.from(adapter) else { return }
    a.hostPixels = pixels.map { HostWindowPixels(callback: $0, data: data) }
    for w in a.windows.values {
        w.hostPixels = a.hostPixels
        w.pixels = nil
    }
}
