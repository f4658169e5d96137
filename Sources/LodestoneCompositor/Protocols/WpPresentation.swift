import CWaylandProtocols
import CWaylandServer
import Glibc
import WaylandServer

/// `wp_presentation` (presentation-time, stable): tells a client when each of its
/// content updates reached the screen, so video players and games can pace themselves.
/// A feedback belongs to the next commit of its surface (double-buffered, like a frame
/// callback); the frame that composes that update answers `presented` with the frame
/// clock's time; a newer commit first, or the surface's end, answers `discarded`.
final class WpPresentation: Resource, WpPresentationHandler {
    static let version: Int32 = 1

    override init?(client: Client, version: UInt32, id: UInt32) {
        super.init(client: client, version: version, id: id)
        // The frame clock's real time is CLOCK_MONOTONIC (a manual clock counts from 0 instead).
        send { wp_presentation_send_clock_id($0, UInt32(CLOCK_MONOTONIC)) }
    }

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        case .destroy: destroy()
        case .feedback:
            guard let surface = a.object(0, as: WlSurface.self) else { return }
            guard let feedback = WpPresentationFeedback(client: client, id: a.newID(1)) else { return }
            surface.addPresentationFeedback(feedback)
        }
    }
}

/// `wp_presentation_feedback`: one answer, `presented` or `discarded`, then it is gone.
final class WpPresentationFeedback: Resource, WpPresentationFeedbackInterface {

    init?(client: Client, id: UInt32) {
        super.init(client: client, version: 1, id: id)
    }

    /// Gone with its client: a plane's update may outlive the client that asked for it.
    private var isDestroyed = false
    override func destroyed() { isDestroyed = true }

    /// The update was shown in the frame `frame`: first the wl_outputs the client was told
    /// the surface is on (`sync_output`), then the time and how it was paced.
    func presented(_ frame: PresentedFrame, outputs: [WlOutput]) {
        guard !isDestroyed else { return }
        for output in outputs { send(output) { wp_presentation_feedback_send_sync_output($0, $1) } }
        send { wp_presentation_feedback_send_presented($0, frame.time.secondsHigh, frame.time.secondsLow, frame.time.nanoseconds,
                                                frame.refreshNanoseconds, UInt32(truncatingIfNeeded: frame.sequence >> 32),
                                                UInt32(truncatingIfNeeded: frame.sequence), frame.flags) }
        destroy()
    }

    /// The update never reached the screen (superseded by a newer commit, or the surface went away).
    func discarded() {
        guard !isDestroyed else { return }
        send { wp_presentation_feedback_send_discarded($0) }
        destroy()
    }
}

/// What `presented` says about a frame. Each backend tells what it knows
/// (`Compositor.Pacing`): headless frames follow the frame clock's timer, so the
/// refresh is its interval; nested frames follow the parent's frame callbacks, whose
/// refresh Lodestone does not know (0, as the protocol asks); on a TTY the frame waits
/// for the page flip, which is vsync.
struct PresentedFrame {
    var time: Timestamp
    var refreshNanoseconds: UInt32
    /// The frame counter (every repaint), standing in for the output's MSC.
    var sequence: UInt64
    var flags: UInt32
}
