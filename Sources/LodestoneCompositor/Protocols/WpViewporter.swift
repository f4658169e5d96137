import CWaylandProtocols
import CWaylandServer
import WaylandServer

/// A viewport's source rectangle, in the surface coordinates the buffer would have
/// without a viewport (after buffer scale and transform); wl_fixed, so fractional.
struct ViewportSource: Equatable {
    var x, y, width, height: Double
}

/// `wp_viewporter` (viewporter, stable): crop a surface's buffer (`set_source`) and scale
/// it to a size (`set_destination`), independently of the buffer's size. Video players
/// scale frames this way, toolkits stretch single-pixel buffers with it. The renderer
/// does both in the surface's buffer transform (`WlSurface.surfaceToBuffer`).
final class WpViewporter: Resource, WpViewporterHandler {
    static let version: Int32 = 1

    override init?(client: Client, version: UInt32, id: UInt32) {
        super.init(client: client, version: version, id: id)
    }

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        case .destroy: destroy()
        case .getViewport:
            guard let surface = a.object(1, as: WlSurface.self) else { return }
            if let existing = surface.viewport {
                return postError(WP_VIEWPORTER_ERROR_VIEWPORT_EXISTS.rawValue,
                                 "wl_surface@\(surface.objectID) already has a wp_viewport (wp_viewport@\(existing.objectID))")
            }
            // The wp_viewport resource owns the new object (until the client destroys it); the
            // surface only points at it.
            let viewport = WpViewport(surface: surface, client: client, version: version, id: a.newID(0))
            surface.viewport = viewport
        }
    }
}

/// `wp_viewport`: one surface's crop and scale, double-buffered like the rest of the
/// surface's state. Destroying it unsets both on the surface's next commit.
final class WpViewport: Resource, WpViewportHandler {
    private weak var surface: WlSurface?

    init?(surface: WlSurface, client: Client, version: UInt32, id: UInt32) {
        self.surface = surface
        super.init(client: client, version: version, id: id)
    }

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        case .destroy: destroy()
        case .setSource: setSource(x: a.fixed(0), y: a.fixed(1), width: a.fixed(2), height: a.fixed(3))
        case .setDestination: setDestination(width: a.int(0), height: a.int(1))
        }
    }

    override func destroyed() {
        guard let surface, surface.viewport === self else { return }
        surface.viewport = nil
        surface.pending.viewportSource = .some(nil)
        surface.pending.viewportDestination = .some(nil)
    }

    private func setSource(x: Double, y: Double, width: Double, height: Double) {
        guard let surface = liveSurface() else { return }
        if x == -1, y == -1, width == -1, height == -1 { surface.pending.viewportSource = .some(nil); return }
        guard x >= 0, y >= 0, width > 0, height > 0 else {
            return postError(WP_VIEWPORT_ERROR_BAD_VALUE.rawValue,
                             "source rectangle \(x), \(y), \(width)×\(height) needs x, y ≥ 0 and a positive size (or all -1 to unset)")
        }
        surface.pending.viewportSource = .some(ViewportSource(x: x, y: y, width: width, height: height))
    }

    private func setDestination(width: Int32, height: Int32) {
        guard let surface = liveSurface() else { return }
        if width == -1, height == -1 { surface.pending.viewportDestination = .some(nil); return }
        guard width > 0, height > 0 else {
            return postError(WP_VIEWPORT_ERROR_BAD_VALUE.rawValue,
                             "destination size \(width)×\(height) is not positive (or -1×-1 to unset)")
        }
        surface.pending.viewportDestination = .some((width, height))
    }

    /// The surface, or nil after posting no_surface: it was destroyed.
    private func liveSurface() -> WlSurface? {
        guard let surface, surface.viewport === self else {
            postError(WP_VIEWPORT_ERROR_NO_SURFACE.rawValue, "the wl_surface of this wp_viewport was destroyed")
            return nil
        }
        return surface
    }

    /// Checks the state a commit is applying against its buffer (`bufferWidth` ×
    /// `bufferHeight` in surface coordinates without the viewport); false after posting
    /// out_of_buffer or bad_size.
    func validate(source: ViewportSource?, destination: (Int32, Int32)?, bufferWidth: Int32, bufferHeight: Int32) -> Bool {
        guard let source else { return true }
        if bufferWidth > 0, source.x + source.width > Double(bufferWidth) || source.y + source.height > Double(bufferHeight) {
            postError(WP_VIEWPORT_ERROR_OUT_OF_BUFFER.rawValue,
                      "source rectangle \(source.x), \(source.y), \(source.width)×\(source.height) extends outside the \(bufferWidth)×\(bufferHeight) buffer")
            return false
        }
        if destination == nil, source.width.rounded() != source.width || source.height.rounded() != source.height {
            postError(WP_VIEWPORT_ERROR_BAD_SIZE.rawValue,
                      "source size \(source.width)×\(source.height) is not whole and no destination size is set")
            return false
        }
        return true
    }
}
