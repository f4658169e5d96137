import Rendering

/// The rows of text a window draws, measured from its pixels: for apps that publish no
/// accessibility geometry but say "text" with their cursor, which is what terminals do
/// (foot has no AT-SPI). A terminal draws every line in the same cell height, so the
/// distance between the tops of successive lines of ink is its font's line: the beam gets
/// that length. With fewer than three lines of text on screen, or lines that are not on one
/// grid (not a terminal), the cursor name's beam (24 pt) stays.
struct TextRows: Equatable {
    /// The line pitch, and where the first row starts (surface-local y).
    var pitch: Double
    var origin: Double

    /// A row holds ink when a pixel differs from the background this much (channel sum).
    static let threshold = 96
    static let minimumPitch = 8, maximumPitch = 200

    /// Measures `surface`'s committed pixels, or nil without two lines of text.
    static func measure(_ surface: WindowPixels) -> TextRows? {
        let image = surface.image
        guard image.width > 8, image.height > 8 else { return nil }
        let scale = Double(surface.scale)
        // The terminal's background: its padding, just inside the top-left corner.
        let background = image.pixel(x: 2, y: 2)
        func differs(_ a: UInt32) -> Bool {
            var sum = 0
            for shift in stride(from: 0, through: 16, by: 8) { sum += abs(Int(a >> UInt32(shift) & 0xff) - Int(background >> UInt32(shift) & 0xff)) }
            return sum > threshold
        }
        // Where each run of rows with ink starts.
        var starts: [Int] = [], heights: [Int] = []
        var inRun = false
        let rowLength = Int(image.stride / 4)
        image.withPixels { data in
            for y in 0..<Int(image.height) {
                let row = data + y * rowLength
                var ink = false
                for x in 0..<Int(image.width) where differs(row[x]) { ink = true; break }
                if ink && !inRun { starts.append(y); heights.append(0) }
                if ink { heights[heights.count - 1] += 1 }
                inRun = ink
            }
        }
        guard starts.count >= 3 else { return nil }
        // The commonest distance between successive lines (blank lines make multiples).
        var counts: [Int: Int] = [:]
        let gaps = zip(starts, starts.dropFirst()).map { $1 - $0 }
        for gap in gaps where gap >= minimumPitch && gap <= maximumPitch { counts[gap, default: 0] += 1 }
        guard let (pitch, _) = counts.max(by: { ($0.value, -$0.key) < ($1.value, -$1.key) }) else { return nil }
        // A grid: every line but the last (a block cursor starts higher) one or more rows
        // below the one before. Other windows (a toolbar over a list) are no terminal.
        let onGrid = gaps.dropLast().allSatisfy { gap in let r = gap % pitch; return r <= 1 || r >= pitch - 1 }
        guard onGrid else { return nil }
        // The first line's ink centred in its row.
        let first = Double(starts[0]) - Double(pitch - min(heights[0], pitch)) / 2
        return TextRows(pitch: Double(pitch) / scale, origin: max(0, first) / scale)
    }
}

/// A terminal's rows with the surface they were measured in (points): its size, and where the
/// window geometry starts in it.
struct MeasuredTextRows {
    var rows: TextRows
    var surfaceSize: (Double, Double)
    var geometryOffset: (Double, Double)
}

extension Accessibility {
    /// The text rows of a window without published geometry, measured twice a second while
    /// the pointer is on it (its pixels change without telling the pointer). The pixels are
    /// read only to measure (a C host hands them through a callback, `AdaptedWindow.adaptedPixels`);
    /// a window without them is asked again the next time.
    func textRows(_ window: AppWindow, _ toplevel: AdaptedWindow) -> MeasuredTextRows? {
        if let at = window.rowsMeasuredAt, now - at < 0.5 {
            recheck(after: 0.5)
            return window.rows
        }
        guard let pixels = toplevel.adaptedPixels else { return nil }
        recheck(after: 0.5)
        window.rowsMeasuredAt = now
        window.rows = TextRows.measure(pixels).map {
            MeasuredTextRows(rows: $0, surfaceSize: (Double(pixels.surfaceSize.width), Double(pixels.surfaceSize.height)),
                             geometryOffset: (Double(pixels.geometryOffset.x), Double(pixels.geometryOffset.y)))
        }
        return window.rows
    }
}
