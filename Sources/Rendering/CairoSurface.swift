import CCairo

/// A cairo image surface over pixels someone else owns (no copy): a `cairo_surface_t *`.
///
/// A thin value that owns nothing by itself: each successful `init` is paired with one
/// `destroy()`, as `cairo_image_surface_create_for_data` is with `cairo_surface_destroy`, and
/// the pixels must outlive the surface. Drawing code passes it around and calls its methods; the
/// pointer is reachable only through `withUnsafeSurfacePointer`, for the other cairo wrappers.
struct CairoSurface {
    /// The pixel layouts Rendering hands to cairo (`cairo_format_t`).
    enum Format {
        /// Premultiplied 32-bit ARGB (`CAIRO_FORMAT_ARGB32`, pixman's a8r8g8b8).
        case argb32
        /// 32-bit RGB, the high byte ignored (`CAIRO_FORMAT_RGB24`, pixman's x8r8g8b8).
        case rgb24
        /// 8-bit coverage (`CAIRO_FORMAT_A8`, pixman's a8).
        case a8

        fileprivate var cairo: cairo_format_t {
            switch self {
            case .argb32: CAIRO_FORMAT_ARGB32
            case .rgb24: CAIRO_FORMAT_RGB24
            case .a8: CAIRO_FORMAT_A8
            }
        }
    }

    /// The `cairo_surface_t *`.
    private let pointer: OpaquePointer

    /// A surface over `data` (`cairo_image_surface_create_for_data`); nil if cairo could not
    /// make one (its error surface is destroyed here, so a nil needs no `destroy()`).
    init?(data: UnsafeMutablePointer<UInt8>, format: Format, width: Int32, height: Int32, stride: Int32) {
        guard let s = cairo_image_surface_create_for_data(data, format.cairo, width, height, stride) else { return nil }
        guard cairo_surface_status(s) == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(s)
            return nil
        }
        pointer = s
    }

    /// A surface over an image's pixels (no copy); destroy it before the image goes.
    init?(over image: Image) {
        self.init(data: UnsafeMutableRawPointer(image.data).assumingMemoryBound(to: UInt8.self),
                  format: image.format == .argb8888 ? .argb32 : .rgb24,
                  width: image.width, height: image.height, stride: image.stride)
    }

    /// Frees the surface (`cairo_surface_destroy`), not the pixels; it must not be used afterwards.
    func destroy() { cairo_surface_destroy(pointer) }

    /// Tells cairo the pixels were changed behind its back (by pixman, by a client).
    func markDirty() { cairo_surface_mark_dirty(pointer) }

    /// Makes cairo finish writing its pending drawing into the pixels.
    func flush() { cairo_surface_flush(pointer) }

    /// Lends the `cairo_surface_t *` to `body`, for the wrappers that call cairo with it; it must
    /// not be kept past the call.
    func withUnsafeSurfacePointer<Result>(_ body: (OpaquePointer) throws -> Result) rethrows -> Result {
        try body(pointer)
    }
}
