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
/// `wl_output` global of its own, added and withdrawn with it. Its mode, scale, transform,
/// place and whether it is on are what `zwlr_output_manager_v1` shows and changes
/// (`HeadConfiguration`).
public final class OutputHead {
    public let name: String
    public let description: String
    /// Where the head sits in global logical coordinates (`OutputLayout.arrange`, or where a
    /// client put it), and its logical size: its mode's pixels divided by its scale, turned
    /// by its transform.
    public internal(set) var bounds: PixelRect
    /// The modes it can show, in pixels (a DRM connector's; a headless head's own size and
    /// the custom modes given to it), and the one it shows.
    public internal(set) var modes: [HeadMode]
    public internal(set) var mode: HeadMode
    /// Pixels per logical unit on this head. Lodestone composes one frame at one scale
    /// (`Output.scale`): a head at another scale is that frame's part resampled to its
    /// mode by the presenter that can (see docs/displays.md).
    public internal(set) var scale: OutputScale
    public internal(set) var transform: OutputTransform = .normal
    /// Off (`zwlr_output_configuration_v1.disable_head`): out of the layout, no wl_output.
    public internal(set) var isEnabled = true
    /// Make, model, serial number and size in millimetres, when the backend knows them.
    public var identity = HeadIdentity()
    public var refreshMilliHz: Int32 { mode.refreshMilliHz }
    /// Milliseconds per refresh: with several heads, each is composed and presented at its
    /// own cadence (`Frames.presentDueHeads`).
    public var interval: UInt32 { UInt32(max(1, 1_000_000 / max(mode.refreshMilliHz, 1))) }
    /// When the head next takes a frame (the frame clock's milliseconds).
    var nextRefresh: UInt32 = 0
    /// Its presenter cannot take a frame yet (its page flip is still pending): its damage
    /// and its surfaces' frame callbacks wait, and the other heads go on.
    public var isHeld = false
    /// Frames composed for this head while there were several.
    public internal(set) var frameCount = 0
    /// Clients' wl_outputs bound to this head: told again when it changes.
    var resources: [WlOutput] = []
    /// The head's wl_output global; nil once the head is gone or switched off.
    var global: WaylandGlobal?

    /// A head of `mode`'s logical size at the frame's `scale`.
    init(_ mode: OutputMode, scale: OutputScale) {
        name = mode.name
        description = "Lodestone \(mode.name)"
        bounds = PixelRect(x: 0, y: 0, width: mode.width, height: mode.height)
        let own = HeadMode(width: scale.pixels(mode.width), height: scale.pixels(mode.height), refreshMilliHz: mode.refreshHz &* 1000, isPreferred: true)
        modes = [own]
        self.mode = own
        self.scale = scale
    }

    /// The logical size `mode` has at `scale` turned by `transform`.
    static func logicalSize(_ mode: HeadMode, _ scale: OutputScale, _ transform: OutputTransform) -> (width: Int32, height: Int32) {
        let w = scale.logical(mode.width), h = scale.logical(mode.height)
        return transform.swapsAxes ? (h, w) : (w, h)
    }
}

/// A mode of a head (`zwlr_output_mode_v1`): size in pixels, refresh in mHz.
public struct HeadMode: Sendable, Equatable {
    public var width: Int32, height: Int32
    public var refreshMilliHz: Int32
    public var isPreferred: Bool
    public init(width: Int32, height: Int32, refreshMilliHz: Int32, isPreferred: Bool = false) {
        self.width = width; self.height = height; self.refreshMilliHz = refreshMilliHz; self.isPreferred = isPreferred
    }
    /// The same size and refresh, whichever is preferred.
    public func matches(_ other: HeadMode) -> Bool { width == other.width && height == other.height && refreshMilliHz == other.refreshMilliHz }
}

/// What a head says of itself in `zwlr_output_head_v1` and `wl_output.geometry`.
public struct HeadIdentity: Sendable, Equatable {
    public var make = "Lodestone", model = "", serialNumber = ""
    /// Millimetres; 0 when unknown (a virtual head).
    public var widthMillimetres: Int32 = 0, heightMillimetres: Int32 = 0
    public init() {}
}

/// The heads placed side by side, left to right in the order they were added (connector
/// order on a TTY), tops aligned, until a client places them (`zwlr_output_manager_v1`):
/// from then on each keeps its place and a new one goes to the right of the others.
/// Lodestone composes one frame, `Output`, from the origin to the heads' far corner; each
/// head shows its rectangle of it. A single head is the whole frame, so one output works
/// exactly as before there were several.
public final class OutputLayout {
    /// The heads that are on, in order: the frame's, the pointer's and the windows'.
    public private(set) var heads: [OutputHead] = []
    /// Every head, on or off, in the order they came (`zwlr_output_manager_v1`'s list).
    public private(set) var known: [OutputHead] = []
    /// A client chose the heads' places: they are no longer packed left to right.
    var placedByClient = false

    /// From the origin to the far corner of the heads: the composed frame's logical size.
    public var size: (width: Int32, height: Int32) {
        (heads.map(\.bounds.maxX).max() ?? 0, heads.map(\.bounds.maxY).max() ?? 0)
    }

    /// The heads' rectangles, for the pointer to stay on (only where they leave gaps, that
    /// is heads of different heights, does this differ from the bounding box).
    var areas: [Rect<Global>] {
        heads.count < 2 ? [] : heads.map { Rect(x: Double($0.bounds.x), y: Double($0.bounds.y), width: Double($0.bounds.width), height: Double($0.bounds.height)) }
    }

    func append(_ head: OutputHead) {
        known.append(head)
        if placedByClient {
            head.bounds = PixelRect(x: size.width, y: 0, width: head.bounds.width, height: head.bounds.height)
            heads.append(head)
        } else {
            heads.append(head)
            arrange()
        }
    }

    func remove(_ head: OutputHead) {
        known.removeAll { $0 === head }
        heads.removeAll { $0 === head }
        if placedByClient { normalize() } else { arrange() }
    }

    /// The heads that are on, in `known`'s order, after some were switched on or off.
    func refreshEnabled() {
        heads = known.filter(\.isEnabled)
        normalize()
    }

    /// Places the heads left to right from the origin.
    func arrange() {
        var x: Int32 = 0
        for head in heads {
            head.bounds = PixelRect(x: x, y: 0, width: head.bounds.width, height: head.bounds.height)
            x = x &+ head.bounds.width
        }
    }

    /// Moves every head so the leftmost starts at x 0 and the topmost at y 0: the frame and
    /// the pointer's space start at the origin (a client may put heads at negative places).
    func normalize() {
        guard let minX = heads.map(\.bounds.x).min(), let minY = heads.map(\.bounds.y).min(), minX != 0 || minY != 0 else { return }
        for head in heads { head.bounds = head.bounds.offsetBy(dx: -minX, dy: -minY) }
    }

    /// The head a rectangle overlaps most (a window's head), or the first.
    func head(for rect: PixelRect) -> OutputHead? {
        let best = heads.max { overlap($0.bounds, rect) < overlap($1.bounds, rect) }
        return best.map { overlap($0.bounds, rect) > 0 } == true ? best : heads.first
    }

    /// The head of that name that is on.
    public func head(named name: String) -> OutputHead? { heads.first { $0.name == name } }

    private func overlap(_ a: PixelRect, _ b: PixelRect) -> Int64 {
        let i = a.intersection(b)
        return i.isEmpty ? 0 : Int64(i.width) * Int64(i.height)
    }
}
