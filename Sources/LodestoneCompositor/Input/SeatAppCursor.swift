import PointerAdaptation

/// The seat's side of the app-cursor decision (`AppCursorPolicy`, PointerAdaptation's, the
/// same the C library's adapter runs): the seat gathers what it knows (the drag, the focus
/// and whether its tree declares regions, the client's cursor, the settings) and reads the
/// answer; `ComposedClientCursor` is pushed the same inputs whenever they change
/// (`pointerWorldChanged(cursor:)`) and again before each input and frame.
extension Seat {
    /// The decision's inputs as the seat has them now.
    var appCursor: AppCursorPolicy {
        var policy = AppCursorPolicy(mode: pointerMode, legacyApps: legacyApps)
        policy.dragCursor = (grab as? DragGrab)?.cursorName ?? (grab as? ExternalDragGrab)?.cursorName
        policy.overApp = pointerFocus != nil
        policy.appDeclaresRegions = pointerFocus.map(regions.treeHasRegions) ?? false
        policy.cursor = cursor.appCursor
        return policy
    }

    /// What shows over the app under the pointer now.
    var pointerSource: PointerSource { appCursor.source(themeHasImage: cursor.themeHasImage) }

    /// The adaptive pointer is drawn unless a client's image or a theme image is shown instead.
    var drawsAdaptivePointer: Bool { pointerSource == .adaptive }

    /// New `--pointer` / `--legacy-apps` settings (config.toml reloaded): the cursor hears
    /// them at once (whether it fingerprints images), the pointer before the next input or frame.
    func setAppCursor(mode: PointerMode, legacyApps: LegacyApps) {
        pointerMode = mode
        self.legacyApps = legacyApps
        pointerWorldChanged(cursor: true)
    }
}
