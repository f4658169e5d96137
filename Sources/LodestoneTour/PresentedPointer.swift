import CWaylandClient
import CWaylandProtocols
import LodestoneSystem
import LodestoneTesting
import WaylandClient

/// The adaptive pointer as the compositor last presented it
/// (`lodestone_test_v1.pointer_shape`), in global logical coordinates.
public struct PresentedPointer: Sendable, CustomStringConvertible {
    public typealias Kind = TestControl.PointerShape.Kind
    public typealias Effect = TestControl.PointerShape.Effect
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

extension PresentedPointer {
    /// The tour's view of a decoded `pointer_shape`.
    init(_ shape: TestControl.PointerShape) {
        kind = shape.kind
        (x, y, width, height) = (shape.x, shape.y, shape.width, shape.height)
        (cornerRadius, alpha) = (shape.cornerRadius, shape.alpha)
        effect = shape.effect
        (effectProgress, effectScale) = (shape.effectProgress, shape.effectScale)
        target = shape.targeted ? shape.regionIdentifier : nil
        accessories = shape.accessories.map { (Accessory(rawValue: $0.shape) ?? .custom, $0.x, $0.y, $0.alpha) }
        annotation = shape.annotation
    }
}

/// Reads `pointer_shape` through its own binding of the test protocol.
final class PointerReader {
    private let connection: Connection
    private let proxy: Proxy
    private var last: PresentedPointer?

    init(session: Session) throws {
        connection = try session.connect()
        let registry = connection.registry()
        guard let control = registry.bind(cwp_lodestone_test_v1_interface(), version: 1) else {
            throw SystemError("the compositor does not offer lodestone_test_v1")
        }
        proxy = Proxy(control, on: connection)
        proxy.onEvent = { [unowned self] opcode, a in
            guard case .pointerShape(let shape) = TestControlEvent(opcode: opcode, arguments: a) else { return }
            self.last = PresentedPointer(shape)
        }
    }

    func read() throws -> PresentedPointer {
        last = nil
        proxy.request { lodestone_test_v1_get_pointer_shape($0) }
        try connection.roundtrip()
        guard let last else { throw SystemError("no pointer_shape answer") }
        return last
    }
}
