import CCairo
import LodestoneSystem

/// Composes step captures into one image with cairo: thumbnails in a grid,
/// each with its number and title beneath.
public enum ContactSheet {
    /// cairo never returns NULL: a failed surface or context is an inert
    /// object whose status says why. Returns `object`, or throws `what` with cairo's reason.
    private static func checked(_ object: OpaquePointer?, _ status: (OpaquePointer) -> cairo_status_t,
                                _ what: @autoclosure () -> String) throws(SystemError) -> OpaquePointer {
        let code = object.map(status) ?? CAIRO_STATUS_NO_MEMORY
        guard let object, code == CAIRO_STATUS_SUCCESS else {
            throw SystemError(what(), reason: String(cString: cairo_status_to_string(code)))
        }
        return object
    }

    private static func written(_ surface: OpaquePointer, to path: String) throws(SystemError) {
        let code = cairo_surface_write_to_png(surface, path)
        guard code == CAIRO_STATUS_SUCCESS else {
            throw SystemError("cannot write \(path)", call: "cairo_surface_write_to_png", reason: String(cString: cairo_status_to_string(code)))
        }
    }

    /// Writes `entries` (PNG path, caption) as a grid `columns` wide, each
    /// thumbnail `thumbnailWidth` points wide, to `path`.
    public static func write(_ entries: [(path: String, caption: String)], to path: String,
                             columns: Int = 4, thumbnailWidth: Double = 320) throws {
        guard !entries.isEmpty else { throw SystemError("nothing to put on the contact sheet") }
        var images: [OpaquePointer] = []
        defer { images.forEach { cairo_surface_destroy($0) } }
        for e in entries {
            let image = cairo_image_surface_create_from_png(e.path)
            images.append(try checked(image, cairo_surface_status, "cannot read \(e.path)"))
        }
        let first = images[0]
        let scale = thumbnailWidth / Double(cairo_image_surface_get_width(first))
        let thumbHeight = Double(cairo_image_surface_get_height(first)) * scale
        // Two caption lines: a long title wrapped onto one line ran under its neighbour's.
        let margin = 12.0, lineHeight = 15.0, captionHeight = 8 + 2 * lineHeight
        let rows = (entries.count + columns - 1) / columns
        let width = Int32(margin + Double(columns) * (thumbnailWidth + margin))
        let height = Int32(margin + Double(rows) * (thumbHeight + captionHeight + margin))
        let sheet = try checked(cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height), cairo_surface_status,
                                "cannot create a \(width)×\(height) sheet")
        defer { cairo_surface_destroy(sheet) }
        let cr = try checked(cairo_create(sheet), cairo_status, "cannot draw on a \(width)×\(height) sheet")
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
            for (n, line) in wrapped(entry.caption, width: thumbnailWidth, lines: 2, cr).enumerated() {
                cairo_move_to(cr, x, y + thumbHeight + 4 + lineHeight * Double(n + 1))
                line.withCString { cairo_show_text(cr, $0) }
            }
        }
        cairo_destroy(cr)
        try written(sheet, to: path)
    }

    /// `text` broken at spaces into at most `lines` lines no wider than `width` in `cr`'s font;
    /// what does not fit ends the last line with an ellipsis.
    static func wrapped(_ text: String, width: Double, lines: Int, _ cr: OpaquePointer) -> [String] {
        func fits(_ line: String) -> Bool {
            var extents = cairo_text_extents_t()
            line.withCString { cairo_text_extents(cr, $0, &extents) }
            return extents.x_advance <= width
        }
        var result: [String] = [], current = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: false).map(String.init) {
            let candidate = current.isEmpty ? word : current + " " + word
            if fits(candidate) || current.isEmpty { current = candidate; continue }
            result.append(current)
            current = word
        }
        if !current.isEmpty { result.append(current) }
        guard result.count > lines || result.last.map(fits) == false else { return result }
        var last = result[min(lines, result.count) - 1]
        if result.count > lines { last += " " + result[lines...].joined(separator: " ") }
        while !last.isEmpty, !fits(last + "…") { last.removeLast() }
        return Array(result.prefix(lines - 1)) + [last + "…"]
    }

    /// The caption lines a thumbnail `width` points wide shows for `text` (the sheet's font:
    /// DejaVu Sans, 12 points), and the width of a line in it.
    public static func captionLines(_ text: String, width: Double) -> [String] {
        withMeasuringContext { wrapped(text, width: width, lines: 2, $0) }
    }

    public static func captionWidth(_ line: String) -> Double {
        withMeasuringContext { cr in
            var extents = cairo_text_extents_t()
            line.withCString { cairo_text_extents(cr, $0, &extents) }
            return extents.x_advance
        }
    }

    private static func withMeasuringContext<R>(_ body: (OpaquePointer) -> R) -> R {
        let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 1, 1)
        let cr = cairo_create(surface)!
        defer { cairo_destroy(cr); cairo_surface_destroy(surface) }
        cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(cr, 12)
        return body(cr)
    }

    /// Writes the region `(x, y, width, height)` of a PNG, scaled by `scale`, to `path`.
    public static func crop(_ source: String, x: Double, y: Double, width: Double, height: Double,
                            scale: Double = 1, to path: String) throws {
        let image = try checked(cairo_image_surface_create_from_png(source), cairo_surface_status, "cannot read \(source)")
        defer { cairo_surface_destroy(image) }
        let out = try checked(cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(width * scale), Int32(height * scale)),
                              cairo_surface_status, "cannot crop \(source)")
        defer { cairo_surface_destroy(out) }
        let cr = try checked(cairo_create(out), cairo_status, "cannot crop \(source)")
        cairo_scale(cr, scale, scale)
        cairo_set_source_surface(cr, image, -x, -y)
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
        cairo_paint(cr)
        cairo_destroy(cr)
        try written(out, to: path)
    }
}
