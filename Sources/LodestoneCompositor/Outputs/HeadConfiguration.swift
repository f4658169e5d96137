import LodestoneSystem
import Rendering

/// `wl_output_transform`: how a head is turned (rotated counter-clockwise, then flipped),
/// 0 to 7 as the enum's values.
public enum OutputTransform: Int32, Sendable, CaseIterable {
    case normal = 0, rotated90, rotated180, rotated270, flipped, flipped90, flipped180, flipped270
    /// A quarter turn: the head's logical width is its mode's height.
    public var swapsAxes: Bool { rawValue % 2 == 1 }
}

/// What a client asks of one head (`zwlr_output_configuration_head_v1`, or
/// `disable_head`): every property, those it did not set kept as they are.
public struct HeadConfiguration {
    public let head: OutputHead
    public var isEnabled: Bool
    public var mode: HeadMode
    /// `set_custom_mode`: a mode the head did not list.
    public var isCustomMode = false
    public var x: Int32, y: Int32
    public var transform: OutputTransform
    public var scale: OutputScale

    /// The head as it is now.
    init(_ head: OutputHead) {
        self.head = head
        isEnabled = head.isEnabled
        mode = head.mode
        x = head.bounds.x; y = head.bounds.y
        transform = head.transform
        scale = head.scale
    }

    /// Its logical size once applied.
    var logicalSize: (width: Int32, height: Int32) { OutputHead.logicalSize(mode, scale, transform) }

    /// Whether it changes what the head shows (not only where it sits).
    var changesMode: Bool { isEnabled != head.isEnabled || !mode.matches(head.mode) }
}

/// The limits of an arrangement Lodestone takes, and why one is refused
/// (`zwlr_output_configuration_v1.failed`; the reason goes to the log).
enum HeadConfigurationLimits {
    /// The composed frame spans the origin to the heads' far corner (`OutputLayout`): this
    /// many logical units a side at most (gaps between heads count).
    static let maximumExtent: Int32 = 16384
    /// A custom mode's pixels a side at most (pixman images; a TTY mode comes from the connector).
    static let maximumModeSide: Int32 = 16384

    /// Why `configuration` cannot be shown, or nil.
    static func refusal(of configuration: [HeadConfiguration]) -> String? {
        let on = configuration.filter(\.isEnabled)
        guard !on.isEmpty else { return "every head would be off: Lodestone composes its frame over at least one head" }
        for c in on {
            if c.mode.width > maximumModeSide || c.mode.height > maximumModeSide {
                return "\(c.head.name): a \(c.mode.width)×\(c.mode.height) mode is larger than \(maximumModeSide) pixels a side"
            }
            let size = c.logicalSize
            guard size.width > 0, size.height > 0 else { return "\(c.head.name): at scale \(c.scale) its mode is under one logical unit" }
        }
        let minX = on.map(\.x).min()!, minY = on.map(\.y).min()!
        let maxX = on.map { Int64($0.x) + Int64($0.logicalSize.width) }.max()!
        let maxY = on.map { Int64($0.y) + Int64($0.logicalSize.height) }.max()!
        if maxX - Int64(minX) > Int64(maximumExtent) || maxY - Int64(minY) > Int64(maximumExtent) {
            return "the heads would span \(maxX - Int64(minX))×\(maxY - Int64(minY)) logical units; the frame Lodestone composes over them takes \(maximumExtent) a side at most"
        }
        return nil
    }
}

/// A backend's say in a client's arrangement of its heads (`zwlr_output_manager_v1`): what
/// it cannot show, and showing what it can. Without one (headless) every arrangement within
/// `HeadConfigurationLimits` is taken: the heads are the frame's rectangles and nothing more.
public protocol OutputConfigurator: AnyObject {
    /// Why the backend cannot show `configuration` (nil: it can). Changes nothing.
    func refusal(of configuration: [HeadConfiguration]) -> String?
    /// Shows the heads' new modes and turns heads on and off (modesets), before the layout
    /// changes; throws when the hardware refuses, and the layout stays as it was.
    func apply(_ configuration: [HeadConfiguration]) throws(SystemError)
    /// The layout has changed as the configuration said (cursor planes follow the heads).
    func arranged()
}
