import PointerAdaptation
import AdaptivePointerEngine

/// What shows as the pointer over the focused surface.
enum PointerSource: Equatable {
    /// The adaptive pointer (in the style of the app's cursor name, if it has one).
    case adaptive
    /// The client's own `set_cursor` image.
    case clientImage
    /// The cursor theme's image for a name (no adaptive form, or `--pointer client`).
    case standardCursor(CursorName)
}

/// Which pointer shows over the focused surface, and in which style: declared regions always
/// win; over apps that declare none, the adaptive pointer in the form of the app's cursor
/// name, the theme's image where a name has no adaptive form, or the app's own image.
final class AppCursorPolicy {
    unowned let compositor: Compositor
    /// Both may change while Lodestone runs (config.toml reloaded): see `Compositor.updatePointer`.
    var mode: PointerMode
    var legacyApps: LegacyApps

    init(compositor: Compositor, mode: PointerMode, legacyApps: LegacyApps) {
        self.compositor = compositor
        self.mode = mode
        self.legacyApps = legacyApps
    }

    /// A surface is under the pointer and its tree declares no regions: its app's cursor
    /// says what the pointer is. (Declared regions always win.)
    private var focusDeclaresNoRegions: Bool {
        guard let focus = compositor.seat.pointerFocus else { return false }
        return !compositor.scene.regions.treeHasRegions(focus)
    }

    /// What a drag over a target says a drop would do, while one does.
    private var dragCursor: CursorName? {
        let grab = compositor.seat.grab
        return (grab as? DragGrab)?.cursorName ?? (grab as? ExternalDragGrab)?.cursorName
    }

    /// Whether cursor images are worth recognising: only the adaptive pointer reads names.
    var recognisesThemeCursors: Bool { mode == .adaptive && legacyApps != .off }

    /// What shows over the focused surface. Declared regions always win; then, for the
    /// adaptive pointer, the app's cursor name (a shape, or a recognised theme image) in its
    /// adaptive form, or the theme's image where the name has none; an image that is no
    /// theme cursor as the client drew it. `--pointer client` shows the client's images, and
    /// the theme's image for a shape it named.
    var source: PointerSource {
        // A drag over a target: the cursor says what a drop would do (`DragGrab.cursorName`).
        if let drag = dragCursor { return mode == .client ? standard(drag) : .adaptive }
        let cursor = compositor.seat.cursor
        guard cursor.isShown, focusDeclaresNoRegions else { return .adaptive }
        switch mode {
        case .client:
            guard let shape = cursor.shape else { return .clientImage }
            return standard(shape)
        case .adaptive:
            guard recognisesThemeCursors else { return .adaptive }
            if let name = cursor.name { return name.adaptiveForm == nil ? standard(name) : .adaptive }
            return cursor.isHidden ? .adaptive : .clientImage
        }
    }

    /// The theme's image for `name`, or the circle when no theme has one.
    private func standard(_ name: CursorName) -> PointerSource {
        compositor.cursorThemes.standardCursor(name, scale: compositor.output.scale.ceiling) == nil ? .adaptive : .standardCursor(name)
    }

    /// The adaptive pointer is drawn unless a client's image or a theme image is shown instead.
    var drawsAdaptivePointer: Bool { source == .adaptive }

    /// The style the engine gives the pointer where no region targets it: the focused app's
    /// cursor name in adaptive form (`CursorName.adaptiveForm`), the circle otherwise.
    var wanted: AdaptivePointerForm {
        if let drag = dragCursor { return drag.adaptiveForm ?? .circle }
        guard recognisesThemeCursors, focusDeclaresNoRegions else { return .circle }
        let cursor = compositor.seat.cursor
        if let name = cursor.name { return name.adaptiveForm ?? .circle }
        return cursor.isHidden ? .hidden : .circle
    }
}
