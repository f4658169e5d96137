// liblodestone-pointer: the adapter's view of a host's window, and cursor names as hosts give them.

import AdaptivePointerEngine
import PointerAdaptation
import Rendering

/// A window a C host reported: its pid and rectangle, as `AdaptedWindow`; its pixels when the
/// host gave a way to read them (`lodestone_pointer_adapter_set_window_pixels`), or none: then
/// controls keep their published extents and terminals the cursor name's beam.
final class AdapterWindow: AdaptedWindow {
    let id: UInt64
    var pid: Int32
    var adaptedFrame: WindowFrame
    var layer: Int32
    var surface: OpaquePointer?
    var adaptedProcessID: Int32? { pid > 0 ? pid : nil }
    var title: String { "" }
    var isMapped: Bool { true }
    /// How the host's pixels are read, and the last copy with the host's commit count.
    var hostPixels: HostWindowPixels?
    var pixels: (commit: UInt64, pixels: WindowPixels)?
    var adaptedPixels: WindowPixels? { hostPixels?.pixels(of: self) }
    /// The rectangle in global space, for what covers what.
    var rect: Rect<Global> {
        Rect(x: adaptedFrame.origin.x, y: adaptedFrame.origin.y, width: Double(adaptedFrame.width), height: Double(adaptedFrame.height))
    }

    init(id: UInt64, pid: Int32, frame: WindowFrame, layer: Int32, surface: OpaquePointer?) {
        self.id = id
        self.pid = pid
        self.adaptedFrame = frame
        self.layer = layer
        self.surface = surface
    }
}

extension CursorName {
    /// A name as hosts give it: a CSS name, or a theme file name ("left_ptr", "xterm", "hand2").
    init?(hostName: String) {
        if let css = CursorName(rawValue: hostName) { self = css; return }
        guard let legacy = CursorName.allCases.first(where: { $0.themeNames.contains(hostName) }) else { return nil }
        self = legacy
    }
}
