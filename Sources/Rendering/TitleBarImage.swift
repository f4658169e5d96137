/// The picture of a server-side title bar (zxdg_toplevel_decoration_v1 server_side),
/// drawn with cairo into an opaque image: the title centred, and at the right the
/// minimize, maximize and close buttons as glyphs on round-cornered squares. The pointer's
/// highlight platter (an adaptive region per button) does the hover state, so the picture
/// has none.
public enum TitleBarImage {
    /// Logical height of the bar.
    public static let height: Int32 = 30
    /// Logical side of a button, and the gap around it.
    public static let buttonSide: Int32 = 24, buttonGap: Int32 = 3

    public enum Button: Int, CaseIterable, Sendable { case minimize, maximize, close }

    /// A button's frame in bar-local logical coordinates; buttons sit right to left:
    /// close, maximize, minimize.
    public static func frame(of button: Button, barWidth: Int32) -> PixelRect {
        let fromRight = Int32(Button.allCases.count - button.rawValue)
        let x = barWidth - fromRight * (buttonSide + buttonGap)
        return PixelRect(x: x, y: (height - buttonSide) / 2, width: buttonSide, height: buttonSide)
    }

    /// The bar for a window `width` logical points wide at a whole `scale`; `activated`
    /// draws it darker, as the window with the keyboard. (The nested backend's own window, a
    /// size Lodestone and its parent chose: blank if it cannot be allocated, which is logged.)
    public static func draw(title: String, width: Int32, scale: Int32, activated: Bool) -> Image {
        draw(title: title, width: width, scale: Double(scale), pixelWidth: max(1, width * scale), pixelHeight: height * scale, activated: activated)
            ?? Image(width: 1, height: 1, format: .xrgb8888)
    }

    /// The bar for a window `width` logical points wide at output `scale`, into an image of
    /// the pixels it lands on (its logical rect's edges rounded, at a fractional scale);
    /// `activated` draws it darker, as the window with the keyboard. A client chooses its
    /// window's width: nil (logged) when the bar cannot be allocated.
    public static func draw(title: String, width: Int32, scale: Double, pixelWidth: Int32, pixelHeight: Int32, activated: Bool) -> Image? {
        guard let image = Image.clientSized(width: max(1, pixelWidth), height: max(1, pixelHeight), format: .xrgb8888, for: "a title bar")
        else { return nil }
        guard let surface = CairoSurface(over: image) else { return image }
        defer { surface.destroy() }
        guard let cr = CairoContext(drawingOn: surface) else { return image }
        defer { cr.destroy() }
        cr.scale(scale, scale)
        let shade = activated ? 0.20 : 0.32
        cr.setSource(red: shade, green: shade, blue: shade + 0.02, alpha: 1)
        cr.paint()
        let ink = activated ? 0.95 : 0.7
        // Buttons: a faint square and a glyph.
        for button in Button.allCases {
            let f = frame(of: button, barWidth: width)
            let (x, y, s) = (Double(f.x), Double(f.y), Double(f.width))
            cr.setSource(red: 1, green: 1, blue: 1, alpha: 0.08)
            cr.roundedRect(x: x, y: y, width: s, height: s, radius: 6)
            cr.fill()
            cr.setSource(red: ink, green: ink, blue: ink, alpha: 1)
            cr.setLineWidth(1.5)
            let (cx, cy) = (x + s / 2, y + s / 2)
            switch button {
            case .minimize:
                cr.moveTo(x: cx - 5, y: cy + 4); cr.lineTo(x: cx + 5, y: cy + 4)
            case .maximize:
                cr.rectangle(x: cx - 5, y: cy - 5, width: 10, height: 10)
            case .close:
                cr.moveTo(x: cx - 5, y: cy - 5); cr.lineTo(x: cx + 5, y: cy + 5)
                cr.moveTo(x: cx + 5, y: cy - 5); cr.lineTo(x: cx - 5, y: cy + 5)
            }
            cr.stroke()
        }
        // The title, centred in the space left of the buttons, cut short if it does not fit.
        let end = Double(frame(of: .minimize, barWidth: width).x) - 8
        let room = end - 8
        guard room > 0, !title.isEmpty else { return image }
        cr.selectFontFace("DejaVu Sans")
        cr.setFontSize(13)
        var text = title
        while text.count > 1, cr.textAdvance(text) > room { text = String(text.dropLast(2)) + "…" }
        let (ascent, descent) = cr.fontExtents()
        let advance = cr.textAdvance(text)
        // Centred on the bar when it fits there, else as far right as the buttons allow.
        cr.moveTo(x: max(8, min((Double(width) - advance) / 2, end - advance)).rounded(), y: ((Double(height) + ascent - descent) / 2).rounded())
        cr.showText(text)
        surface.flush()
        return image
    }
}
