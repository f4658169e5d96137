import Rendering

/// Where a control is drawn, found from the window's own pixels around the extents its
/// toolkit published. GTK 4.8 publishes a widget's content box (inside its CSS border and
/// padding: a button's label, 17 px in from its drawn left edge), so the highlight would be
/// smaller than the button. Starting just outside the published extents, each side looks
/// outwards along a line through the element for the first clear change of colour (the
/// button's border, or its fill meeting the window's background), at most `reach` px away.
/// A side that is drawn where it is published (Qt's border boxes), or finds no such change,
/// keeps its published edge.
enum DrawnOutline {
    /// How far out an edge may be: Adwaita's and Breeze's button padding plus border fit.
    static let reach = (horizontal: 20, vertical: 8)
    /// The colour change that counts as an edge (sum of the channels' differences).
    static let threshold = 60

    /// `frame` (surface-local x, y, width, height) grown to the drawn edges in `surface`'s buffer.
    static func drawn(_ frame: (x: Double, y: Double, width: Double, height: Double), in surface: WindowPixels) -> (x: Double, y: Double, width: Double, height: Double) {
        let image = surface.image
        guard frame.width >= 2, frame.height >= 2 else { return frame }
        let toBuffer = surface.surfaceToBuffer
        func pixel(_ x: Int, _ y: Int) -> UInt32? {
            let p = toBuffer.apply(Double(x) + 0.5, Double(y) + 0.5)
            // Not Int32(_:), which traps: extents an app made up (INT32_MAX wide) reached here
            // and aborted the whole session (issue 24, HostileAccessibleAppTests).
            guard let bx = Int32(exactly: p.x.rounded(.down)), let by = Int32(exactly: p.y.rounded(.down)),
                  bx >= 0, by >= 0, bx < image.width, by < image.height else { return nil }
            return image.pixel(x: bx, y: by)
        }
        func differs(_ a: UInt32, _ b: UInt32) -> Bool {
            var sum = 0
            for shift in stride(from: 0, through: 24, by: 8) { sum += abs(Int(a >> UInt32(shift) & 0xff) - Int(b >> UInt32(shift) & 0xff)) }
            return sum > threshold
        }
        /// The first coordinate from `start` stepping by `step` whose pixel differs from the one at
        /// `start`; nil when the published edge is drawn already (Qt publishes border boxes: the
        /// pixel just inside differs from the one just outside).
        func edge(from start: Int, step: Int, reach: Int, _ at: (Int) -> UInt32?) -> Int? {
            guard let reference = at(start), let inside = at(start - step), !differs(inside, reference) else { return nil }
            for d in 1...reach {
                guard let p = at(start + d * step) else { return nil }
                if differs(p, reference) { return start + d * step }
            }
            return nil
        }
        let minX = Int(frame.x.rounded()), minY = Int(frame.y.rounded())
        let maxX = Int((frame.x + frame.width).rounded()), maxY = Int((frame.y + frame.height).rounded())
        let midY = (minY + maxY) / 2
        // Just inside the left end: past any rounded corner, clear of centred text.
        let column = minX + 2
        let left = edge(from: minX - 1, step: -1, reach: reach.horizontal) { pixel($0, midY) }
        let right = edge(from: maxX, step: 1, reach: reach.horizontal) { pixel($0, midY) }
        let top = edge(from: minY - 1, step: -1, reach: reach.vertical) { pixel(column, $0) }
        let bottom = edge(from: maxY, step: 1, reach: reach.vertical) { pixel(column, $0) }
        // The found pixel is the border itself (or the first pixel outside the fill).
        let x0 = left.map { Double($0) } ?? frame.x, y0 = top.map { Double($0) } ?? frame.y
        let x1 = right.map { Double($0 + 1) } ?? frame.x + frame.width, y1 = bottom.map { Double($0 + 1) } ?? frame.y + frame.height
        return (x0, y0, x1 - x0, y1 - y0)
    }
}
