import Rendering

/// How `Scribble` tells a pen's press apart, and what it tells `Tablets` to do with it.
extension Scribble {
    /// How far (points) a pressed pen moves before its press is a stroke.
    static let slop = 6.0
    /// How long (ms) a pen pressed and not moved is a press for the app (a long press).
    static let holdMilliseconds: UInt32 = 500
    /// How near the ink (points) a touch continues the writing at once.
    static let continuation = 80.0
    /// What the field shows while its strokes are read: the placeholder hides at once.
    static let preedit = "…"
    /// The preedit's cursor, at its end (bytes).
    static let preeditEnd = Int32(preedit.utf8.count)

    /// What `Tablets` does with a pen event Scribble looked at.
    enum Route: Equatable {
        /// Not Scribble's: as usual.
        case app
        /// Scribble's: the app hears nothing.
        case held
        /// The held press is the app's after all: deliver its tip down now, then as usual.
        case release
        /// A tap: deliver the held tip down, then this tip up.
        case tap
        /// Writing began on a field without focus: click it first where the pen touched (a
        /// pointer click: GTK 4.8's entries take no focus from a pen's tap), then hold the rest.
        case clickThenHold(at: InkPoint)
    }
}
