import LodestoneCompositor
import LodestoneSystem
import Rendering

/// Where frames go and input comes from. One implementation per file or
/// folder: headless, nested Wayland (`Wayland/`); DRM later.
public protocol Backend: AnyObject {
    /// A short name for logs ("headless", "wayland").
    var name: String { get }
    /// Called after each composed frame with the running frame count
    /// (--screenshot waits for it).
    var frameComposed: ((Image, Int) -> Void)? { get set }
    /// Hooks the backend to the compositor's output and starts it; throws
    /// what stops it from starting, for Lodestone to print.
    func start(_ compositor: Compositor) throws(SystemError)
    /// Leaves the display's event loop: removes every source the backend added and lets go
    /// of what it holds of the compositor's (the frame clock, whose timer is a source too).
    /// Lodestone calls it before the display is destroyed: libwayland frees the loop then,
    /// and a source removed from it afterwards is written into freed memory and never freed
    /// (LeakSanitizer found the nested backend's two when its parent closed).
    func stop()
}
