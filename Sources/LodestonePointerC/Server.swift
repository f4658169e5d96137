// liblodestone-pointer: the server side of adaptive-pointer-v1 on a host's wl_display (the
// lodestone_pointer_server_* calls). The protocol objects are in ServerManager.swift,
// ServerSurface.swift and ServerRegion.swift; their request checks are
// AdaptivePointerProtocol's `RegionDraft`, the same as Lodestone's.

import AdaptivePointerProtocol
import CLodestonePointer
import CWaylandProtocols
import CWaylandServer
import AdaptivePointerEngine
import WaylandServer

/// What a `struct lodestone_pointer_server *` points at: the global, the committed regions of
/// every surface that has an adaptive_pointer_surface_v1, and where each was placed.
final class ServerHandle {
    /// The versions served: 3 (2: the `upright` accessory flag; 3: drawing previews). A later
    /// version's requests reach `RegionDraft.apply`, which must handle them before this is raised.
    static let version: Int32 = 3
    /// The top bit of the engine ids the helper uses (the host keeps the ids below).
    static let idBit: UInt64 = 1 << 63

    let engine: EngineHandle
    let callbacks: lodestone_pointer_server_callbacks
    let data: UnsafeMutableRawPointer?
    private var global: WaylandGlobal?
    /// Per wl_surface resource that was ever given an extension, until the surface dies.
    private(set) var surfaces: [OpaquePointer: ServerSurfaceState] = [:]
    /// The regions in the engine, for routing its events.
    private var placed: [RegionID: (object: Weak<ServerRegion>, placement: SurfacePlacement)] = [:]
    private var nextRegion: UInt64 = 0
    private var nextSurface: UInt64 = 0

    init(display: OpaquePointer, engine: EngineHandle, callbacks: lodestone_pointer_server_callbacks,
         data: UnsafeMutableRawPointer?) throws {
        self.engine = engine
        self.callbacks = callbacks
        self.data = data
        global = try WaylandGlobal(display: display, interface: ServerManager.interface,
                                   version: Self.version) { [weak self] client, version, id in
            guard let self else { return }
            _ = ServerManager(server: self, client: client, version: version, id: id)
        }
    }

    func allocateRegionID() -> RegionID {
        nextRegion += 1
        return RegionID(Self.idBit | nextRegion)
    }

    /// The state of a surface, made on its first adaptive_pointer_surface_v1.
    func state(for surface: OpaquePointer) -> ServerSurfaceState {
        if let state = surfaces[surface] { return state }
        nextSurface += 1
        let state = ServerSurfaceState(server: self, surface: surface, id: SurfaceID(Self.idBit | nextSurface))
        surfaces[surface] = state
        return state
    }

    /// The wl_surface is being destroyed: its regions leave the engine now.
    func surfaceDestroyed(_ state: ServerSurfaceState) {
        unplace(state)
        state.close()
        surfaces[state.surface] = nil
    }

    // MARK: Placing regions in the engine

    /// Puts the surface's committed regions into the engine where the host says the surface is.
    func place(_ state: ServerSurfaceState) {
        unplace(state)
        guard !state.committed.isEmpty, let position = callbacks.surface_position else { return }
        var x = 0.0, y = 0.0, layer: Int32 = 0
        guard position(data, state.surface, &x, &y, &layer), x.isFinite, y.isFinite else { return }
        let placement = SurfacePlacement(origin: Point(x: x, y: y))
        for entry in state.committed {
            var region = placement.toGlobal(entry.draft.localRegion(id: entry.id, owner: state.id))
            // Higher layers win over lower ones whatever the clients' own orders (as Lodestone
            // stacks by window).
            let order = Int64(min(max(entry.draft.stackingOrder, -32768), 32767))
            region.stackingOrder = Int32(clamping: Int64(min(max(layer, -32768), 32767)) << 16 + order)
            // The draft passed the protocol's checks; the engine's own can only refuse what
            // they already refused, so a refusal here leaves the region out.
            guard (try? engine.engine.regions.upsert(region)) != nil else { continue }
            placed[entry.id] = (Weak(entry.object), placement)
        }
    }

    func unplace(_ state: ServerSurfaceState) {
        engine.engine.regions.removeAll(owner: state.id)
        for entry in state.committed { placed[entry.id] = nil }
    }

    /// Whether `surface` or a subsurface below it (as `subsurface_parent` tells) committed regions.
    func treeHasRegions(_ surface: OpaquePointer) -> Bool {
        for state in surfaces.values where !state.committed.isEmpty {
            var s: OpaquePointer? = state.surface
            var depth = 0
            while let current = s, depth < 64 {
                if current == surface { return true }
                s = callbacks.subsurface_parent.flatMap { $0(data, current) }
                depth += 1
            }
        }
        return false
    }

    func layoutChanged() {
        for state in surfaces.values { place(state) }
    }

    // MARK: Events

    /// Sends the engine's events for our regions; the host's stay queued, in order.
    func sendEvents() -> UInt32 {
        let h = engine
        // Unread events first, then the engine's new ones (the queue next_event reads).
        var queue = Array(h.events[h.nextEvent...])
        h.engine.drainEvents { queue.append($0) }
        var kept: [PointerEvent] = []
        var sent: UInt32 = 0
        for event in queue {
            let id: RegionID
            switch event {
            case .entered(let r, _), .left(let r, _), .bandBegan(let r, _, _), .bandChanged(let r, _, _), .bandEnded(let r, _, _): id = r
            case .lockedMotion: continue
            }
            guard id.rawValue & Self.idBit != 0 else { kept.append(event); continue }
            guard let entry = placed[id], let region = entry.object.value, !region.isInert else { continue }
            switch event {
            case .entered(_, let identifier): region.send { adaptive_pointer_region_v1_send_entered($0, identifier) }
            case .left(_, let identifier): region.send { adaptive_pointer_region_v1_send_left($0, identifier) }
            case .bandBegan(_, let identifier, let r): region.sendBand(identifier, 0, entry.placement.toLocal(r))
            case .bandChanged(_, let identifier, let r): region.sendBand(identifier, 1, entry.placement.toLocal(r))
            case .bandEnded(_, let identifier, let r): region.sendBand(identifier, 2, entry.placement.toLocal(r))
            case .lockedMotion: continue
            }
            sent += 1
        }
        h.events = kept
        h.nextEvent = 0
        return sent
    }

    /// The server goes: no global, no regions in the engine, every client object inert.
    func close() {
        global = nil
        for state in surfaces.values {
            unplace(state)
            state.close()
        }
        surfaces = [:]
        placed = [:]
    }

    static func from(_ pointer: OpaquePointer?) -> ServerHandle? {
        guard let pointer else { return nil }
        return Unmanaged<ServerHandle>.fromOpaque(UnsafeRawPointer(pointer)).takeUnretainedValue()
    }
}

// MARK: The C calls

@_cdecl("lodestone_pointer_server_create")
public func lodestone_pointer_server_create(_ display: OpaquePointer?, _ engine: OpaquePointer?,
                                            _ callbacks: UnsafePointer<lodestone_pointer_server_callbacks>?,
                                            _ data: UnsafeMutableRawPointer?) -> OpaquePointer? {
    guard let display, let engine = EngineHandle.from(engine), let callbacks, callbacks.pointee.size >= 4 else { return nil }
    let c = readSized(callbacks, size: callbacks.pointee.size, defaults: lodestone_pointer_server_callbacks())
    guard c.surface_position != nil else { return nil }
    // A display pointer of the host's libwayland; the same library as ours (one per process).
    guard let server = try? ServerHandle(display: display, engine: engine, callbacks: c, data: data) else { return nil }
    return OpaquePointer(Unmanaged.passRetained(server).toOpaque())
}

@_cdecl("lodestone_pointer_server_destroy")
public func lodestone_pointer_server_destroy(_ server: OpaquePointer?) {
    guard let server else { return }
    let handle = Unmanaged<ServerHandle>.fromOpaque(UnsafeRawPointer(server))
    handle.takeUnretainedValue().close()
    handle.release()
}

@_cdecl("lodestone_pointer_server_surface_committed")
public func lodestone_pointer_server_surface_committed(_ server: OpaquePointer?, _ surface: OpaquePointer?) {
    guard let s = ServerHandle.from(server), let surface, let state = s.surfaces[surface] else { return }
    state.commit()
    s.place(state)
}

@_cdecl("lodestone_pointer_server_layout_changed")
public func lodestone_pointer_server_layout_changed(_ server: OpaquePointer?) {
    ServerHandle.from(server)?.layoutChanged()
}

@_cdecl("lodestone_pointer_server_send_events")
public func lodestone_pointer_server_send_events(_ server: OpaquePointer?) -> UInt32 {
    ServerHandle.from(server)?.sendEvents() ?? 0
}
