import CWaylandClient
import CWaylandProtocols
import Glibc
import LodestoneCompositor
import Logging
import Rendering
import WaylandClient

/// Nested, client surfaces shown as subsurfaces of Lodestone's window in the parent (issue
/// 37; wlroots' Wayland backend does the same with its output layers, and ChromeOS's
/// sommelier forwards buffers likewise): Lodestone composes none of their pixels, the parent
/// shows the client's own buffers (`ParentBuffers`), and the parent's frame callbacks,
/// presentation feedback and buffer releases reach the client as the parent sends them.
///
/// Each plane is a synchronized subsurface of the window surface: what a frame changes on
/// them (buffers, positions, crops, stacking, a plane hidden) is applied with the window's
/// commit of that frame (`Presenter`), so a surface that moves between a plane and the
/// composed frame never shows twice or not at all. Planes take no input (an empty input
/// region): the parent's pointer stays on the window, whose coordinates are the output's.
///
/// Each plane's rect is the visible part of its surface in the window's coordinates (the
/// nested output's logical ones), cropped with `wp_viewport` where the output's edge cuts it.
final class ParentPlanes: SurfacePlanes {
    /// One plane: its parent surface and what was last sent on it.
    private final class Slot {
        let surface: Proxy
        let subsurface: Proxy
        var viewport: Proxy?
        /// Showing a buffer (nil: hidden, a null buffer attached).
        var buffer: ParentBuffers.Buffer?
        var bufferCommit: UInt64 = 0
        var position: (x: Int32, y: Int32)?
        var scale: Int32 = 1, transform: Int32 = 0
        /// Source and destination last set on the viewport (nil: unset).
        var source: (x: Int32, y: Int32, width: Int32, height: Int32)?
        var destination: (width: Int32, height: Int32)?
        var opaque: (width: Int32, height: Int32)?
        /// Updates waiting for the parent: each frame callback with the update it answers.
        var waiting: [(callback: Proxy, update: PlaneUpdate)] = []
        var feedbacks: [Proxy] = []

        init(surface: Proxy, subsurface: Proxy) {
            self.surface = surface
            self.subsurface = subsurface
        }

        deinit {
            viewport?.destroy { wp_viewport_destroy($0) }
            subsurface.destroy { wl_subsurface_destroy($0) }
            surface.destroy { wl_surface_destroy($0) }
        }
    }

    private unowned let window: ParentWindow
    private let globals: ParentGlobals
    private let subcompositor: Proxy
    private let buffers: ParentBuffers
    private let log: Logger
    /// Whether the window can take a frame now (`Presenter.canCommit`).
    private let windowCanCommit: () -> Bool
    private var slots: [UInt64: Slot] = [:]
    /// The shown planes' ids bottom first, as last stacked in the parent.
    private var order: [UInt64] = []
    /// The last frame changed the planes: the window must commit to apply it.
    private(set) var changed = false

    /// Counters for the log at exit and the tests: planes made, and commits of their surfaces.
    private(set) var planesMade = 0
    private(set) var planeCommits = 0

    init(window: ParentWindow, globals: ParentGlobals, subcompositor: Proxy, windowCanCommit: @escaping () -> Bool, logger: Logger) {
        self.window = window
        self.globals = globals
        self.subcompositor = subcompositor
        self.windowCanCommit = windowCanCommit
        buffers = ParentBuffers(shm: globals.shm, logger: logger)
        log = logger
    }

    var canPresent: Bool { windowCanCommit() }

    func accepts(_ plane: PlaneSurface) -> Bool {
        // A crop or a client's viewport needs the parent's wp_viewporter.
        if plane.source != nil, globals.viewporter == nil { return false }
        return buffers.canShare(plane.buffer)
    }

    /// The window committed the frame: what it applied is no longer pending.
    func windowCommitted() { changed = false }

    func present(_ planes: [PlaneSurface]) {
        let shown = Set(planes.map(\.id))
        // Hidden with this frame (a null buffer, applied with the window's commit); a plane
        // whose surface is gone goes for good.
        for (id, slot) in slots where !shown.contains(id) {
            if slot.buffer != nil {
                slot.surface.request { wl_surface_attach($0, nil, 0, 0) }
                slot.surface.request { wl_surface_commit($0) }
                slot.buffer = nil
                slot.position = nil
                planeCommits += 1
                changed = true
            }
        }
        for plane in planes {
            guard let slot = slots[plane.id] ?? makeSlot(plane.id) else { continue }
            update(slot, with: plane)
        }
        let ids = planes.map(\.id)
        if ids != order {
            // Bottom first, each just above the one before; the first above the window itself.
            var below: Proxy = window.surface
            for id in ids {
                guard let slot = slots[id] else { continue }
                slot.subsurface.request(below) { wl_subsurface_place_above($0, $1) }
                below = slot.surface
            }
            order = ids
            changed = true
        }
        buffers.collect()
    }

    func forget(_ id: UInt64) {
        // Its subsurface goes at once, as the client's surface did.
        guard slots.removeValue(forKey: id) != nil else { return }
        order.removeAll { $0 == id }
    }

    // MARK: One plane

    private func makeSlot(_ id: UInt64) -> Slot? {
        let connection = globals.connection
        guard let surface = try? Proxy(creating: { globals.compositor.request { wl_compositor_create_surface($0) } }, on: connection, what: "wl_compositor.create_surface") else { return nil }
        guard let subsurface = try? Proxy(creating: { subcompositor.request(surface, window.surface) { wl_subcompositor_get_subsurface($0, $1, $2) } },
                                          on: connection, what: "wl_subcompositor.get_subsurface") else {
            surface.destroy { wl_surface_destroy($0) }
            return nil
        }
        // No input: the parent's pointer, touches and pens stay on the window's surface.
        if let region = try? Proxy(creating: { globals.compositor.request { wl_compositor_create_region($0) } }, on: connection, what: "wl_compositor.create_region") {
            surface.request(region) { wl_surface_set_input_region($0, $1) }
            region.destroy { wl_region_destroy($0) }
        }
        let slot = Slot(surface: surface, subsurface: subsurface)
        slots[id] = slot
        planesMade += 1
        return slot
    }

    private func update(_ slot: Slot, with plane: PlaneSurface) {
        let surface = slot.surface
        var commit = false
        let rect = plane.rect
        if slot.position.map({ $0 != (rect.x, rect.y) }) ?? true {
            // Applied with the window's commit, as everything else here.
            slot.subsurface.request { wl_subsurface_set_position($0, rect.x, rect.y) }
            slot.position = (rect.x, rect.y)
            changed = true
        }
        let attach = slot.buffer == nil || slot.bufferCommit != plane.bufferCommit
        if attach {
            guard let buffer = buffers.parentBuffer(for: plane.buffer) else {
                log.error("cannot give the parent a client's buffer: the surface waits for its next one")
                return
            }
            surface.request(buffer.proxy) { wl_surface_attach($0, $1, 0, 0) }
            buffer.attached()
            slot.buffer = buffer
            slot.bufferCommit = plane.bufferCommit
            commit = true
        }
        // A plane shown again comes with all of its buffer damaged (`PlaneAssignment.assign`).
        for r in plane.damage { surface.request { wl_surface_damage_buffer($0, r.x, r.y, r.width, r.height) } }
        commit = commit || !plane.damage.isEmpty
        if slot.scale != plane.bufferScale {
            surface.request { wl_surface_set_buffer_scale($0, plane.bufferScale) }
            slot.scale = plane.bufferScale
            commit = true
        }
        if slot.transform != plane.bufferTransform {
            surface.request { wl_surface_set_buffer_transform($0, plane.bufferTransform) }
            slot.transform = plane.bufferTransform
            commit = true
        }
        commit = updateViewport(slot, plane) || commit
        // As opaque as Lodestone composes it: an opaque surface is drawn without blending.
        let opaque = plane.isOpaque ? (rect.width, rect.height) : nil
        if slot.opaque.map({ $0 != opaque ?? (-1, -1) }) ?? (opaque != nil) {
            if let opaque, let region = try? Proxy(creating: { globals.compositor.request { wl_compositor_create_region($0) } },
                                                   on: globals.connection, what: "wl_compositor.create_region") {
                region.request { wl_region_add($0, 0, 0, opaque.0, opaque.1) }
                surface.request(region) { wl_surface_set_opaque_region($0, $1) }
                region.destroy { wl_region_destroy($0) }
            } else {
                surface.request { wl_surface_set_opaque_region($0, nil) }
            }
            slot.opaque = opaque
            commit = true
        }
        if let update = plane.update {
            ask(slot, for: update)
            commit = true
        }
        guard commit else { return }
        surface.request { wl_surface_commit($0) }
        planeCommits += 1
        changed = true
    }

    /// The crop and size: a source in the parent's wl_fixed (1/256), kept inside the buffer
    /// (a source past its edge is the parent's out_of_buffer error, which would end the
    /// connection), and the visible size as destination. True when anything was sent.
    private func updateViewport(_ slot: Slot, _ plane: PlaneSurface) -> Bool {
        var source: (x: Int32, y: Int32, width: Int32, height: Int32)?
        var destination: (width: Int32, height: Int32)?
        if let s = plane.source {
            let boundsX = Int64(plane.sourceBounds.width) * 256, boundsY = Int64(plane.sourceBounds.height) * 256
            let x = min(max(0, Int64((s.x * 256).rounded())), boundsX - 1), y = min(max(0, Int64((s.y * 256).rounded())), boundsY - 1)
            let w = max(1, min(Int64((s.width * 256).rounded()), boundsX - x)), h = max(1, min(Int64((s.height * 256).rounded()), boundsY - y))
            source = (Int32(x), Int32(y), Int32(w), Int32(h))
            destination = (plane.rect.width, plane.rect.height)
        }
        let sourceChanged = slot.source.map { s in source.map { $0 != s } ?? true } ?? (source != nil)
        let destinationChanged = slot.destination.map { d in destination.map { $0 != d } ?? true } ?? (destination != nil)
        guard sourceChanged || destinationChanged else { return false }
        if slot.viewport == nil, source != nil, let viewporter = globals.viewporter {
            slot.viewport = try? Proxy(creating: { viewporter.request(slot.surface) { wp_viewporter_get_viewport($0, $1) } },
                                       on: globals.connection, what: "wp_viewporter.get_viewport")
        }
        guard let viewport = slot.viewport else { return false }
        let s = source ?? (-256, -256, -256, -256), d = destination ?? (-1, -1)
        viewport.request { wp_viewport_set_source($0, s.x, s.y, s.width, s.height) }
        viewport.request { wp_viewport_set_destination($0, d.width, d.height) }
        slot.source = source
        slot.destination = destination
        return true
    }

    /// The parent's frame callback (and presentation feedback, when the client asked and the
    /// parent's clock is ours) for this commit of the plane: the client's are answered by them.
    private func ask(_ slot: Slot, for update: PlaneUpdate) {
        let connection = globals.connection
        guard let callback = try? Proxy(creating: { slot.surface.request { wl_surface_frame($0) } }, on: connection, what: "wl_surface.frame") else {
            return  // dropping the update answers it at once
        }
        // The parent's presentation feedback, when the client asked and the parent's clock is
        // ours; otherwise presented when the parent's frame callback comes.
        var feedback: Proxy?
        if update.wantsPresentation, let presentation = globals.presentation, globals.presentationClock == UInt32(CLOCK_MONOTONIC) {
            feedback = try? Proxy(creating: { presentation.request(slot.surface) { wp_presentation_feedback($0, $1) } },
                                  on: connection, what: "wp_presentation.feedback")
        }
        let forwardsPresentation = feedback != nil
        callback.handleEvents(CallbackEvent.self) { [unowned slot, unowned callback] event in
            switch event {
            case .done:
                guard let index = slot.waiting.firstIndex(where: { $0.callback === callback }) else { return }
                // This runs inside the callback's own event: keep the proxy until it returns.
                let (proxy, update) = slot.waiting.remove(at: index)
                withExtendedLifetime(proxy) {
                    update.frameDone()
                    if !forwardsPresentation { update.presentedNow() }
                }
            }
        }
        slot.waiting.append((callback, update))
        guard let feedback else { return }
        feedback.handleEvents(PresentationFeedbackEvent.self) { [unowned slot, unowned feedback] event in
            switch event {
            case .syncOutput: return
            case .presented(let seconds, let nanoseconds, let refresh, let sequence, let flags):
                update.presented(time: Timestamp(seconds: seconds, nanoseconds: nanoseconds), refreshNanoseconds: refresh, sequence: sequence, flags: flags)
            case .discarded:
                update.discarded()
            }
            // The parent destroyed it: the proxy goes once this event returns.
            if let i = slot.feedbacks.firstIndex(where: { $0 === feedback }) { withExtendedLifetime(slot.feedbacks.remove(at: i)) {} }
        }
        slot.feedbacks.append(feedback)
    }
}
