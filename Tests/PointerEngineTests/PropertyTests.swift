import XCTest
@testable import AdaptivePointerEngine

/// Random layouts and random input, replayed from a seed: invariants that must hold for any run.
final class PropertyTests: XCTestCase {
    static func randomRegion(_ id: UInt64, _ rng: inout SplitMix64) -> Region {
        let effects: [PointerEffect] = [.automatic, .none, .highlight, .lift,
                                        .hover(tint: .overlay, shadow: true, scale: true), .hover(tint: .underlay, shadow: false, scale: false)]
        let square = Path<PointerLocal>.rect(Rect(x: -10, y: -8, width: 20, height: 16))
        let shapes: [PointerShape] = [.effectDefault, .effectDefault, .circle, .roundedRect(radius: 4),
                                      .verticalBeam(length: rng.double(5...150)), .horizontalBeam(length: 30), .hidden, .path(square)]
        let glyphs: [AccessoryShape] = [.arrow, .plus, .minus, .circleSlash, .checkmark]
        let accessories = (0..<rng.int(0...4)).map { _ in
            PointerAccessory(glyphs[rng.int(0...4)], position: AccessoryPosition(angle: rng.double(-7...7), offset: rng.double(0...6)),
                             rotatesWithMotion: rng.bool())
        }
        var r = Region(id: RegionID(id), owner: SurfaceID(UInt64(rng.int(1...3))), identifier: UInt32(id),
                       frame: rect(rng.double(-50...1250), rng.double(-50...780), rng.double(0...300), rng.double(0...200)),
                       hitArea: [.bezelled, .bezelless, .padding(rng.double(0...20))][rng.int(0...2)],
                       cornerRadius: rng.double(0...20), stackingOrder: Int32(rng.int(0...2)),
                       style: PointerStyle(effect: effects[rng.int(0...5)], shape: shapes[rng.int(0...7)],
                                           accessories: try! AccessorySet(accessories)),
                       background: rng.bool() ? .opaque : .transparent,
                       magnetism: [.automatic, .on, .off][rng.int(0...2)])
        r.latchingAxes = Axes(rawValue: UInt8(rng.int(0...3)))
        r.constrainedAxes = rng.int(0...5) == 0 ? Axes(rawValue: UInt8(rng.int(1...3))) : []
        r.annotation = rng.int(0...4) == 0 ? "w \(rng.int(0...999))" : nil
        r.bandSelection = rng.int(0...4) == 0
        return r
    }

    /// Drives an engine with `count` random inputs and frames; returns presentations and events.
    static func randomRun(seed: UInt64, count: Int, settings: PointerSettings = PointerSettings(),
                          check: (PointerPresentation, PointerPresentation?) -> Void = { _, _ in })
        -> ([PointerPresentation], [PointerEvent]) {
        var rng = SplitMix64(seed: seed)
        var engine = PointerEngine(outputBounds: output, settings: settings,
                                   initialPosition: point(rng.double(0...1280), rng.double(0...800)))
        for id in 0..<UInt64(rng.int(5...60)) { try! engine.regions.upsert(randomRegion(id, &rng)) }
        var now = Instant.zero
        var presentations: [PointerPresentation] = []
        var events: [PointerEvent] = []
        var previous: PointerPresentation?
        var device = engine.devicePosition
        for _ in 0..<count {
            now = now.advanced(by: [0, 0.001, 1.0 / 120, 1.0 / 60, 0.05, 0.3][rng.int(0...5)])
            switch rng.int(0...19) {
            case 0...9:
                device = device + Vector(dx: rng.double(-40...40), dy: rng.double(-40...40))
                if rng.int(0...30) == 0 { device = point(rng.double(-500...1800), rng.double(-500...1300)) }
                engine.handle(.motion(to: device), at: now)
            case 10: engine.handle(.relativeMotion(Vector(dx: rng.double(-30...30), dy: rng.double(-30...30))), at: now)
            case 11: engine.handle(.button(.pressed), at: now)
            case 12: engine.handle(.button(.released), at: now)
            case 13: engine.handle(.keyTyped, at: now)
            case 14: engine.handle(.device(rng.bool() ? .mouse : .trackpad), at: now)
            case 15: engine.handle(.pointerLock(rng.int(0...3) == 0), at: now)
            case 16: try! engine.regions.upsert(randomRegion(UInt64(rng.int(0...70)), &rng))
            case 17: engine.regions.remove(id: RegionID(UInt64(rng.int(0...70))))
            default: break
            }
            if rng.int(0...3) != 0 {
                let p = engine.step(to: now)
                check(p, previous)
                previous = p
                presentations.append(p)
            }
            events += engine.drainEvents()
        }
        return (presentations, events)
    }

    static func allFinite(_ p: PointerPresentation) -> Bool {
        var ok = p.logicalPosition.isFinite && p.devicePosition.isFinite && p.pointer.shape.isFinite
            && p.pointer.scale.isFinite && p.pointer.alpha.isFinite && p.pointer.pathAlpha.isFinite
            && p.bounds.isFinite && p.damage.isFinite
        for e in [p.contentEffect, p.exitingContentEffect].compactMap({ $0 }) {
            ok = ok && e.scale.isFinite && e.translation.isFinite && e.progress.isFinite && e.bounds.isFinite
                && (e.specular.map { $0.center.isFinite && $0.opacity.isFinite } ?? true)
                && (e.shadow.map { $0.opacity.isFinite } ?? true) && (e.platter?.isFinite ?? true)
        }
        for a in p.accessories {
            ok = ok && a.center.isFinite && a.rotation.isFinite && a.alpha.isFinite && a.scale.isFinite && a.morphProgress.isFinite
        }
        if let n = p.annotation { ok = ok && n.frame.isFinite && n.alpha.isFinite }
        return ok
    }

    func testPresentationIsAlwaysFiniteAndTheLogicalPositionStaysOnTheOutput() {
        for seed in 1...40 as ClosedRange<UInt64> {
            var frames = 0
            _ = Self.randomRun(seed: seed, count: 800) { p, _ in
                frames += 1
                XCTAssertTrue(Self.allFinite(p), "seed \(seed): non-finite presentation \(p)")
                XCTAssertTrue(output.contains(p.logicalPosition), "seed \(seed): logical \(p.logicalPosition) off the output")
                XCTAssertTrue(output.contains(p.devicePosition), "seed \(seed)")
                XCTAssertTrue((0...1).contains(p.pointer.alpha), "seed \(seed)")
            }
            XCTAssertGreaterThan(frames, 100)
        }
    }

    func testDamageCoversBothTheOldAndTheNewPointerBounds() {
        for seed in 100...140 as ClosedRange<UInt64> {
            _ = Self.randomRun(seed: seed, count: 800) { p, previous in
                XCTAssertTrue(p.damage.contains(p.pointer.bounds), "seed \(seed)")
                XCTAssertTrue(p.damage.contains(p.bounds), "seed \(seed)")
                for a in p.accessories { XCTAssertTrue(p.damage.contains(a.bounds), "seed \(seed)") }
                if let e = p.contentEffect { XCTAssertTrue(p.damage.contains(e.transformedFrame), "seed \(seed)") }
                if let old = previous {
                    XCTAssertTrue(p.damage.contains(old.pointer.bounds), "seed \(seed): old pointer not repainted")
                    XCTAssertTrue(p.damage.contains(old.bounds), "seed \(seed)")
                }
            }
        }
    }

    func testSameInputsAndClockGiveIdenticalOutput() {
        for seed in 200...215 as ClosedRange<UInt64> {
            let a = Self.randomRun(seed: seed, count: 600)
            let b = Self.randomRun(seed: seed, count: 600)
            XCTAssertEqual(a.0, b.0, "seed \(seed)")
            XCTAssertEqual(a.1, b.1, "seed \(seed)")
            XCTAssertFalse(a.1.isEmpty)
            let c = Self.randomRun(seed: seed + 1000, count: 600)
            XCTAssertNotEqual(a.0, c.0, "different input must be able to give different output")
        }
    }

    func testInvariantsHoldWithEveryAccessibilitySetting() {
        var settings = PointerSettings(sizeMultiplier: 3, increaseContrast: true, reduceMotion: true, magnetismEnabled: false)
        settings.showsBorder = true
        for seed in 300...310 as ClosedRange<UInt64> {
            _ = Self.randomRun(seed: seed, count: 600, settings: settings) { p, previous in
                XCTAssertTrue(Self.allFinite(p))
                XCTAssertTrue(output.contains(p.logicalPosition))
                if let old = previous { XCTAssertTrue(p.damage.contains(old.bounds)) }
            }
        }
    }

    func testEnteredAndLeftEventsAlternatePerRegion() {
        for seed in 400...420 as ClosedRange<UInt64> {
            let (_, events) = Self.randomRun(seed: seed, count: 1500)
            var inside: RegionID?
            for e in events {
                switch e {
                case .entered(let id, _):
                    XCTAssertNil(inside, "seed \(seed): entered \(id) while inside \(String(describing: inside))")
                    inside = id
                case .left(let id, _):
                    XCTAssertEqual(inside, id, "seed \(seed)")
                    inside = nil
                default: break
                }
            }
        }
    }
}
