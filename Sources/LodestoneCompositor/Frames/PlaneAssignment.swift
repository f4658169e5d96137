import AdaptivePointerEngine
import Rendering
import WaylandServer

/// Which client surfaces a backend's planes show (nested: subsurfaces of Lodestone's window
/// in the parent), frame by frame, like DRM plane assignment: the visible surfaces bottom
/// first, each a candidate when its buffer is one a plane can take, `SurfacePlanePlanner`'s
/// rule deciding around what must be composed (title bars, the lock's fill, the pointer). A
/// surface that moves onto or off a plane damages the composed frame there, so nothing
/// flickers at the switch. `Frames` asks it once per composed frame (`assign`).
final class PlaneAssignment {
    private unowned let output: Output
    private unowned let scene: Scene
    private unowned let clock: FrameClock

    init(output: Output, scene: Scene, clock: FrameClock) {
        self.output = output
        self.scene = scene
        self.clock = clock
    }

    /// A backend's planes for client surfaces, nil when it has none: then every surface is
    /// composed, as before.
    var planes: SurfacePlanes? {
        didSet {
            guard planes !== oldValue else { return }
            // Whatever planes showed is composed again, from the next frame on.
            for s in surfaces { s.onPlane = false }
            surfaces = []
            output.damageAll()
            clock.schedule()
        }
    }
    /// Something a plane's choice depends on changed with nothing damaged (a parent took a
    /// client's dmabuf): the next frame decides again.
    private(set) var isStale = false

    func mayChange() {
        isStale = true
        clock.schedule()
    }

    /// The surfaces on planes as the last frame left them, bottom first.
    private(set) var surfaces: [WlSurface] = []
    private let planner = SurfacePlanePlanner()
    /// The frame's layers and candidate surfaces, kept between frames (no allocation once grown).
    private var layers: [SurfacePlanePlanner.Layer] = []
    private var candidates: [(surface: WlSurface, plane: PlaneSurface?, pixels: PixelRect)] = []
    private var nextPlaneID: UInt64 = 0

    /// Decides which visible surfaces `planes` show this frame, damages the composed frame
    /// where a surface moves onto or off a plane, and returns the planes to hand over, each
    /// with what changed since it was last handed over. `preview` is drawn by an effect
    /// (never a plane); `cursor` and `overlay` (output pixels) are composed above.
    func assign(_ planes: SurfacePlanes, preview: WlSurface?, cursor: RenderElement?, overlay: PixelRect?,
                damage: PixelRegion) -> [PlaneSurface] {
        defer { isStale = false }
        layers.removeAll(keepingCapacity: true)
        candidates.removeAll(keepingCapacity: true)
        func drawn(_ what: Scene.Drawn) {
            switch what {
            case .titleBar(let bar): layers.append(.composed(output.scale.covering(bar.frame)))
            case .lockFill(let bounds): layers.append(.composed(output.scale.covering(bounds)))
            }
        }
        func surface(_ s: WlSurface, _ x: Int32, _ y: Int32) {
            let whole = PixelRect(x: x, y: y, width: s.width, height: s.height)
            let visible = whole.intersection(output.bounds)
            guard !visible.isEmpty else { return }
            let pixels = output.scale.covering(visible)
            // An effect draws its preview surface itself (moved, scaled): never a plane.
            let plane = s === preview ? nil : planeSurface(s, whole: whole, visible: visible)
            layers.append(.candidate(pixels, accepted: plane.map(planes.accepts) ?? false))
            candidates.append((s, plane, pixels))
        }
        scene.forEachPainted(drawn: drawn, surface: surface)
        if let cursor, case .texture(let t) = cursor { layers.append(.composed(t.bounds)) }
        if let overlay { layers.append(.composed(output.scale.covering(overlay))) }
        let assignment = planner.assign(layers)

        var shown: [PlaneSurface] = []
        var onPlanes: [WlSurface] = []
        var candidate = 0
        for (index, layer) in layers.enumerated() {
            guard case .candidate = layer else { continue }
            let (s, plane, pixels) = candidates[candidate]
            candidate += 1
            guard assignment[index], var plane else {
                // Composed again: the frame draws it where the plane showed it.
                if s.onPlane {
                    s.onPlane = false
                    damage.add(pixels)
                }
                continue
            }
            if !s.onPlane {
                // Onto a plane: the frame no longer draws it, and the plane shows all of it.
                s.onPlane = true
                damage.add(pixels)
                s.planeDamage.clear()
                s.planeDamage.add(PixelRect(x: 0, y: 0, width: s.bufferWidth, height: s.bufferHeight))
            }
            plane.damage = s.planeDamage.rects
            s.planeDamage.clear()
            let callbacks = s.takeFrameCallbacks(), feedbacks = s.takePresentationFeedbacks()
            if !callbacks.isEmpty || !feedbacks.isEmpty {
                plane.update = PlaneUpdate(callbacks: callbacks, feedbacks: feedbacks, outputs: s.enteredOutputs, clock: clock)
            }
            shown.append(plane)
            onPlanes.append(s)
        }
        // Surfaces planes showed that are not visible any more (unmapped, gone, off the
        // output): their planes are hidden by `present`, and the frame has nothing to draw.
        for s in surfaces where s.onPlane && !onPlanes.contains(where: { $0 === s }) { s.onPlane = false }
        surfaces = onPlanes
        return shown
    }

    /// A surface is gone: its plane goes with it.
    func surfaceDestroyed(_ s: WlSurface) {
        guard s.planeID != 0 else { return }
        if s.onPlane {
            s.onPlane = false
            surfaces.removeAll { $0 === s }
        }
        planes?.forget(s.planeID)
    }

    /// `s` as a plane would show it, its `whole` rect cropped to `visible` (global logical);
    /// nil when its buffer is none a plane can take (a single-pixel buffer, a dmabuf the
    /// parent did not take).
    private func planeSurface(_ s: WlSurface, whole: PixelRect, visible: PixelRect) -> PlaneSurface? {
        guard let attached = s.shownBuffer?.buffer else { return nil }
        let buffer: PlaneBuffer
        if let shm = attached.shm {
            buffer = .shm(shm)
        } else if let dmabuf = attached.object(DmabufBuffer.self), dmabuf.parentTook == true, let imported = dmabuf.parentBuffer {
            buffer = .dmabuf(imported: imported, buffer: dmabuf)
        } else {
            return nil
        }
        if s.planeID == 0 {
            nextPlaneID &+= 1
            s.planeID = nextPlaneID
        }
        // The part of the buffer shown, in the surface coordinates before any viewport:
        // the client's own crop, and the output's edge.
        var source: (x: Double, y: Double, width: Double, height: Double)?
        if s.hasViewport || visible != whole {
            let all = s.viewportSource ?? ViewportSource(x: 0, y: 0, width: Double(s.unviewportedWidth), height: Double(s.unviewportedHeight))
            let fx = all.width / Double(whole.width), fy = all.height / Double(whole.height)
            source = (all.x + Double(visible.x - whole.x) * fx, all.y + Double(visible.y - whole.y) * fy,
                      Double(visible.width) * fx, Double(visible.height) * fy)
        }
        return PlaneSurface(id: s.planeID, buffer: buffer, bufferCommit: s.bufferCommits, rect: visible,
                            bufferScale: s.scale, bufferTransform: s.transform, source: source,
                            sourceBounds: (s.unviewportedWidth, s.unviewportedHeight), isOpaque: s.isOpaque)
    }
}
