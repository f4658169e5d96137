import CWaylandProtocols
import CWaylandServer
import Rendering
import WaylandServer

/// Screencopy's state on the compositor: the managers (each counts the damage since its
/// last copy) and the `copy_with_damage` frames waiting for a frame with damage.
final class Screencopy {
    /// The output and its composed pixels: all screencopy reads of the core.
    unowned let source: any ScreencopySource
    var managers: [ZwlrScreencopyManager] = []
    var waiting: [ZwlrScreencopyFrame] = []

    init(source: any ScreencopySource) { self.source = source }

    var output: Output { source.output }
    /// The output's pixels as last presented, the pointer and its effects and the surfaces on
    /// planes included.
    var presentedImage: Image { source.capturedImage() }
    var lastPresented: Timestamp { source.lastPresented }
    /// Composes what clients committed since the last frame (no pointer step).
    func composeIfNeeded() { source.composeIfNeeded() }
    /// `area` (output pixels) composed again without the pointer.
    func composeWithoutPointer(_ area: PixelRect) -> Image { source.composeWithoutPointer(area) }

    /// A frame was composed with `damage` (output pixels): managers remember it, and the
    /// frames waiting for it are copied.
    func framePresented(damage: PixelRegion) {
        for manager in managers { manager.damage.add(damage) }
        for frame in waiting where !frame.manager.isLive { frame.manager.damage.add(damage) }
        completeDamaged()
    }

    func completeDamaged() {
        // Taken out first: a frame's events cannot reach this list again, but a copy
        // composes nothing new, so one pass settles every frame.
        let frames = waiting
        waiting = frames.filter { !$0.completeIfDamaged() }
    }

    /// The output's mode changed: every manager's next copy sees the whole output.
    func outputChanged() {
        let output = source.output
        for manager in managers { manager.damage.add(PixelRect(x: 0, y: 0, width: output.pixelWidth, height: output.pixelHeight)) }
    }
}

/// What screencopy reads of the core (`Compositor` is it): the output, the time its last
/// frame was presented, and composition without a pointer step.
protocol ScreencopySource: AnyObject {
    var output: Output { get }
    var lastPresented: Timestamp { get }
    func composeIfNeeded()
    func capturedImage() -> Image
    func composeWithoutPointer(_ area: PixelRect) -> Image
}

extension Compositor: ScreencopySource {}
