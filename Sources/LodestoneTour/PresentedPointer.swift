import CWaylandClient
import CWaylandProtocols
import LodestoneTesting
import WaylandClient

/// The adaptive pointer as the compositor last presented it
/// (`lodestone_test_v1.pointer_shape`), in global logical coordinates.
public struct PresentedPointer: Sendable, CustomStringConvertible {
    public enum Kind: UInt32, Sendable { case circle, verticalBeam, horizontalBeam, roundedRect, custom, hidden, band, clientCursor }
    public enum Effect: UInt32, Sendable { case none, highlight, lift, hover }
    /// `adaptive_pointer_region_v1.accessory` values (5: a custom outline).
    public enum Accessory: UInt32, Sendable { case arrow, plus, minus, circleSlash, checkmark, custom }

    public var kind: Kind
    public var x = 0.0, y = 0.0, width = 0.0, height = 0.0, cornerRadius = 0.0, alpha = 0.0
    public var effect = Effect.none
    public var effectProgress = 0.0, effectScale = 1.0
    /// The targeted region's identifier, nil when the pointer targets none.
    public var target: UInt32?
    public var accessories: [(shape: Accessory, x: Double, y: Double, alpha: Double)] = []
    public var annotation = ""

    public var midX: Double { x + width / 2 }
    public var midY: Double { y + height / 2 }

    public var description: String {
        var s = "\(kind) \(Int(width))×\(Int(height)) at (\(Int(midX)), \(Int(midY))) alpha \(alpha)"
        if effect != .none { s += ", \(effect) scale \(effectScale)" }
        if let target { s += ", target \(target)" }
        if !accessories.isEmpty { s += ", accessories \(accessories.map { "\($0.shape)" })" }
        if !annotation.isEmpty { s += ", annotation '\(annotation)'" }
        return s
    }
}

/// Reads `pointer_shape` through its own binding of the test protocol.
final class PointerReader {
    private let connection: Connection
    private let proxy: Proxy
    private var last: PresentedPointer?

    struct Failed: Error, CustomStringConvertible { let description: String }

    init(session: Session) throws {
        connection = try session.connect()
        let registry = connection.registry()
        guard let control = registry.bind(cwp_lodestone_test_v1_interface(), version: 1) else {
            throw Failed(description: "the compositor does not offer lodestone_test_v1")
        }
        proxy = Proxy(control, on: connection)
        proxy.onEvent = { [unowned self] opcode, a in
            guard opcode == 7 else { return }  // pointer_shape
            var p = PresentedPointer(kind: PresentedPointer.Kind(rawValue: a.uint(0)) ?? .hidden)
            (p.x, p.y, p.width, p.height) = (a.fixed(1), a.fixed(2), a.fixed(3), a.fixed(4))
            (p.cornerRadius, p.alpha) = (a.fixed(5), a.fixed(6))
            p.effect = PresentedPointer.Effect(rawValue: a.uint(7)) ?? .none
            (p.effectProgress, p.effectScale) = (a.fixed(8), a.fixed(9))
            p.target = a.uint(10) != 0 ? a.uint(11) : nil
            let words = a.array(14)
            let fixed = { (w: UInt32) in Double(Int32(bitPattern: w)) / 256 }
            for i in stride(from: 0, to: words.count - 3, by: 4) {
                p.accessories.append((PresentedPointer.Accessory(rawValue: words[i]) ?? .custom,
                                      fixed(words[i + 1]), fixed(words[i + 2]), fixed(words[i + 3])))
            }
            p.annotation = a.string(15)
            self.last = p
        }
    }

    func read() throws -> PresentedPointer {
        last = nil
        lodestone_test_v1_get_pointer_shape(proxy.pointer)
        try connection.roundtrip()
        guard let last else { throw Failed(description: "no pointer_shape answer") }
        return last
    }
}
