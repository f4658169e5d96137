import Compositor

/// Where frames go and input comes from. One implementation per file:
/// headless today; nested Wayland and DRM later.
public protocol Backend: AnyObject {
    /// A short name for logs ("headless", "wayland").
    var name: String { get }
    /// Hooks the backend to the compositor's output and starts it.
    func start(_ compositor: Compositor) throws
}
