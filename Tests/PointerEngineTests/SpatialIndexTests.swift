import XCTest
@testable import AdaptivePointerEngine

final class SpatialIndexTests: XCTestCase {
    func randomRegion(_ id: UInt64, _ rng: inout SplitMix64) -> Region {
        let big = rng.int(0...40) == 0
        let w = big ? rng.double(200...1400) : rng.double(0...80)
        let h = big ? rng.double(200...900) : rng.double(0...60)
        let areas: [HitArea] = [.bezelled, .bezelless, .padding(rng.double(0...30)),
                                .explicit(rect(rng.double(-50...1300), rng.double(-50...850), rng.double(0...90), rng.double(0...90)))]
        return Region(id: RegionID(id), owner: SurfaceID(UInt64(rng.int(1...5))), frame: rect(rng.double(-100...1300), rng.double(-100...850), w, h),
                      hitArea: areas[rng.int(0...3)], stackingOrder: Int32(rng.int(0...3)))
    }

    func assertIndexAgreesWithScan(_ store: RegionStore, _ rng: inout SplitMix64, queries: Int,
                                   file: StaticString = #filePath, line: UInt = #line) {
        var hits = 0
        for _ in 0..<queries {
            let p = point(rng.double(-150...1450), rng.double(-150...950))
            let indexed = store.hitTest(p), scanned = store.linearHitTest(p)
            XCTAssertEqual(indexed, scanned, "at \(p)", file: file, line: line)
            XCTAssertEqual(store.hitTest(p, framesOnly: true), store.linearHitTest(p, framesOnly: true), file: file, line: line)
            if indexed != nil { hits += 1 }
        }
        XCTAssertGreaterThan(hits, queries / 10, "layout too sparse to test anything", file: file, line: line)
    }

    func testIndexAgreesWithLinearScanOnRandomLayouts() throws {
        for seed in 1...5 as ClosedRange<UInt64> {
            var rng = SplitMix64(seed: seed)
            var store = PointerEngine(outputBounds: output).regions
            for id in 0..<1500 { try store.upsert(randomRegion(UInt64(id), &rng)) }
            assertIndexAgreesWithScan(store, &rng, queries: 3000)
        }
    }

    func testIndexStaysInAgreementThroughIncrementalUpdates() throws {
        // Cell size 4 pushes big regions past the coarse level into the oversized list and
        // makes the cell pool grow and compact; 32 is the default.
        for cellSize in [32.0, 4.0] { try incrementalUpdates(cellSize: cellSize) }
    }

    func incrementalUpdates(cellSize: Double) throws {
        var rng = SplitMix64(seed: 42)
        var store = PointerEngine(outputBounds: output, gridCellSize: cellSize).regions
        for id in 0..<800 { try store.upsert(randomRegion(UInt64(id), &rng)) }
        for round in 0..<20 {
            for _ in 0..<100 {
                let id = UInt64(rng.int(0...1000))
                switch rng.int(0...3) {
                case 0: store.remove(id: RegionID(id))
                default: try store.upsert(randomRegion(id, &rng)) // insert or move/resize
                }
            }
            if round % 5 == 4 { store.removeAll(owner: SurfaceID(UInt64(rng.int(1...5)))) }
            assertIndexAgreesWithScan(store, &rng, queries: 500)
        }
        for id in 0...1000 { store.remove(id: RegionID(UInt64(id))) }
        XCTAssertEqual(store.count, 0)
        XCTAssertEqual(store.indexedEntryCount, 0, "removed regions left entries in the index")
    }

    func testHeavyChurnInOneSpotKeepsTheIndexConsistent() throws {
        // Hundreds of regions over the same cells make blocks grow repeatedly, so the pool
        // is compacted several times along the way.
        var rng = SplitMix64(seed: 11)
        var store = PointerEngine(outputBounds: output, gridCellSize: 4).regions
        for round in 0..<6 {
            for id in 0..<600 {
                try store.upsert(region(UInt64(id), rect(rng.double(300...340), rng.double(300...340), 30, 30), hitArea: .padding(0)))
            }
            for id in stride(from: round % 2, to: 600, by: 2) { store.remove(id: RegionID(UInt64(id))) }
            var hits = 0
            for _ in 0..<300 {
                let p = point(rng.double(290...380), rng.double(290...380))
                XCTAssertEqual(store.hitTest(p), store.linearHitTest(p))
                if store.hitTest(p) != nil { hits += 1 }
            }
            XCTAssertGreaterThan(hits, 100)
        }
    }

    func testPointsExactlyOnARegionsEdgesAreFound() throws {
        var rng = SplitMix64(seed: 12)
        var store = PointerEngine(outputBounds: output).regions
        for id in 0..<2000 {
            let frame = rect(rng.double(0...1200), rng.double(0...700), rng.double(0.001...50), rng.double(0.001...50))
            try store.upsert(region(1, frame, hitArea: .padding(0)))
            XCTAssertEqual(store.hitTest(frame.origin), RegionID(1), "min edge of \(frame), #\(id)")
            XCTAssertEqual(store.hitTest(point(frame.maxX.nextDown, frame.maxY.nextDown)), RegionID(1), "max edge of \(frame)")
            XCTAssertNil(store.hitTest(point(frame.maxX, frame.midY)), "max edge is exclusive")
        }
    }

    func testIndexIsRebuiltForNewOutputBounds() throws {
        var engine = PointerEngine(outputBounds: output)
        var rng = SplitMix64(seed: 9)
        for id in 0..<300 { try engine.regions.upsert(randomRegion(UInt64(id), &rng)) }
        engine.setOutputBounds(rect(-1000, 0, 4000, 1200))
        assertIndexAgreesWithScan(engine.regions, &rng, queries: 2000)
    }

    func testRemovingAllOfASurfacesRegionsLeavesOthers() throws {
        var store = PointerEngine(outputBounds: output).regions
        try store.upsert(Region(id: RegionID(1), owner: SurfaceID(1), frame: rect(0, 0, 10, 10)))
        try store.upsert(Region(id: RegionID(2), owner: SurfaceID(2), frame: rect(100, 0, 10, 10)))
        try store.upsert(Region(id: RegionID(3), owner: SurfaceID(1), frame: rect(200, 0, 10, 10)))
        XCTAssertEqual(store.removeAll(owner: SurfaceID(1)), 2)
        XCTAssertEqual(store.count, 1)
        XCTAssertNil(store.hitTest(point(5, 5)))
        XCTAssertEqual(store.hitTest(point(105, 5)), RegionID(2))
    }

    func testHigherStackingOrderWinsAndNeighboursSplitTheirOverlap() throws {
        var store = PointerEngine(outputBounds: output).regions
        try store.upsert(region(1, rect(100, 100, 40, 30)))
        try store.upsert(region(2, rect(150, 100, 40, 30)))     // 10 pt gap, hit regions overlap
        XCTAssertEqual(store.hitTest(point(144, 110)), RegionID(1))
        XCTAssertEqual(store.hitTest(point(146, 110)), RegionID(2))
        try store.upsert(region(3, rect(0, 0, 600, 600)) { $0.stackingOrder = 1 })
        XCTAssertEqual(store.hitTest(point(120, 110)), RegionID(3))
    }

    func testRegionsOutsideTheOutputAreStillFound() throws {
        var store = PointerEngine(outputBounds: output).regions
        try store.upsert(region(1, rect(-500, -500, 20, 20)))
        try store.upsert(region(2, rect(5000, 300, 20, 20)))
        XCTAssertEqual(store.hitTest(point(-490, -490)), RegionID(1))
        XCTAssertEqual(store.hitTest(point(5010, 310)), RegionID(2))
        XCTAssertNil(store.hitTest(point(.nan, 0)))
    }
}
