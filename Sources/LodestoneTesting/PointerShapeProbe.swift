import CWaylandClient
import CWaylandProtocols
import LodestoneSystem
import WaylandClient

/// Reads `lodestone_test_v1.pointer_shape` (and `pointer_preview`) through a binding of its
/// own: `TestControl`'s answers end with a round trip of their own, and the tests and
/// `lodestone-bench --accuracy` poll the shape while other requests go on.
public final class PointerShapeProbe {
    public let connection: Connection
    private let proxy: Proxy
    private var last: TestControl.PointerShape?
    private var lastPreview: TestControl.PointerPreview?

    /// Version 4 for `preview()`; pointer_shape is the same at every version.
    public init(session: Session) throws {
        connection = try session.connect()
        let registry = connection.registry()
        guard let control = registry.bind(cwp_lodestone_test_v1_interface(), version: 4) else {
            throw SystemError("the compositor does not offer lodestone_test_v1 (start it with --test-control)")
        }
        proxy = Proxy(control, on: connection)
        proxy.onEvent = { [unowned self] opcode, a in
            switch TestControlEvent(opcode: opcode, arguments: a) {
            case .pointerShape(let shape): self.last = shape
            case .pointerPreview(let preview): self.lastPreview = preview
            default: break
            }
        }
    }

    /// The pointer's fill and the pen's hover preview (lodestone_test_v1 version 4).
    public func preview() throws -> TestControl.PointerPreview {
        lastPreview = nil
        proxy.request { lodestone_test_v1_get_pointer_preview($0) }
        try connection.roundtrip()
        guard let lastPreview else { throw SystemError("no pointer_preview answer") }
        return lastPreview
    }

    /// The adaptive pointer as the compositor last presented it.
    public func shape() throws -> TestControl.PointerShape {
        last = nil
        proxy.request { lodestone_test_v1_get_pointer_shape($0) }
        try connection.roundtrip()
        guard let last else { throw SystemError("no pointer_shape answer") }
        return last
    }
}
