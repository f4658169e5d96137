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

/// `wl_surface`: a rectangle of pixels with double-buffered state.
final class WlSurface: Resource, ProtocolObject {
    static var interface: UnsafePointer<wl_interface> { Interface.surface }
    unowned let compositor: Compositor
    var pending = SurfaceState()
    /// State a synchronized subsurface committed, applied when its parent commits.
    var cached = SurfaceState()
    var hasCached = false

    // Current state.
    private(set) var texture: Image?
    /// The wl_shm buffer `texture` reads in place (`ShmTexture`), released when replaced.
    private var shownBuffer: AttachedBuffer?
    private(set) var bufferWidth: Int32 = 0, bufferHeight: Int32 = 0
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

    enum Request: UInt32 {
        case destroy, attach, damage, frame, setOpaqueRegion, setInputRegion, commit
        case setBufferTransform, setBufferScale, damageBuffer, offset
    }

    init?(compositor: Compositor, client: Client, version: UInt32, id: UInt32) {
        self.compositor = compositor
        super.init(client: client, interface: Self.interface, version: version, id: id)
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
    private var unviewportedWidth: Int32 { (transform & 1 == 1 ? bufferHeight : bufferWidth) / max(scale, 1) }
    private var unviewportedHeight: Int32 { (transform & 1 == 1 ? bufferWidth : bufferHeight) / max(scale, 1) }
    private var hasViewport: Bool { viewportSource != nil || viewportDestination != nil }
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

    override func dispatch(opcode: UInt32, arguments a: Arguments) {
        switch Request(rawValue: opcode) {
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
        case nil: break
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
        if state.dx != 0 || state.dy != 0 { role.map { _ in compositor.surfaceMoved(self, dx: state.dx, dy: state.dy) } }
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
        if let r = state.regions { compositor.scene.regions.committed(self, r) }
        frameCallbacks += state.frameCallbacks
        // An update not yet presented is superseded by this one.
        for feedback in presentationFeedbacks { feedback.discarded() }
        presentationFeedbacks = state.presentationFeedbacks
        commits += 1
        state = SurfaceState()

        var childMoved = false
        compositor.scene.batchingChanges {
            for case .child(let sub) in stack {
                childMoved = sub.applyPendingPosition() || childMoved
                sub.surfaceObject?.parentCommitted()
            }
        }
        // Clipped to the larger of the old and new size: a surface that shrank must repaint
        // where it no longer is, or its old pixels stay on screen.
        let extent = PixelRect(x: 0, y: 0, width: max(width, oldBounds.0), height: max(height, oldBounds.1))
        compositor.surfaceDamaged(self, damage.map { $0.intersection(extent) })
        role?.surfaceCommitted()
        if stackChanged { compositor.damageSurfaceTree(self) }
        // A new size, input region, stacking or subsurface position can
        // change what is under the pointer.
        if inputChanged || stackChanged || childMoved || (width, height) != oldBounds { compositor.scene.changed(.layout) }
        if !frameCallbacks.isEmpty || !presentationFeedbacks.isEmpty { compositor.scheduleFrame() }
    }

    /// Makes the buffer the surface's texture: a wl_shm buffer is read in place (`ShmTexture`)
    /// and kept until another replaces it; a single-pixel buffer is copied and released at
    /// once. Returns false after posting an error.
    private func upload(_ buffer: WlBuffer, _ attached: AttachedBuffer) -> Bool {
        if let single = buffer.object(SinglePixelBuffer.self) {
            // One pixel, one colour: a 1×1 texture, which the renderer stretches to the
            // surface (pixman pads it: a solid fill). Its size obeys the buffer scale too.
            if scale != 1 {
                postError(WL_SURFACE_ERROR_INVALID_SIZE.rawValue, "a 1×1 single-pixel buffer is not a multiple of the buffer scale \(scale)")
                return false
            }
            show(nil)
            texture = single.image()
            bufferWidth = 1; bufferHeight = 1
            attached.release()
            return true
        }
        guard let shm = buffer.shm else {
            // wl_shm and single-pixel buffers are all that exist here; anything else is not ours to read.
            postError(WL_SURFACE_ERROR_INVALID_SIZE.rawValue, "buffer is not a wl_shm or single-pixel buffer")
            return false
        }
        let w = shm.width, h = shm.height
        // libwayland's wl_shm accepts any stride >= width; a 32-bit format needs
        // 4 bytes a pixel, or reading the buffer runs past the client's rows.
        if Int(shm.stride) < Int(w) * 4 {
            buffer.postError(WL_SHM_ERROR_INVALID_STRIDE.rawValue, "wl_buffer stride \(shm.stride) is smaller than width \(w) × 4 bytes")
            return false
        }
        if w % scale != 0 || h % scale != 0 {
            postError(WL_SURFACE_ERROR_INVALID_SIZE.rawValue, "buffer size \(w)×\(h) is not a multiple of the buffer scale \(scale)")
            return false
        }
        let format: Image.Format = shm.format == WL_SHM_FORMAT_XRGB8888.rawValue ? .xrgb8888 : .argb8888
        guard let image = ShmTexture.image(showing: attached, shm: shm, format: format) else {
            buffer.postError(WL_SHM_ERROR_INVALID_STRIDE.rawValue, "wl_buffer \(w)×\(h), stride \(shm.stride) cannot be read")
            return false
        }
        show(attached)
        texture = image
        bufferWidth = w; bufferHeight = h
        return true
    }

    /// `attached` (or nothing) becomes the buffer the texture reads; the one shown before is
    /// released, unless it is the same wl_buffer committed again.
    private func show(_ attached: AttachedBuffer?) {
        if let old = shownBuffer, old !== attached {
            old.willForget = nil
            if old.buffer != attached?.buffer { old.release() }
        }
        shownBuffer = attached
        attached?.willForget = { [unowned self] in self.shownBufferDestroyed() }
    }

    /// The client destroyed the buffer on screen before it was released: what it showed
    /// stays (as the protocol has it for a released buffer), as a copy of our own.
    private func shownBufferDestroyed() {
        shownBuffer = nil
        guard let shown = texture, shown.access != nil else { return }
        // The client chose the size: without memory for a copy the surface shows nothing
        // rather than the compositor ending.
        guard let copy = Image(allocating: shown.width, shown.height, format: shown.format) else {
            texture = nil
            return
        }
        shown.reading { copy.copy(from: shown, rect: PixelRect(x: 0, y: 0, width: shown.width, height: shown.height)) }
        texture = copy
    }

    /// Surface-local rect covering a buffer rect (whole surface when rotated).
    private func bufferRectToSurface(_ r: PixelRect) -> PixelRect {
        guard transform == 0, !hasViewport else { return PixelRect(x: 0, y: 0, width: width, height: height) }
        // Wide: a client's scale may be as large as Int32.max.
        let s = Int64(max(scale, 1))
        return .spanning(x0: Int64(r.x) / s, y0: Int64(r.y) / s, x1: (Int64(r.maxX) + s - 1) / s, y1: (Int64(r.maxY) + s - 1) / s)
    }

    private func surfaceRectToBuffer(_ r: PixelRect) -> PixelRect {
        guard transform == 0, !hasViewport else { return PixelRect(x: 0, y: 0, width: bufferWidth, height: bufferHeight) }
        return r.scaled(by: max(scale, 1))
    }

    /// Maps surface-local coordinates to buffer pixels (wl_output.transform
    /// semantics: the buffer holds content already turned by `transform`).
    /// A viewport first maps the surface onto its source rectangle (scale, then offset).
    var surfaceToBuffer: Affine {
        let toBuffer = Affine.scale(Double(scale), Double(scale))
            .concatenating(Self.bufferTransform(transform, width: Double(unviewportedWidth), height: Double(unviewportedHeight)))
        guard hasViewport, width > 0, height > 0 else { return toBuffer }
        let source = viewportSource ?? ViewportSource(x: 0, y: 0, width: Double(unviewportedWidth), height: Double(unviewportedHeight))
        return toBuffer
            .concatenating(.translation(source.x, source.y))
            .concatenating(.scale(source.width / Double(width), source.height / Double(height)))
    }

    /// Surface-local to unscaled buffer coordinates, for a surface of size w×h.
    static func bufferTransform(_ transform: Int32, width w: Double, height h: Double) -> Affine {
        // x' = a x + c y + tx, y' = b x + d y + ty
        switch transform {
        case 1: Affine(a: 0, b: -1, c: 1, d: 0, tx: 0, ty: w)    // 90
        case 2: Affine(a: -1, b: 0, c: 0, d: -1, tx: w, ty: h)   // 180
        case 3: Affine(a: 0, b: 1, c: -1, d: 0, tx: h, ty: 0)    // 270
        case 4: Affine(a: -1, b: 0, c: 0, d: 1, tx: w, ty: 0)    // flipped
        case 5: Affine(a: 0, b: 1, c: 1, d: 0, tx: 0, ty: 0)     // flipped 90
        case 6: Affine(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: h)    // flipped 180
        case 7: Affine(a: 0, b: -1, c: -1, d: 0, tx: h, ty: w)   // flipped 270
        default: .identity
        }
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
        compositor.surfaceDestroyed(self)
    }
}

