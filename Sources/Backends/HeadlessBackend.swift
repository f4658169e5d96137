import LodestoneCompositor
import LodestoneSystem
import Logging
import Rendering

/// An offscreen output: frames are composed into memory and kept there, for
/// tests, screenshots and the demo tour. Input comes from the test protocol.
public final class HeadlessBackend: Backend {
    public let name = "headless"
    private let log: Logger
    /// Called after each composed frame with the running frame count.
    public var frameComposed: ((Image, Int) -> Void)?

    public init(logger: Logger) { log = logger }

    public func start(_ compositor: Compositor) throws(SystemError) {
        compositor.framePresented = { [unowned self, unowned compositor] image, _ in
            self.frameComposed?(image, compositor.frameCount)
        }
        let heads = compositor.layout.heads.map { "\($0.name) \($0.bounds.width)×\($0.bounds.height) at \($0.bounds.x),\($0.bounds.y)" }
        log.info("headless output\(heads.count > 1 ? "s " + heads.joined(separator: ", ") + "," : "") \(compositor.output.width)×\(compositor.output.height) @\(compositor.output.scale)x")
    }

    /// Nothing on the loop.
    public func stop() {}
}
