import AdaptivePointerEngine

/// The adaptive_pointer_v1 regions of the scene: what each surface committed (surface-local),
/// and the same regions placed in global space, stacked by window and with the ones hidden
/// under another window left out. The seat pushes the placed set to its pointer
/// (`Seat.pushPointerWorld`); the pointer never walks the scene itself. The compositor
/// holds it beside the scene it reads (the scene does not hold it).
final class SceneRegions {
    /// Committed regions of one surface.
    private struct SurfaceRegions {
        weak var surface: WlSurface?
        let owner: SurfaceID
        var specs: [RegionSpec]
    }
    /// A region placed in global space, with what is needed to route its events.
    struct Placed {
        var region: Region
        var spec: RegionSpec
        var placement: SurfacePlacement
    }

    private unowned let scene: Scene
    private var committed: [ObjectIdentifier: SurfaceRegions] = [:]
    private var nextRegion: UInt64 = 1
    private var nextOwner: UInt64 = 1

    init(scene: Scene) { self.scene = scene }

    func allocateRegionID() -> RegionID {
        defer { nextRegion += 1 }
        return RegionID(nextRegion)
    }

    /// A surface committed new region state (already double-buffered by `WlSurface`).
    func committed(_ surface: WlSurface, _ specs: [RegionSpec]) {
        let key = ObjectIdentifier(surface)
        if var entry = committed[key], entry.surface === surface {
            entry.specs = specs
            committed[key] = entry
        } else {
            committed[key] = SurfaceRegions(surface: surface, owner: SurfaceID(nextOwner), specs: specs)
            nextOwner += 1
        }
        scene.changed(.content)
    }

    /// Every mapped surface's regions in global space, bottom window first.
    func placed() -> [RegionID: Placed] {
        var placed: [RegionID: Placed] = [:]
        var layer: Int32 = 0
        committed = committed.filter { $0.value.surface != nil }
        scene.forEachMappedSurface { surface, x, y in
            layer += 1
            guard let entry = committed[ObjectIdentifier(surface)], entry.surface === surface, !entry.specs.isEmpty else { return }
            let placement = SurfacePlacement(origin: Point(x: Double(x), y: Double(y)))
            let root = scene.rootSurface(surface)
            for spec in entry.specs {
                var region = placement.toGlobal(spec.localRegion(owner: entry.owner))
                // Higher surfaces win over lower ones whatever the clients' own orders.
                let order = Int64(min(max(spec.stackingOrder, -32768), 32767))
                region.stackingOrder = Int32(clamping: Int64(min(layer, 32767)) << 16 + order)
                // A region hidden under another window must not capture the pointer.
                let c = region.frame.center
                if let top = scene.surfaceAt(x: c.x, y: c.y), scene.rootSurface(top.surface) !== root { continue }
                placed[spec.id] = Placed(region: region, spec: spec, placement: placement)
            }
        }
        // Lodestone's own: the buttons of the title bars it draws, where the bar is on top.
        for window in scene.windows {
            guard let bar = window.titleBar else { continue }
            for entry in bar.regions() {
                let c = entry.region.frame.center
                if scene.titleBarAt(x: c.x, y: c.y) === window { placed[entry.spec.id] = entry }
            }
        }
        return placed
    }

    /// Whether the surface's tree (its toplevel and subsurfaces) declares regions.
    /// The writing area (`adaptive_pointer_region_v1.set_writing_area`) of `surface` whose
    /// committed frame holds the surface-local point; the highest stacking order wins.
    func writingArea(of surface: WlSurface, at local: Point<SurfaceLocal>) -> AdaptivePointerRegion? {
        guard let entry = committed[ObjectIdentifier(surface)], entry.surface === surface else { return nil }
        return entry.specs.filter { $0.draft.writingArea && $0.draft.frame.contains(local) && $0.object != nil }
            .max { $0.stackingOrder < $1.stackingOrder }?.object
    }

    func treeHasRegions(_ surface: WlSurface) -> Bool {
        let root = scene.rootSurface(surface)
        return committed.values.contains { entry in
            guard !entry.specs.isEmpty, let s = entry.surface else { return false }
            return scene.rootSurface(s) === root
        }
    }
}
