import AdaptivePointerEngine
import Rendering

/// The title bar Lodestone draws above a window whose client chose server-side
/// decorations (`ZxdgToplevelDecoration`), or an X11 window that did not ask to go
/// without (`_MOTIF_WM_HINTS`, `XwaylandWindow`): the title, and minimize, maximize and close
/// buttons that are adaptive regions of the compositor's own (the pointer highlights them
/// as it does an app's buttons, without magnetism).
///
/// What the bar does: dragging it moves the window (`MoveGrab`); a double click
/// maximizes or restores it; close asks the client to close (`xdg_toplevel.close`, X11's
/// WM_DELETE_WINDOW);
/// maximize toggles maximized; minimize hides the window until something activates it
/// again: `xdg_activation_v1`, the three-finger window switcher, or the test protocol's
/// `activate_window` (`Desktop.activate` brings a minimized window back).
final class TitleBar {
    static var height: Int32 { TitleBarImage.height }
    /// Two presses on the bar within this many milliseconds are a double click.
    static let doubleClickMilliseconds: UInt32 = 400

    unowned let window: DesktopWindow
    /// One adaptive region per button, named by the scene's region IDs.
    let regionIDs: [TitleBarImage.Button: RegionID]
    /// The last drawn picture and what it was drawn for.
    private var image: Image?
    private var drawnFor: (title: String, width: Int32, scale: OutputScale, activated: Bool)?
    /// When the bar was last pressed (not on a button), for double clicks.
    var lastPress: UInt32?

    init(window: DesktopWindow, regions: SceneRegions) {
        self.window = window
        var ids: [TitleBarImage.Button: RegionID] = [:]
        for button in TitleBarImage.Button.allCases { ids[button] = regions.allocateRegionID() }
        regionIDs = ids
    }

    /// The bar in global logical coordinates: above the window's geometry, as wide.
    var frame: PixelRect {
        let p = window.position
        return PixelRect(x: p.x, y: p.y.clampedSubtracting(Self.height), width: max(1, window.geometry.width), height: Self.height)
    }

    /// What is at a global point on the bar: a button, or the bar itself (nil).
    func button(atX x: Double, y: Double) -> TitleBarImage.Button? {
        let f = frame
        return TitleBarImage.Button.allCases.first { TitleBarImage.frame(of: $0, barWidth: f.width).offsetBy(dx: f.x, dy: f.y).contains(x: x, y: y) }
    }

    /// The picture, redrawn when the title, width, scale or activation changed.
    /// At a fractional scale it is drawn at the size of the pixels it lands on (the
    /// bar's edges rounded), so it is never resampled.
    func element(output: Output) -> RenderElement? {
        let f = frame, scale = output.scale
        let bounds = output.pixels(logical: f)
        let key = (window.title, f.width, scale, window.isActivated)
        // A bar that could not be allocated is not tried again until the key changes.
        if drawnFor.map({ $0 != key }) ?? true || image.map({ $0.width != bounds.width || $0.height != bounds.height }) ?? false {
            image = TitleBarImage.draw(title: key.0, width: key.1, scale: scale.factor, pixelWidth: bounds.width, pixelHeight: bounds.height, activated: key.3)
            drawnFor = key
        }
        guard let image else { return nil }  // too wide to allocate (logged): no bar
        return RenderElement(image: image, bounds: bounds,
                             outputToImage: Affine.translation(-Double(bounds.x), -Double(bounds.y)), opaque: true)
    }

    /// The buttons as adaptive regions in global space (highlight, like a toolbar's).
    func regions() -> [SceneRegions.Placed] {
        let f = frame
        let placement = SurfacePlacement(origin: Point(x: Double(f.x), y: Double(f.y)))
        return TitleBarImage.Button.allCases.compactMap { button in
            guard let id = regionIDs[button] else { return nil }
            let b = TitleBarImage.frame(of: button, barWidth: f.width)
            var spec = RegionSpec(id: id)
            spec.draft.frame = Rect(x: Double(b.x), y: Double(b.y), width: Double(b.width), height: Double(b.height))
            spec.draft.cornerRadius = 6
            spec.draft.style.effect = .highlight
            // No pull and no flick capture: a fast stroke across a window's top must not
            // land the pointer (and the next click) on its close button.
            spec.draft.magnetism = .off
            spec.draft.identifier = UInt32(button.rawValue + 1)
            var region = placement.toGlobal(spec.localRegion(owner: SurfaceID(0)))
            region.stackingOrder = Int32.max
            return SceneRegions.Placed(region: region, spec: spec, placement: placement)
        }
    }

    /// The title changed: the next frame redraws the bar.
    func damage(_ output: Output) { output.damage(logical: frame) }
}
