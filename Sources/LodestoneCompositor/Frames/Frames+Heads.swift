import Rendering
import WaylandServer

/// Several heads, each at its own cadence (see `Frames`): the heads whose refresh has come are
/// composed at a tick, each with its part of the damage, and a held head resumes when its
/// presenter can take a frame again.
extension Frames {
    func presentDueHeads() {
        let now = clock.now
        // Ticks fall on the fastest head's refreshes: half a tick early is on time.
        let slack = clock.interval / 2
        let due = layout.heads.filter { !$0.isHeld && Int32(bitPattern: now &+ slack &- $0.nextRefresh) >= 0 }
        if !due.isEmpty {
            let time = clock.timestamp
            countRepaint()
            let composed = compose(at: time, only: due)
            for head in due {
                head.nextRefresh = now &+ head.interval
                if composed?.intersects(output.pixels(logical: head.bounds)) == true { head.frameCount += 1 }
            }
            answerFrame(presentedFrame(at: time), now: now) { isShown($0, on: due) }
        }
        // What waits for a head that can take a frame (not one that is held) keeps one due.
        let open = layout.heads.filter { !$0.isHeld }
        var waiting = open.contains { output.damage.intersects(output.pixels(logical: $0.bounds)) }
        if !waiting {
            scene.forEachMappedSurface { s, x, y in
                guard !waiting, !s.frameCallbacks.isEmpty || !s.presentationFeedbacks.isEmpty else { return }
                waiting = isShown(PixelRect(x: x, y: y, width: s.width, height: s.height), on: open)
            }
        }
        if waiting { scheduleFrame() }
    }

    /// Whether a surface's rect is on one of `heads`, or on no head at all (off every head it
    /// is paced by whichever head takes a frame).
    private func isShown(_ rect: PixelRect, on heads: [OutputHead]) -> Bool {
        let on = layout.heads.filter { !$0.bounds.intersection(rect).isEmpty }
        return on.isEmpty || on.contains { head in heads.contains { $0 === head } }
    }

    /// A held head's presenter can take a frame again (its flip completed). On the real
    /// clock, when its refresh has come meanwhile (a flip completes at the refresh the
    /// head's next frame is for), that frame runs now: the head's own flips drive its
    /// frames, as one head's do, and a tick that came just before the flip does not cost it
    /// a refresh. Otherwise its waiting damage and frame callbacks get the next tick.
    func resume(_ head: OutputHead) {
        guard head.isHeld else { return }
        head.isHeld = false
        if clock.mode == .realtime, !clock.isHeld, Int32(bitPattern: clock.now &+ clock.interval / 2 &- head.nextRefresh) >= 0 {
            repaint()
        } else {
            scheduleFrame()
        }
    }
}
