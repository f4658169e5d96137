import CWaylandServer
import Rendering
import WaylandServer

/// What gives a surface its meaning; a surface gets at most one role, for life.
protocol SurfaceRole: AnyObject {
    /// Used in "already has the role X" errors.
    var roleName: String { get }
    /// New state was applied to the surface.
    func surfaceCommitted()
    /// Called before the state is applied, so a role can veto a commit with a protocol error.
    func surfaceWillCommit() -> Bool
    /// Called on a non-null attach, so a role can refuse it with a protocol error
    /// (xdg_surface: no buffer before the first configure).
    func surfaceWillAttach() -> Bool
}

extension SurfaceRole {
    func surfaceWillCommit() -> Bool { true }
    func surfaceWillAttach() -> Bool { true }
}

/// The double-buffered part of a surface (wl_surface "pending" and "current").
struct SurfaceState {
    /// nil: no attach since the last commit. Some(nil): a null buffer was attached.
    var buffer: AttachedBuffer??
    var dx: Int32 = 0, dy: Int32 = 0
    var surfaceDamage: [PixelRect] = []
    var bufferDamage: [PixelRect] = []
    var frameCallbacks: [WlCallback] = []
    /// wp_presentation_feedback objects for this content update.
    var presentationFeedbacks: [WpPresentationFeedback] = []
    /// nil: unchanged since last commit; Some(nil): reset to the default.
    var opaque: PixelRegion??
    var input: PixelRegion??
    var scale: Int32?
    var transform: Int32?
    /// Subsurface stacking asked for since the last commit.
    var stack: [StackEntry]?
    /// adaptive_pointer_v1 regions snapshot at commit; nil: unchanged.
    var regions: [RegionSpec]?
    /// wp_viewport crop and scale; nil: unchanged, Some(nil): unset.
    var viewportSource: ViewportSource??
    var viewportDestination: (Int32, Int32)??

    /// Damage a client sends without committing must not grow without bound: past
    /// `ClientLimits.pendingDamageRectangles` the rectangles merge into their bounding box.
    static func addDamage(_ rect: PixelRect, to list: inout [PixelRect]) {
        guard !rect.isEmpty else { return }
        if list.count < ClientLimits.pendingDamageRectangles { return list.append(rect) }
        list = [list.reduce(rect) { $0.union($1) }]
    }

    mutating func merge(_ newer: inout SurfaceState) {
        if let b = newer.buffer { buffer = b }
        dx = dx.clampedAdding(newer.dx); dy = dy.clampedAdding(newer.dy)
        for r in newer.surfaceDamage { Self.addDamage(r, to: &surfaceDamage) }
        for r in newer.bufferDamage { Self.addDamage(r, to: &bufferDamage) }
        frameCallbacks += newer.frameCallbacks
        presentationFeedbacks += newer.presentationFeedbacks
        if let o = newer.opaque { opaque = o }
        if let i = newer.input { input = i }
        if let s = newer.scale { scale = s }
        if let t = newer.transform { transform = t }
        if let s = newer.stack { stack = s }
        if let r = newer.regions { regions = r }
        if let v = newer.viewportSource { viewportSource = v }
        if let v = newer.viewportDestination { viewportDestination = v }
        newer = SurfaceState()
    }
}

/// A wl_buffer attached to a surface; forgets the buffer if the client destroys it.
final class AttachedBuffer {
    /// nil once the client destroyed the buffer.
    private(set) var buffer: WlBuffer?
    private let listener: Listener

    /// Nil when the destroy listener cannot be allocated.
    init?(_ buffer: WlBuffer) {
        self.buffer = buffer
        var forget: (() -> Void)?
        guard let listener = Listener({ _ in forget?() }) else { return nil }
        self.listener = listener
        forget = { [unowned self] in
            // Held here: willForget may drop the last other reference to this object.
            let attached = self
            attached.willForget?()
            attached.willForget = nil
            attached.buffer = nil
            attached.listener.detach()
        }
        buffer.onDestroy(listener)
    }

    /// Called when the client destroys the buffer, while it still exists.
    var willForget: (() -> Void)?

    deinit { listener.detach() }

    func release() { buffer?.release() }
}

/// One entry of a surface's paint order: itself or one of its subsurfaces.
enum StackEntry: Equatable {
    case parent
    case child(WlSubsurface)

    static func == (a: StackEntry, b: StackEntry) -> Bool {
        switch (a, b) {
        case (.parent, .parent): true
        case (.child(let x), .child(let y)): x === y
        default: false
        }
    }
}
