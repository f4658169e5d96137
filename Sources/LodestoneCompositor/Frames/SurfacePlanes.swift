import CWaylandServer
import Rendering
import WaylandServer

/// Planes a backend offers for client surfaces: a surface shown by a plane is not composed
/// by Lodestone at all; the backend hands the client's buffer to whatever shows it. Nested,
/// a plane is a subsurface of Lodestone's window in the parent (`ParentPlanes`), as wlroots'
/// Wayland backend shows its output layers and ChromeOS's sommelier forwards buffers.
///
/// Each frame, as the DRM planes are assigned, `Frames` asks the backend which visible
/// surfaces a plane could show (`accepts`), decides which do (`SurfacePlanePlanner`: nothing
/// Lodestone composes may lie above a plane where it overlaps it), composes the rest, and
/// hands the backend the planes of the frame (`present`) before the frame itself goes out,
/// so a surface that moves between a plane and the composed frame does so in one step.
public protocol SurfacePlanes: AnyObject {
    /// Whether a frame can hand planes over now (nested: the window can take a commit).
    /// While it cannot, each surface stays where the last frame put it and its updates wait.
    var canPresent: Bool { get }
    /// Whether a plane could show `surface` as it is now: its buffer can reach the plane
    /// without a copy, its crop, scale and transform can be expressed there.
    func accepts(_ surface: PlaneSurface) -> Bool
    /// The frame's planes, bottom first, each with what changed since the last frame that
    /// showed it. A plane not listed any more is hidden with this frame.
    func present(_ planes: [PlaneSurface])
    /// The surface of plane `id` is gone for good: so is its plane, at once.
    func forget(_ id: UInt64)
}

/// A client surface as a plane shows it: which buffer, where (global logical coordinates,
/// clipped to the output), and how its buffer maps onto that rect.
public struct PlaneSurface {
    /// The surface, for as long as it lives; never reused.
    public let id: UInt64
    /// The client's buffer the surface shows.
    public let buffer: PlaneBuffer
    /// Changes whenever the surface applies a new buffer (or the same one again).
    public let bufferCommit: UInt64
    /// The visible part of the surface: where the plane goes, its size in logical points.
    public let rect: PixelRect
    /// The buffer's scale and `wl_output.transform`, as the client set them.
    public let bufferScale: Int32, bufferTransform: Int32
    /// The part of the buffer `rect` shows, in the surface coordinates the buffer has before
    /// any viewport (`wp_viewport.set_source`'s), when that is not simply the whole buffer
    /// at its own size: the client's viewport, or the output's edge cropping the surface.
    public let source: (x: Double, y: Double, width: Double, height: Double)?
    /// The buffer's size in those coordinates (after scale and transform): a source must
    /// stay inside it.
    public let sourceBounds: (width: Int32, height: Int32)
    /// Every pixel is opaque (an xrgb buffer, or an opaque region over all of it): the
    /// composed frame draws it without blending, and so must whatever shows the plane.
    public let isOpaque: Bool
    /// Buffer pixels changed since a frame last handed this plane over (`present` only).
    public internal(set) var damage: [PixelRect] = []
    /// The frame callbacks and presentation feedback of the content shown (`present` only):
    /// answered when the plane's content is on screen (`PlaneUpdate`).
    public internal(set) var update: PlaneUpdate?
}

/// The client buffer behind a plane: a wl_shm buffer (its pool's file shared with the
/// parent), or a linux-dmabuf buffer the backend imported into its parent when the client
/// made it (`DmabufParent.importBuffer`).
public enum PlaneBuffer {
    case shm(ShmBuffer)
    /// The backend's own import of the client's dmabuf (nested: a `ParentDmabufBuffer`), and
    /// the client's buffer.
    case dmabuf(imported: AnyObject, buffer: BufferResource)

    /// The client's buffer itself: held while the parent reads it (its release waits).
    public var resource: BufferResource {
        switch self {
        case .shm(let shm): shm.resource
        case .dmabuf(_, let buffer): buffer
        }
    }
}

/// The frame callbacks and presentation feedback of one content update of a surface on a
/// plane: the backend answers them when whatever shows the plane has shown it (nested: the
/// parent's own frame callback and presentation feedback on the subsurface).
public final class PlaneUpdate {
    private var callbacks: [WlCallback]
    private var feedbacks: [WpPresentationFeedback]
    private let outputs: [WlOutput]
    private let clock: FrameClock

    init(callbacks: [WlCallback], feedbacks: [WpPresentationFeedback], outputs: [WlOutput], clock: FrameClock) {
        self.callbacks = callbacks
        self.feedbacks = feedbacks
        self.outputs = outputs
        self.clock = clock
    }

    /// The client asked when this update is shown (`wp_presentation`).
    public var wantsPresentation: Bool { !feedbacks.isEmpty }

    /// The update was drawn: the client may draw its next frame (`wl_callback.done` with the
    /// frame clock's time).
    public func frameDone() {
        let now = clock.now
        for callback in callbacks { callback.done(now) }
        callbacks = []
    }

    /// The update reached the screen at `time`, as the plane's owner says (nested: the
    /// parent's `wp_presentation_feedback.presented`, passed on as it came).
    public func presented(time: Timestamp, refreshNanoseconds: UInt32, sequence: UInt64, flags: UInt32) {
        let frame = PresentedFrame(time: time, refreshNanoseconds: refreshNanoseconds, sequence: sequence, flags: flags)
        for feedback in feedbacks { feedback.presented(frame, outputs: outputs.filter { !$0.isDestroyed }) }
        feedbacks = []
    }

    /// Presented now by the frame clock's reckoning: for a backend that cannot say when.
    public func presentedNow() {
        presented(time: clock.timestamp, refreshNanoseconds: 0, sequence: 0, flags: 0)
    }

    /// The update never reached the screen (a newer one replaced it first).
    public func discarded() {
        for feedback in feedbacks { feedback.discarded() }
        feedbacks = []
    }

    /// Whatever is still unanswered when the update is dropped is answered now, so no client
    /// waits for ever: its callbacks are done and its feedback discarded.
    deinit {
        frameDone()
        discarded()
    }
}
