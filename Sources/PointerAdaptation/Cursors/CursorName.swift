/// What an app says its cursor should be, in CSS's words (the names `wp_cursor_shape_v1`
/// takes from https://w3c.github.io/csswg-drafts/css-ui/#cursor and the freedesktop cursor
/// themes use). Reached two ways: a `wp_cursor_shape_device_v1.set_shape`, or a
/// `wl_pointer.set_cursor` image recognised as a theme cursor (`CursorThemes`).
package enum CursorName: String, CaseIterable, Sendable {
    case `default`, contextMenu = "context-menu", help, pointer, progress, wait, cell, crosshair
    case text, verticalText = "vertical-text", alias, copy, move, noDrop = "no-drop", notAllowed = "not-allowed"
    case grab, grabbing
    case eResize = "e-resize", nResize = "n-resize", neResize = "ne-resize", nwResize = "nw-resize"
    case sResize = "s-resize", seResize = "se-resize", swResize = "sw-resize", wResize = "w-resize"
    case ewResize = "ew-resize", nsResize = "ns-resize", neswResize = "nesw-resize", nwseResize = "nwse-resize"
    case colResize = "col-resize", rowResize = "row-resize", allScroll = "all-scroll"
    case zoomIn = "zoom-in", zoomOut = "zoom-out"
    /// Version 2 of cursor-shape-v1 (wayland-protocols 1.42): a drop that will ask what to do,
    /// and a resize in every direction.
    case dndAsk = "dnd-ask", allResize = "all-resize"

    /// `wp_cursor_shape_device_v1.shape`: values run 1 (default) to 34 (zoom_out) in version 1,
    /// to 36 (all_resize) in version 2, in this enum's order; nil for a value the bound
    /// `version` does not have.
    package init?(shape value: UInt32, version: UInt32) {
        guard value >= 1, value <= Self.lastShape(version: version) else { return nil }
        self = Self.allCases[Int(value) - 1]
    }

    /// The last shape value of a cursor-shape-v1 version.
    package static func lastShape(version: UInt32) -> UInt32 { version >= 2 ? UInt32(allCases.count) : 34 }

    /// The file names themes give this cursor: the CSS name first, then the X11 core names
    /// and the names older toolkits ask for (DMZ has only those; Adwaita links them).
    package var themeNames: [String] {
        [rawValue] + (Self.legacyNames[self] ?? [])
    }

    private static let legacyNames: [CursorName: [String]] = [
        .default: ["left_ptr", "arrow", "top_left_arrow"],
        .contextMenu: [],
        .help: ["question_arrow", "left_ptr_help", "whats_this"],
        .pointer: ["hand2", "hand1", "hand", "pointing_hand"],
        .progress: ["left_ptr_watch", "half-busy"],
        .wait: ["watch"],
        .cell: ["plus"],
        .crosshair: ["cross", "tcross"],
        .text: ["xterm", "ibeam"],
        .verticalText: [],
        .alias: ["dnd-link", "link"],
        .copy: ["dnd-copy"],
        .move: ["dnd-move"],
        .noDrop: ["dnd-no-drop", "dnd-none"],
        .notAllowed: ["crossed_circle", "forbidden"],
        .grab: ["openhand"],
        .grabbing: ["closedhand"],
        .eResize: ["right_side"],
        .nResize: ["top_side"],
        .neResize: ["top_right_corner"],
        .nwResize: ["top_left_corner"],
        .sResize: ["bottom_side"],
        .seResize: ["bottom_right_corner"],
        .swResize: ["bottom_left_corner"],
        .wResize: ["left_side"],
        .ewResize: ["sb_h_double_arrow", "h_double_arrow", "size_hor"],
        .nsResize: ["sb_v_double_arrow", "v_double_arrow", "size_ver"],
        .neswResize: ["fd_double_arrow", "size_bdiag"],
        .nwseResize: ["bd_double_arrow", "size_fdiag"],
        .colResize: ["split_h"],
        .rowResize: ["split_v"],
        .allScroll: ["fleur", "size_all"],
        .dndAsk: ["dnd-copy"],
        .allResize: ["fleur", "size_all"],
        .zoomIn: [],
        .zoomOut: [],
    ]
}
