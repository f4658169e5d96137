import CWaylandServer
import Rendering
import WaylandServer

/// `wl_surface`: a rectangle of pixels with double-buffered state. Its state types
/// (`SurfaceState`, `SurfaceRole`, `AttachedBuffer`) are in SurfaceState.swift; making a
/// buffer its texture, and the buffer transform, in WlSurface+Buffer.swift.
final class WlSurface: Resource, WlSurfaceHandler {
    unowned let host: any SurfaceHost
    var pending = SurfaceState()
    /// State a synchronized subsurface committed, applied when its parent commits.
    var cached = SurfaceState()
    var hasCached = false

    // Current state.
    var texture: Image?
    /// The wl_shm or dmabuf buffer `texture` reads in place (`ShmTexture`, `DmabufMapping`), released when replaced.
    var shownBuffer: AttachedBuffer?
    var bufferWidth: Int32 = 0, bufferHeight: Int32 = 0
    /// Commits that applied a buffer (or a null one): roles that look at the pixels
    /// (a cursor being recognised) do so once per new buffer, not on every commit.
    private(set) var bufferCommits: UInt64 = 0
    private(set) var opaqueRegion: PixelRegion?
    /// Every pixel is opaque (an xrgb buffer, or an opaque region covering the
    /// surface), so it is drawn with SRC. Worked out on commit, not per frame.
    private(set) var isOpaque = false
    /// nil means "everywhere" (the default input region).
    private(set) var inputRegion: PixelRegion?
    private(set) var scale: Int32 = 1
    private(set) var transform: Int32 = 0
    private(set) var frameCallbacks: [WlCallback] = []
    /// Feedback for the applied content update, answered by the next repaint.
    private(set) var presentationFeedbacks: [WpPresentationFeedback] = []
    /// The surface's wp_viewport, and its current crop and scale.
    weak var viewport: WpViewport?
    /// The surface's wp_fractional_scale_v1 (at most one).
    weak var fractionalScale: WpFractionalScale?
    private(set) var viewportSource: ViewportSource?
    private(set) var viewportDestination: (width: Int32, height: Int32)?
    /// Paint order of this surface and its subsurfaces, bottom first. A child that went away
    /// stays as a gap (its `surfaceObject` nil, which every walk skips) until gaps are half of
    /// it (`unstack`).
    var stack: [StackEntry] = [.parent]
    /// Children unstacked since the stack was last compacted.
    var stackGaps = 0
    /// Outputs the client was told this surface is on.
    var enteredOutputs: [WlOutput] = []

    weak var role: SurfaceRole?
    /// The adaptive_pointer_surface_v1 of this surface; it adds region state at commit.
    weak var regionSource: AdaptivePointerSurface?
    /// Set when a role was ever assigned, even if the role object is gone.
    private(set) var roleName: String?
    /// Incremented every commit; lets tests and roles notice new content.
    private(set) var commits = 0

    /// Shown by a backend's plane, not composed (`SurfacePlanes`), as the last frame decided.
    var onPlane = false
    /// Buffer pixels changed since a frame last handed the surface to its plane.
    let planeDamage = PixelRegion()
    /// The surface's name for the planes, unique for the compositor's life (0 until the
    /// frames first consider it for a plane: `Frames.planeSurface`).
    var planeID: UInt64 = 0

    init?(host: any SurfaceHost, client: Client, version: UInt32, id: UInt32) {
        self.host = host
        super.init(client: client, version: version, id: id)
    }

    /// Size in surface-local (logical) coordinates: the viewport's destination, or its
    /// source's size, or the buffer's size after scale and transform.
    var width: Int32 {
        guard bufferWidth > 0 else { return 0 }
        return viewportDestination?.width ?? viewportSource.map { Int32($0.width) } ?? unviewportedWidth
    }
    var height: Int32 {
        guard bufferHeight > 0 else { return 0 }
        return viewportDestination?.height ?? viewportSource.map { Int32($0.height) } ?? unviewportedHeight
    }
    /// The buffer's size after scale and transform, which a viewport's source crops.
    var unviewportedWidth: Int32 { (transform & 1 == 1 ? bufferHeight : bufferWidth) / max(scale, 1) }
    var unviewportedHeight: Int32 { (transform & 1 == 1 ? bufferWidth : bufferHeight) / max(scale, 1) }
    var hasViewport: Bool { viewportSource != nil || viewportDestination != nil }
    var hasContent: Bool { texture != nil }

    /// Gives the surface a role; posts `error` and returns false if it cannot take it.
    ///
    /// A surface keeps its role for life (wl_surface: "a surface may only ever have
    /// one role"), and may be given **the same role again**: a cursor set after each
    /// wl_pointer.enter, a subsurface or xdg_surface made anew after the old one was
    /// destroyed. Only a different role, or a second live role object of the same
    /// kind, is an error. Roles without an object of their own (cursor, drag icon)
    /// pass their existing role object back in, which is always accepted.
    func assignRole(_ role: SurfaceRole, error: (resource: Resource, code: UInt32)) -> Bool {
        let id = objectID
        if let roleName, roleName != role.roleName {
            error.resource.postError(error.code, "wl_surface@\(id) already has the role \(roleName); it cannot become a \(role.roleName)")
            return false
        }
        if let current = self.role, current !== role {
            error.resource.postError(error.code, "wl_surface@\(id) already has a live \(role.roleName) object")
            return false
        }
        self.role = role
        roleName = role.roleName
        return true
    }

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        case .destroy: destroy()
        case .attach: attach(buffer: a.buffer(0), dx: a.int(1), dy: a.int(2))
        case .damage: SurfaceState.addDamage(.sanitized(x: a.int(0), y: a.int(1), width: a.int(2), height: a.int(3)), to: &pending.surfaceDamage)
        case .damageBuffer: SurfaceState.addDamage(.sanitized(x: a.int(0), y: a.int(1), width: a.int(2), height: a.int(3)), to: &pending.bufferDamage)
        case .frame:
            guard pending.frameCallbacks.count + cached.frameCallbacks.count + frameCallbacks.count < ClientLimits.frameCallbacksPerSurface else {
                return client.postLimitExceeded("wl_surface@\(objectID) has \(ClientLimits.frameCallbacksPerSurface) frame callbacks not yet answered, the limit")
            }
            if let callback = WlCallback(client: client, id: a.newID(0)) { pending.frameCallbacks.append(callback) }
        case .setOpaqueRegion: pending.opaque = .some(a.object(0, as: WlRegion.self)?.region.copy())
        case .setInputRegion: pending.input = .some(a.object(0, as: WlRegion.self)?.region.copy())
        case .commit: commit()
        case .setBufferTransform:
            let t = a.int(0)
            guard (0...7).contains(t) else {
                return postError(WL_SURFACE_ERROR_INVALID_TRANSFORM.rawValue, "buffer transform \(t) is not a wl_output.transform value")
            }
            pending.transform = t
        case .setBufferScale:
            let s = a.int(0)
            guard s >= 1 else { return postError(WL_SURFACE_ERROR_INVALID_SCALE.rawValue, "buffer scale \(s) is not positive") }
            pending.scale = s
        case .offset:
            pending.dx = pending.dx.clampedAdding(a.int(0))
            pending.dy = pending.dy.clampedAdding(a.int(1))
        }
    }

    private func attach(buffer: WlBuffer?, dx: Int32, dy: Int32) {
        if version >= 5 && (dx != 0 || dy != 0) {
            return postError(WL_SURFACE_ERROR_INVALID_OFFSET.rawValue, "attach with a non-zero offset; use wl_surface.offset since version 5")
        }
        if buffer != nil, let role, !role.surfaceWillAttach() { return }
        if let buffer {
            guard let attached = AttachedBuffer(buffer) else { return client.postNoMemory() }
            pending.buffer = .some(attached)
        } else {
            pending.buffer = .some(nil)
        }
        pending.dx = pending.dx.clampedAdding(dx)
        pending.dy = pending.dy.clampedAdding(dy)
    }

    /// Whether this surface's commits are cached for its parent (sync subsurface).
    var isSynchronized: Bool { (role as? WlSubsurface)?.effectivelySynchronized ?? false }

    private func commit() {
        if let role, !role.surfaceWillCommit() { return }
        regionSource?.surfaceCommitting(into: &pending)
        if isSynchronized {
            cached.merge(&pending)
            hasCached = true
            return
        }
        if hasCached {
            cached.merge(&pending)
            hasCached = false
            apply(&cached)
        } else {
            apply(&pending)
        }
    }

    /// A synchronized child applies its cached state when the parent commits.
    func parentCommitted() {
        guard hasCached else { return }
        hasCached = false
        apply(&cached)
    }

    private func apply(_ state: inout SurfaceState) {
        let oldBounds = (width, height)
        var damage: [PixelRect] = []
        if let s = state.scale { scale = s }
        if let t = state.transform { transform = t }
        if let attached = state.buffer {
            bufferCommits &+= 1
            if let attached, let buffer = attached.buffer {
                if !upload(buffer, attached) { state = SurfaceState(); return }
            } else {
                show(nil)
                texture = nil
                bufferWidth = 0; bufferHeight = 0
            }
        }
        if let v = state.viewportSource { viewportSource = v }
        if let v = state.viewportDestination { viewportDestination = v.map { (width: $0.0, height: $0.1) } }
        if let viewport, !viewport.validate(source: viewportSource, destination: viewportDestination.map { ($0.width, $0.height) },
                                            bufferWidth: unviewportedWidth, bufferHeight: unviewportedHeight) {
            state = SurfaceState(); return
        }
        if state.buffer != nil || state.viewportSource != nil || state.viewportDestination != nil {
            damage.append(PixelRect(x: 0, y: 0, width: max(width, oldBounds.0), height: max(height, oldBounds.1)))
        }
        if state.dx != 0 || state.dy != 0 { role.map { _ in host.surfaceMoved(self, dx: state.dx, dy: state.dy) } }
        damage += state.surfaceDamage
        for r in state.bufferDamage { damage.append(bufferRectToSurface(r)) }
        if let o = state.opaque { opaqueRegion = o }
        if state.opaque != nil || state.buffer != nil {
            isOpaque = texture?.format == .xrgb8888 || (opaqueRegion.map { r in
                let rest = PixelRegion(PixelRect(x: 0, y: 0, width: width, height: height))
                r.rects.forEach { rest.subtract($0) }
                return rest.isEmpty
            } ?? false)
        }
        let inputChanged = state.input != nil
        if let i = state.input { inputRegion = i }
        let stackChanged = state.stack.map { $0 != stack } ?? false
        if let s = state.stack { stack = s }
        if let r = state.regions { host.regionsCommitted(self, r) }
        frameCallbacks += state.frameCallbacks
        // An update not yet presented is superseded by this one.
        for feedback in presentationFeedbacks { feedback.discarded() }
        presentationFeedbacks = state.presentationFeedbacks
        commits += 1
        state = SurfaceState()

        var childMoved = false
        host.batchingSceneChanges {
            for case .child(let sub) in stack {
                childMoved = sub.applyPendingPosition() || childMoved
                sub.surfaceObject?.parentCommitted()
            }
        }
        // Clipped to the larger of the old and new size: a surface that shrank must repaint
        // where it no longer is, or its old pixels stay on screen.
        let extent = PixelRect(x: 0, y: 0, width: max(width, oldBounds.0), height: max(height, oldBounds.1))
        host.surfaceDamaged(self, damage.map { $0.intersection(extent) })
        role?.surfaceCommitted()
        if stackChanged { host.damageSurfaceTree(self) }
        // A new size, input region, stacking or subsurface position can
        // change what is under the pointer.
        if inputChanged || stackChanged || childMoved || (width, height) != oldBounds { host.sceneLayoutChanged() }
        if !frameCallbacks.isEmpty || !presentationFeedbacks.isEmpty { host.scheduleFrame() }
    }

    /// Point (x, y) surface-local is in the input region and on the surface.
    func acceptsInput(x: Double, y: Double) -> Bool {
        guard hasContent, x >= 0, y >= 0, x < Double(width), y < Double(height) else { return false }
        guard let inputRegion else { return true }
        return inputRegion.contains(x: Int32(x.rounded(.down)), y: Int32(y.rounded(.down)))
    }

    /// A wp_presentation_feedback for the next commit (counted with the frame callbacks
    /// against `ClientLimits.frameCallbacksPerSurface`).
    func addPresentationFeedback(_ feedback: WpPresentationFeedback) {
        guard pending.presentationFeedbacks.count + cached.presentationFeedbacks.count + presentationFeedbacks.count < ClientLimits.frameCallbacksPerSurface else {
            feedback.discarded()
            return client.postLimitExceeded("wl_surface@\(objectID) has \(ClientLimits.frameCallbacksPerSurface) presentation feedbacks not yet answered, the limit")
        }
        pending.presentationFeedbacks.append(feedback)
    }

    /// Hands out the feedback of the update the frame just composed shows.
    func takePresentationFeedbacks() -> [WpPresentationFeedback] {
        defer { presentationFeedbacks = [] }
        return presentationFeedbacks
    }

    /// Frame callbacks or presentation feedback wait for the next frame.
    var hasFrameRequests: Bool { !frameCallbacks.isEmpty || !presentationFeedbacks.isEmpty }

    /// Hands out this surface's frame callbacks, to be answered after a repaint.
    func takeFrameCallbacks() -> [WlCallback] {
        defer { frameCallbacks = [] }
        return frameCallbacks
    }

    override func destroyed() {
        show(nil)
        // Its viewport goes inert: further requests on it are no_surface errors.
        viewport = nil
        // Updates that will never be shown.
        for feedback in pending.presentationFeedbacks + cached.presentationFeedbacks + presentationFeedbacks { feedback.discarded() }
        pending.presentationFeedbacks = []; cached.presentationFeedbacks = []; presentationFeedbacks = []
        host.surfaceDestroyed(self)
    }
}

