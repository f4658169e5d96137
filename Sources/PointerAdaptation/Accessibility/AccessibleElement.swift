/// One element an app publishes through AT-SPI, as the pointer uses it: its extents
/// relative to its AT-SPI window (frame), and what kind of control it is.
struct AccessibleElement: Equatable {
    enum Kind: Equatable {
        /// Push and toggle buttons, check boxes, radio buttons, menu items, page tabs,
        /// links, combo boxes: the highlight.
        case control
        /// A button with no text label, about as wide as tall: the lift.
        case iconButton
        /// Text, entries, terminals: the I-beam, `lineHeight` tall (nil: not known).
        case text(lineHeight: Double?, singleLine: Bool)
        /// A slider: the highlight, latched on the slider's axis while dragged.
        case slider(horizontal: Bool)
        /// List and tree items: the hover.
        case item
    }
    var kind: Kind
    var x, y, width, height: Double
    /// How deep in the window's tree: deeper elements are on top (a button in a list row).
    var depth: Int
    /// Buttons and combo boxes draw a frame of their own, which may lie outside the extents
    /// (`DrawnOutline`); check boxes, radio buttons, tabs and links do not.
    var framed = false
    /// Editable text (an entry, a text view, an editable combo box) that is no password
    /// field: where Scribble lets the pen write.
    var writable = false
    /// The node it was read from and its extents as read: what the pointer confirms before
    /// taking its form (`AccessiblePointerCheck`). Nil for what no node published (a terminal's rows).
    var source: Source?

    /// An AT-SPI node (app, path) and the extents (screen coordinates) it had when read.
    struct Source: Hashable {
        var app: String, path: String
        var x, y, width, height: Double
    }
}

/// AT-SPI roles (`AtspiRole`, at-spi2-core's atspi-constants.h) the walk tells apart.
enum AccessibleRole: UInt32 {
    case checkBox = 7, checkMenuItem = 8, comboBox = 11, label = 29, listItem = 32, menuItem = 35
    case pageTab = 37, passwordText = 40, pushButton = 43, radioButton = 44, radioMenuItem = 45
    case slider = 51, tableCell = 56, terminal = 60, text = 61, toggleButton = 62, paragraph = 73, entry = 79
    case heading = 83, link = 88, treeItem = 91
}

/// AT-SPI states (`AtspiStateType`): bit numbers in `GetState`'s two 32-bit words.
enum AccessibleState {
    static let editable = 7, enabled = 8, horizontal = 14, sensitive = 24, showing = 25, singleLine = 26, visible = 30
}
