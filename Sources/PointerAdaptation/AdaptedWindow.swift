import AdaptivePointerEngine
import AdaptivePointerProtocol
import Rendering

/// A window of the host that the adaptation reads: an xdg_toplevel or an X11 window in
/// Lodestone, a window a C host reported (`lodestone_pointer_adapter_window_configured`).
/// What only the host knows: whose it is, where it is, and its pixels if it has them.
package protocol AdaptedWindow: AnyObject {
    /// The process of its client (Wayland credentials; an X11 window's _NET_WM_PID), nil when unknown.
    var adaptedProcessID: Int32? { get }
    /// The title, which tells one AT-SPI frame of an app from another ("" when unknown).
    var title: String { get }
    var isMapped: Bool { get }
    /// The window geometry (the window as its app knows it, without server-side decorations):
    /// its top-left in global logical coordinates and its size.
    var adaptedFrame: WindowFrame { get }
    /// Its committed pixels, for controls grown to the outline they draw (`DrawnOutline`) and a
    /// terminal's rows (`TextRows`); nil when the host cannot give them.
    var adaptedPixels: WindowPixels? { get }
}

/// Where a window geometry is: its origin in global space and its size in logical points.
package struct WindowFrame: Equatable, Sendable {
    package var origin: Point<Global>
    package var width: Int32, height: Int32
    package init(origin: Point<Global>, width: Int32, height: Int32) {
        self.origin = origin
        self.width = width
        self.height = height
    }
}

/// A window's root surface pixels as the adaptation reads them.
package struct WindowPixels {
    /// The committed buffer.
    package var image: Image
    /// Surface-local points to buffer pixels.
    package var surfaceToBuffer: Affine
    /// The buffer scale.
    package var scale: Int32
    /// The surface's size in points, and where the window geometry's origin is in it.
    package var surfaceSize: (width: Int32, height: Int32)
    package var geometryOffset: (x: Int32, y: Int32)

    package init(image: Image, surfaceToBuffer: Affine, scale: Int32, surfaceSize: (width: Int32, height: Int32), geometryOffset: (x: Int32, y: Int32)) {
        self.image = image
        self.surfaceToBuffer = surfaceToBuffer
        self.scale = scale
        self.surfaceSize = surfaceSize
        self.geometryOffset = geometryOffset
    }
}

/// What the host last said of the pointer: pushed by the host when it changes, never asked
/// for, so the adaptation calls back into nothing that is on the stack.
package struct PointerContext {
    /// The window under the pointer (the toplevel of the surface it is over), nil over none.
    package weak var window: AdaptedWindow?
    /// The surface tree under the pointer declares adaptive_pointer_v1 regions: they win.
    package var declaresRegions = false
    /// Where the device put the pointer (before magnetism).
    package var device = Point<Global>(x: 0, y: 0)
    /// The region the pointer is on that waits for its app's confirmation.
    package var awaitingConfirmation: RegionID?
    /// The app's cursor says text (a terminal's rows are measured then).
    package var cursorIsText = false
    package init() {}
}

/// An accessibility region for the engine: the region in global space, what it was made from,
/// and where its window is.
package struct AdaptedRegion {
    package var region: Region
    package var draft: RegionDraft
    package var placement: SurfacePlacement
}
