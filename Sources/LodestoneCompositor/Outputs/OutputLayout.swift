import AdaptivePointerEngine
import Rendering
import WaylandServer

/// A head's name and mode, as a backend finds it (`Compositor.Options.outputs`).
public struct OutputMode: Sendable, Equatable {
    public var name: String
    /// Logical size (the mode's pixels divided by the scale).
    public var width: Int32, height: Int32
    public var refreshHz: Int32
    public init(name: String, width: Int32, height: Int32, refreshHz: Int32 = 60) {
        self.name = name; self.width = width; self.height = height; self.refreshHz = refreshHz
    }
}

/// One monitor in the layout (a DRM connector, a headless output of `--outputs`, the
/// nested window): a rectangle of the composed frame, described to clients by a
/// `wl_output` global of its own, added and withdrawn with it.
public final class OutputHead {
    public let name: String
    public let description: String
    /// Where the head sits in global logical coordinates (`OutputLayout.arrange`).
    public internal(set) var bounds: PixelRect
    public let refreshMilliHz: Int32
    /// Milliseconds per refresh: with several heads, each is composed and presented at its
    /// own cadence (`Frames.presentDueHeads`).
    public let interval: UInt32
    /// When the head next takes a frame (the frame clock's milliseconds).
    var nextRefresh: UInt32 = 0
    /// Its presenter cannot take a frame yet (its page flip is still pending): its damage
    /// and its surfaces' frame callbacks wait, and the other heads go on.
    public var isHeld = false
    /// Frames composed for this head while there were several.
    public internal(set) var frameCount = 0
    /// Clients' wl_outputs bound to this head: told again when it changes.
    var resources: [WlOutput] = []
    /// The head's wl_output global; nil once the head is gone.
    var global: WaylandGlobal?

    init(_ mode: OutputMode) {
        name = mode.name
        description = "Lodestone \(mode.name)"
        bounds = PixelRect(x: 0, y: 0, width: mode.width, height: mode.height)
        refreshMilliHz = mode.refreshHz &* 1000
        interval = UInt32(max(1, 1000 / max(mode.refreshHz, 1)))
    }
}

/// The heads placed side by side, left to right in the order they were added (connector
/// order on a TTY), tops aligned. Lodestone composes one frame, `Output`, as large as the
/// layout's bounding box; each head shows its rectangle of it. A single head is the whole
/// frame, so one output works exactly as before there were several.
public final class OutputLayout {
    public private(set) var heads: [OutputHead] = []

    /// The bounding box of the heads: the composed frame's logical size.
    public var size: (width: Int32, height: Int32) {
        (heads.reduce(0) { $0 &+ $1.bounds.width }, heads.map(\.bounds.height).max() ?? 0)
    }

    /// The heads' rectangles, for the pointer to stay on (only where they leave gaps, that
    /// is heads of different heights, does this differ from the bounding box).
    var areas: [Rect<Global>] {
        heads.count < 2 ? [] : heads.map { Rect(x: Double($0.bounds.x), y: Double($0.bounds.y), width: Double($0.bounds.width), height: Double($0.bounds.height)) }
    }

    func append(_ head: OutputHead) {
        heads.append(head)
        arrange()
    }

    func remove(_ head: OutputHead) {
        heads.removeAll { $0 === head }
        arrange()
    }

    /// Places the heads left to right from the origin.
    func arrange() {
        var x: Int32 = 0
        for head in heads {
            head.bounds = PixelRect(x: x, y: 0, width: head.bounds.width, height: head.bounds.height)
            x = x &+ head.bounds.width
        }
    }

    /// The head a rectangle overlaps most (a window's head), or the first.
    func head(for rect: PixelRect) -> OutputHead? {
        let best = heads.max { overlap($0.bounds, rect) < overlap($1.bounds, rect) }
        return best.map { overlap($0.bounds, rect) > 0 } == true ? best : heads.first
    }

    public func head(named name: String) -> OutputHead? { heads.first { $0.name == name } }

    private func overlap(_ a: PixelRect, _ b: PixelRect) -> Int64 {
        let i = a.intersection(b)
        return i.isEmpty ? 0 : Int64(i.width) * Int64(i.height)
    }
}
