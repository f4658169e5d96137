import CCairo

/// Composes step captures into one image with cairo: thumbnails in a grid,
/// each with its number and title beneath.
public enum ContactSheet {
    public struct Failed: Error, CustomStringConvertible { public let description: String }

    /// Writes `entries` (PNG path, caption) as a grid `columns` wide, each
    /// thumbnail `thumbnailWidth` points wide, to `path`.
    public static func write(_ entries: [(path: String, caption: String)], to path: String,
                             columns: Int = 4, thumbnailWidth: Double = 320) throws {
        guard !entries.isEmpty else { throw Failed(description: "nothing to put on the contact sheet") }
        let images = try entries.map { e -> OpaquePointer in
            guard let s = cairo_image_surface_create_from_png(e.path), cairo_surface_status(s) == CAIRO_STATUS_SUCCESS else {
                throw Failed(description: "cannot read \(e.path)")
            }
            return s
        }
        defer { images.forEach { cairo_surface_destroy($0) } }
        let first = images[0]
        let scale = thumbnailWidth / Double(cairo_image_surface_get_width(first))
        let thumbHeight = Double(cairo_image_surface_get_height(first)) * scale
        let margin = 12.0, captionHeight = 22.0
        let rows = (entries.count + columns - 1) / columns
        let width = Int32(margin + Double(columns) * (thumbnailWidth + margin))
        let height = Int32(margin + Double(rows) * (thumbHeight + captionHeight + margin))
        guard let sheet = cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height), let cr = cairo_create(sheet) else {
            throw Failed(description: "cannot create a \(width)×\(height) sheet")
        }
        defer { cairo_surface_destroy(sheet) }
        cairo_set_source_rgb(cr, 0.16, 0.16, 0.18)
        cairo_paint(cr)
        cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(cr, 12)
        for (i, (image, entry)) in zip(images, entries).enumerated() {
            let x = margin + Double(i % columns) * (thumbnailWidth + margin)
            let y = margin + Double(i / columns) * (thumbHeight + captionHeight + margin)
            cairo_save(cr)
            cairo_translate(cr, x, y)
            cairo_scale(cr, scale, scale)
            cairo_set_source_surface(cr, image, 0, 0)
            cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
            cairo_paint(cr)
            cairo_restore(cr)
            cairo_set_source_rgb(cr, 0.92, 0.92, 0.94)
            cairo_move_to(cr, x, y + thumbHeight + 16)
            entry.caption.withCString { cairo_show_text(cr, $0) }
        }
        cairo_destroy(cr)
        guard cairo_surface_write_to_png(sheet, path) == CAIRO_STATUS_SUCCESS else {
            throw Failed(description: "cannot write \(path)")
        }
    }

    /// Writes the region `(x, y, width, height)` of a PNG, scaled by `scale`, to `path`.
    public static func crop(_ source: String, x: Double, y: Double, width: Double, height: Double,
                            scale: Double = 1, to path: String) throws {
        guard let image = cairo_image_surface_create_from_png(source), cairo_surface_status(image) == CAIRO_STATUS_SUCCESS else {
            throw Failed(description: "cannot read \(source)")
        }
        defer { cairo_surface_destroy(image) }
        guard let out = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(width * scale), Int32(height * scale)),
              let cr = cairo_create(out) else { throw Failed(description: "cannot crop \(source)") }
        defer { cairo_surface_destroy(out) }
        cairo_scale(cr, scale, scale)
        cairo_set_source_surface(cr, image, -x, -y)
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
        cairo_paint(cr)
        cairo_destroy(cr)
        guard cairo_surface_write_to_png(out, path) == CAIRO_STATUS_SUCCESS else { throw Failed(description: "cannot write \(path)") }
    }
}
