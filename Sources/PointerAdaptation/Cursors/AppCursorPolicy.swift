/// Which pointer is shown over surfaces that declare no adaptive_pointer_v1 regions
/// (`--pointer`, config.toml `pointer`).
public enum PointerMode: String, Sendable, CaseIterable {
    /// A client's `wl_pointer.set_cursor` image, as today, so existing apps are never worse off.
    case client
    /// The adaptive pointer everywhere; what it does over apps that declare no regions is
    /// `LegacyApps`.
    case adaptive
}

/// With `PointerMode.adaptive`: how apps that declare no regions are read (`--legacy-apps`,
/// config.toml `legacy-apps`, `lodestone_pointer_adapter_set_legacy_apps`).
public enum LegacyApps: String, Sendable, CaseIterable {
    /// Everything an app says: its cursor names (`shapes`) and the geometry it publishes for
    /// accessibility (`Accessibility`).
    case adaptive
    /// The app's cursor names, from wp_cursor_shape_v1 or its recognised theme cursor
    /// images, become adaptive forms (a beam over text, arrows on resize edges); an image
    /// that is no theme cursor is shown as the app drew it.
    case shapes
    /// No reading at all: the adaptive circle over every app, whatever its cursor.
    case off
}

/// What shows as the pointer over the app under it.
package enum PointerSource: Equatable, Sendable {
    /// The adaptive pointer (in the style of the app's cursor name, if it has one).
    case adaptive
    /// The client's own `set_cursor` image.
    case clientImage
    /// The cursor theme's image for a name (no adaptive form, or `--pointer client`).
    case standardCursor(CursorName)
}

/// The cursor the app under the pointer asked for, as its host saw it.
package enum AppCursor: Equatable, Sendable {
    /// None yet (the pointer just came onto the app, or the app never sets one).
    case unset
    /// `wl_pointer.set_cursor` with no surface: the app hid its cursor.
    case hidden
    /// A name it gave (`wp_cursor_shape_device_v1.set_shape`, a host's cursor name).
    case named(CursorName)
    /// An image it drew, and the theme cursor it was recognised as (nil: its own image).
    case image(CursorName?)
}

/// Which pointer shows over the app under the pointer, and in which form where no region
/// targets it: declared regions always win; over apps that declare none, the adaptive
/// pointer in the form of the app's cursor name, the theme's image where a name has no
/// adaptive form, or the app's own image. One decision for both hosts: Lodestone's seat and
/// the C library's adapter push what they know into it and read the answer, so the two
/// cannot drift apart. It holds values only and asks nobody.
package struct AppCursorPolicy: Equatable, Sendable {
    package var mode: PointerMode
    package var legacyApps: LegacyApps
    /// What a drop would do, while a drag is over a target (`DragGrab.cursorName`).
    package var dragCursor: CursorName?
    /// The pointer is over an app's surface.
    package var overApp = false
    /// That surface's tree declares adaptive_pointer_v1 regions: they win over its cursor.
    package var appDeclaresRegions = false
    /// What the app under the pointer asked for.
    package var cursor = AppCursor.unset

    package init(mode: PointerMode = .adaptive, legacyApps: LegacyApps = .adaptive) {
        self.mode = mode
        self.legacyApps = legacyApps
    }

    /// Whether cursor names and images are worth reading: only the adaptive pointer takes
    /// their forms (cursor images need not be fingerprinted otherwise).
    package var readsCursorNames: Bool { mode == .adaptive && legacyApps != .off }

    /// The app under the pointer says what the pointer is: it declares no regions.
    private var appSays: Bool { overApp && !appDeclaresRegions }

    /// The name the app's cursor has: the one it gave, or the theme cursor its image is.
    private var cursorName: CursorName? {
        switch cursor {
        case .named(let name), .image(let name?): return name
        case .unset, .hidden, .image(nil): return nil
        }
    }

    /// What shows. Declared regions always win; then, for the adaptive pointer, the app's
    /// cursor name (a shape, or a recognised theme image) in its adaptive form, or the
    /// theme's image where the name has none; an image that is no theme cursor as the
    /// client drew it. `--pointer client` shows the client's images, and the theme's image
    /// for a shape it named. `themeHasImage` says whether a theme has an image for a name
    /// (at the host's scale): asked only for a name that would show it, so a host whose apps
    /// only name cursors with adaptive forms never reads a theme.
    package func source(themeHasImage: (CursorName) -> Bool) -> PointerSource {
        func standard(_ name: CursorName) -> PointerSource { themeHasImage(name) ? .standardCursor(name) : .adaptive }
        // A drag over a target: the cursor says what a drop would do.
        if let drag = dragCursor { return mode == .client ? standard(drag) : .adaptive }
        guard cursor != .unset, appSays else { return .adaptive }
        switch mode {
        case .client:
            guard case .named(let shape) = cursor else { return .clientImage }
            return standard(shape)
        case .adaptive:
            guard readsCursorNames else { return .adaptive }
            if let name = cursorName { return name.adaptiveForm == nil ? standard(name) : .adaptive }
            return cursor == .hidden ? .adaptive : .clientImage
        }
    }

    /// The form the engine gives the pointer where no region targets it: the drag's or the
    /// app's cursor name in adaptive form (`CursorName.adaptiveForm`), the circle otherwise.
    package var form: AdaptivePointerForm {
        if let drag = dragCursor { return drag.adaptiveForm ?? .circle }
        guard readsCursorNames, appSays else { return .circle }
        if let name = cursorName { return name.adaptiveForm ?? .circle }
        return cursor == .hidden ? .hidden : .circle
    }
}
