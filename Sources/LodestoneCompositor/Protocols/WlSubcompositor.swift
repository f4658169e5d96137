import CWaylandServer
import WaylandServer

/// `wl_subcompositor`: turns surfaces into subsurfaces of others.
final class WlSubcompositor: Resource, WlSubcompositorHandler {
    static let version: Int32 = 1
    unowned let host: any SurfaceHost

    init?(host: any SurfaceHost, client: Client, version: UInt32, id: UInt32) {
        self.host = host
        super.init(client: client, version: version, id: id)
    }

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        case .destroy: destroy()
        case .getSubsurface: getSubsurface(id: a.newID(0), surface: a.object(1, as: WlSurface.self), parent: a.object(2, as: WlSurface.self))
        }
    }

    private func getSubsurface(id: UInt32, surface: WlSurface?, parent: WlSurface?) {
        let badSurface = WL_SUBCOMPOSITOR_ERROR_BAD_SURFACE.rawValue
        guard let surface, let parent else { return postError(badSurface, "get_subsurface needs a surface and a parent") }
        guard surface !== parent else { return postError(badSurface, "a surface cannot be its own subsurface parent") }
        // The parent must not be a descendant of the surface (no cycles).
        var ancestor: WlSurface? = parent
        var parentDepth = 0
        while let a = ancestor {
            if a === surface { return postError(badSurface, "wl_surface@\(parent.objectID) is a descendant of the new subsurface") }
            ancestor = (a.role as? WlSubsurface)?.parent
            if ancestor != nil { parentDepth += 1 }
        }
        let depth = parentDepth + 1 + WlSubsurface.height(of: surface)
        guard depth <= WlSubsurface.maxDepth else {
            return postError(badSurface, "subsurface depth limit: nesting would reach \(depth) levels, more than \(WlSubsurface.maxDepth)")
        }
        guard let sub = WlSubsurface(host: host, client: client, id: id, surface: surface, parent: parent) else { return }
        guard surface.assignRole(sub, error: (self, badSurface)) else { return }
        parent.stack.append(.child(sub))
        // A new subsurface's place takes effect with the parent's next commit,
        // but appending now keeps the default (top of the parent) stable. A restacking
        // already pending (place_above/below) gets it on top too: that order replaces the
        // current one at the commit, and the new child was left out of it (a child made
        // after a sibling's place_below was never drawn).
        parent.pending.stack?.append(.child(sub))
        if parent.hasCached { parent.cached.stack?.append(.child(sub)) }
    }
}

/// `wl_subsurface`: a surface drawn relative to its parent.
final class WlSubsurface: Resource, WlSubsurfaceHandler, SurfaceRole {
    unowned let host: any SurfaceHost
    /// nil once the surface is gone (the subsurface is then inert).
    private(set) weak var surfaceObject: WlSurface?
    private(set) weak var parent: WlSurface?
    /// Position relative to the parent, current and pending (applied on parent commit).
    private(set) var x: Int32 = 0, y: Int32 = 0
    private var pendingPosition: (Int32, Int32)?
    var synchronized = true
    let roleName = "wl_subsurface"

    init?(host: any SurfaceHost, client: Client, id: UInt32, surface: WlSurface, parent: WlSurface) {
        self.host = host
        surfaceObject = surface
        self.parent = parent
        super.init(client: client, version: 1, id: id)
    }

    /// The deepest a subsurface may be nested below its root surface. Toolkits nest a
    /// few levels; the cap bounds every walk of a surface tree (painting, hit tests,
    /// a parent's commit applying its children's cached state), some of them recursive,
    /// whatever a client sends. Past it, get_subsurface is a bad_surface error.
    static let maxDepth = 32

    /// How many levels of subsurfaces hang below `surface` (0: none).
    static func height(of surface: WlSurface) -> Int {
        var deepest = 0
        var pending: [(WlSurface, Int)] = [(surface, 0)]
        while let (s, level) = pending.popLast() {
            deepest = max(deepest, level)
            for case .child(let sub) in s.stack { if let child = sub.surfaceObject { pending.append((child, level + 1)) } }
        }
        return deepest
    }

    /// Synchronized if it, or any ancestor subsurface, is.
    var effectivelySynchronized: Bool {
        var sub: WlSubsurface? = self
        while let s = sub {
            if s.synchronized { return true }
            sub = s.parent?.role as? WlSubsurface
        }
        return false
    }

    func handle(_ request: Request, _ a: Arguments) {
        if request == .destroy { return destroy() }
        guard let surface = surfaceObject, let parent else { return }  // inert
        switch request {
        case .setPosition: pendingPosition = (a.int(0), a.int(1))
        case .placeAbove, .placeBelow:
            guard let sibling = a.object(0, as: WlSurface.self) else { return }
            place(relativeTo: sibling, above: request == .placeAbove, in: parent)
        case .setSync: synchronized = true
        case .setDesync:
            synchronized = false
            if !effectivelySynchronized { surface.parentCommitted() }
        default: break
        }
    }

    private func place(relativeTo sibling: WlSurface, above: Bool, in parent: WlSurface) {
        var stack = parent.pending.stack ?? parent.stack
        let target: StackEntry
        if sibling === parent {
            target = .parent
        } else if let sub = sibling.role as? WlSubsurface, sub.parent === parent {
            target = .child(sub)
        } else {
            return postError(WL_SUBSURFACE_ERROR_BAD_SURFACE.rawValue, "place_\(above ? "above" : "below"): the sibling is neither the parent nor a sibling subsurface")
        }
        guard target != .child(self) else {
            return postError(WL_SUBSURFACE_ERROR_BAD_SURFACE.rawValue, "a subsurface cannot be placed relative to itself")
        }
        stack.removeAll { $0 == .child(self) }
        guard let index = stack.firstIndex(of: target) else { return }
        stack.insert(.child(self), at: above ? index + 1 : index)
        parent.pending.stack = stack
    }

    /// The parent committed: the pending position takes effect. Returns whether it moved.
    @discardableResult
    func applyPendingPosition() -> Bool {
        guard let (nx, ny) = pendingPosition else { return false }
        pendingPosition = nil
        guard (nx, ny) != (x, y), let surface = surfaceObject else { return false }
        host.damageSurfaceTree(surface)
        x = nx; y = ny
        host.damageSurfaceTree(surface)
        return true
    }

    func surfaceCommitted() { surfaceObject.map(host.surfaceLayoutChanged) }

    override func destroyed() {
        if let parent {
            // A surface destroyed first was damaged then (Compositor.surfaceDestroyed).
            if let surface = surfaceObject { host.damageSurfaceTree(surface) }
            parent.unstack(self)
        }
        surfaceObject = nil
        parent = nil
    }

    /// Leaves the parent's stack: it is no longer drawn, hit or committed with its parent.
    /// Also when its surface is destroyed first (the subsurface is then inert).
    fileprivate func leaveStack() -> Bool {
        guard surfaceObject != nil else { return false }
        surfaceObject = nil
        return true
    }
}

extension WlSurface {
    /// A child subsurface went away (its wl_subsurface or its wl_surface destroyed). Its entry
    /// stays as a gap that every walk of the stack skips; once gaps are half of the stack it is
    /// compacted in one pass. Removing each entry at once was a pass over every sibling per
    /// destroy: 2,000 subsurfaces torn down cost time in the square of their count.
    func unstack(_ child: WlSubsurface) {
        guard child.leaveStack() else { return }
        stackGaps += 1
        guard stackGaps * 2 >= stack.count else { return }
        func isGap(_ entry: StackEntry) -> Bool {
            if case .child(let sub) = entry { sub.surfaceObject == nil } else { false }
        }
        stack.removeAll(where: isGap)
        pending.stack?.removeAll(where: isGap)
        stackGaps = 0
    }
}
