import CWaylandProtocols
import CWaylandServer
import Rendering
import WaylandServer

/// Screencopy's state on the compositor: the managers (each counts the damage since its
/// last copy) and the `copy_with_damage` frames waiting for a frame with damage. It holds
/// the output only (for its size); the pixels a frame copies are read by the frame's
/// manager, through the source its handler was given (`ScreencopySource`).
final class Screencopy {
    let output: Output
    var managers: [ZwlrScreencopyManager] = []
    var waiting: [ZwlrScreencopyFrame] = []

    init(output: Output) { self.output = output }

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
        for manager in managers { manager.damage.add(PixelRect(x: 0, y: 0, width: output.pixelWidth, height: output.pixelHeight)) }
    }
}

/// What a screencopy frame reads of the core (`Compositor` is it, forwarding to its frames),
/// through its manager's handler: the output and its pixels as presented, the time its last
/// frame was presented, and composition without a pointer step.
protocol ScreencopySource: AnyObject {
    var output: Output { get }
    var lastPresented: Timestamp { get }
    func composeIfNeeded()
    func capturedImage() -> Image
    func composeWithoutPointer(_ area: PixelRect) -> Image
}

extension Compositor: ScreencopySource {}
