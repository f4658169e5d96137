import Rendering

/// What maximized windows fill on each head: the head less the exclusive zones of the layer
/// surfaces on it. The layer shell sets them when it arranges (`LayerShell.arrange`); the
/// desktop places and fits windows in them, and windows maximize and fill them. Apart from
/// the layer shell, so that the desktop reads them without holding it (the layer shell holds
/// the desktop).
final class WorkAreas {
    private let layout: OutputLayout
    private let output: Output
    private var areas: [ObjectIdentifier: PixelRect] = [:]

    init(layout: OutputLayout, output: Output) {
        self.layout = layout
        self.output = output
    }

    /// `head` less the layers' exclusive zones (all of it before the layer shell arranged it).
    func workArea(of head: OutputHead) -> PixelRect { areas[ObjectIdentifier(head)] ?? head.bounds }

    /// The work area of the head `window` is on (`OutputLayout.head(for:)`): where it
    /// maximizes, fills and is bounded; the output's bounds when it is on none.
    func workArea(of window: DesktopWindow) -> PixelRect {
        let g = window.geometry
        let frame = PixelRect(x: window.position.x, y: window.position.y, width: g.width, height: g.height)
        return layout.head(for: frame).map(workArea(of:)) ?? output.bounds
    }

    /// The work area of the head at a global point (the pointer's, where new windows go).
    func workArea(at x: Int32, _ y: Int32) -> PixelRect {
        layout.head(for: PixelRect(x: x, y: y, width: 1, height: 1)).map(workArea(of:)) ?? output.bounds
    }

    /// Each head's area anew, keyed by its head; true when any changed (or a head's went).
    func replace(with new: [ObjectIdentifier: PixelRect]) -> Bool {
        let changed = new.count != areas.count || new.contains { areas[$0.key] != $0.value }
        areas = new
        return changed
    }
}
