/// Band (rubber-band) selection: a press in a band-selection region arms it; once the drag
/// passes a small threshold the pointer becomes the selection rectangle and the client hears
/// began / changed / ended with the rectangle, clipped to the region's frame.
struct BandSelection: Sendable {
    private enum Phase: Sendable {
        case idle
        case armed(RegionID, UInt32, frame: Rect<Global>, anchor: Point<Global>)
        case active(RegionID, UInt32, frame: Rect<Global>, anchor: Point<Global>, rect: Rect<Global>)
    }

    private var phase = Phase.idle

    /// The live rectangle, while a band is being dragged.
    var rect: Rect<Global>? {
        if case .active(_, _, _, _, let r) = phase { return r }
        return nil
    }

    /// Whether a press armed or started a band (targeting pauses meanwhile).
    var isEngaged: Bool {
        if case .idle = phase { return false }
        return true
    }

    mutating func press(in region: Region?, at p: Point<Global>) {
        guard let r = region, r.bandSelection else { return }
        phase = .armed(r.id, r.identifier, frame: r.frame, anchor: r.frame.clamp(p))
    }

    mutating func move(to p: Point<Global>, threshold: Double) -> PointerEvent? {
        switch phase {
        case .idle:
            return nil
        case .armed(let id, let ident, let frame, let anchor):
            guard anchor.distance(to: p) >= threshold else { return nil }
            let r = Rect(corner: anchor, frame.clamp(p))
            phase = .active(id, ident, frame: frame, anchor: anchor, rect: r)
            return .bandBegan(id, identifier: ident, rect: r)
        case .active(let id, let ident, let frame, let anchor, let old):
            let r = Rect(corner: anchor, frame.clamp(p))
            guard r != old else { return nil }
            phase = .active(id, ident, frame: frame, anchor: anchor, rect: r)
            return .bandChanged(id, identifier: ident, rect: r)
        }
    }

    mutating func release() -> PointerEvent? {
        defer { phase = .idle }
        if case .active(let id, let ident, _, _, let r) = phase {
            return .bandEnded(id, identifier: ident, rect: r)
        }
        return nil
    }

    /// Abandons a band without a final report (pointer lock, region removed).
    mutating func cancel() -> PointerEvent? { release() }
}
