import Rendering
import WaylandClient

/// A `wl_output` of the parent, for its scale.
final class ParentOutput {
    /// The largest whole scale used (`OutputScale.maximum`); a parent may say 0 or 2³¹-1.
    static let maximumScale = OutputScale.maximum.ceiling
    let proxy: Proxy
    /// In 1...maximumScale.
    private(set) var scale: Int32 = 1
    /// What the parent said, for the warning when it is out of range.
    private(set) var requestedScale: Int32 = 1
    private var pendingScale: Int32 = 1
    var scaleChanged: () -> Void = {}

    init(_ proxy: Proxy) {
        self.proxy = proxy
        proxy.handleEvents(OutputEvent.self) { [unowned self] event in
            switch event {
            case .done:  // the description is complete
                let scale = min(max(1, self.pendingScale), Self.maximumScale)
                if scale != self.scale || self.pendingScale != self.requestedScale {
                    self.scale = scale
                    self.requestedScale = self.pendingScale
                    self.scaleChanged()
                }
            case .scale(let factor): self.pendingScale = factor
            case .geometry, .mode, .name, .description: break
            }
        }
    }
}
