import XCTest
@testable import AdaptivePointerEngine

final class BandAndAnnotationTests: XCTestCase {
    let grid = region(1, rect(100, 100, 600, 400), effect: .none, hitArea: .padding(0)) { $0.bandSelection = true }

    func testBandSelectionReportsTheRectangleAndBecomesThePointer() {
        var h = Harness(regions: [grid], at: point(200, 200))
        h.run(0.1)
        h.events = []
        h.send(.button(.pressed))
        h.move(to: point(202, 201))
        XCTAssertEqual(h.events, [], "a click with a little jitter is not a band")
        h.move(to: point(300, 260))
        h.move(to: point(350, 300))
        h.run(1.0 / 60)
        let band = rect(200, 200, 150, 100)
        XCTAssertEqual(h.events, [.bandBegan(RegionID(1), identifier: 1, rect: rect(200, 200, 100, 60)),
                                  .bandChanged(RegionID(1), identifier: 1, rect: band)])
        XCTAssertEqual(h.last.bandRect, band)
        XCTAssertEqual(h.last.pointer.shape.rect, band, "the pointer is the selection rectangle")
        XCTAssertTrue(h.last.damage.contains(band))
        h.move(to: point(900, 700))
        h.send(.button(.released))
        // Clipped to the region; the release is outside it, away from any neighbour, so the
        // region is left at once.
        XCTAssertEqual(Array(h.events.suffix(2)), [.bandEnded(RegionID(1), identifier: 1, rect: rect(200, 200, 500, 300)),
                                                   .left(RegionID(1), identifier: 1)])
        h.run(1)
        XCTAssertNil(h.last.bandRect)
        XCTAssertEqual(h.last.pointer.shape.rect.width, 19, accuracy: 1e-6)
    }

    func testPressOutsideABandRegionStartsNoBand() {
        var h = Harness(regions: [region(1, rect(100, 100, 50, 50))], at: point(120, 120))
        h.send(.button(.pressed))
        h.move(to: point(300, 300))
        h.send(.button(.released))
        XCTAssertFalse(h.events.contains { if case .bandBegan = $0 { return true } else { return false } })
    }

    func testAnnotationAppearsBesideThePointerOverItsRegion() {
        let graph = region(1, rect(100, 100, 600, 400), effect: .none) { $0.annotation = "x 12, y 4" }
        var h = Harness(regions: [graph], at: point(300, 300))
        h.run(1)
        let note = h.last.annotation!
        XCTAssertEqual(note.text, "x 12, y 4")
        XCTAssertEqual(note.alpha, 1, accuracy: 1e-9)
        XCTAssertGreaterThan(note.frame.minX, h.last.pointer.bounds.maxX)
        XCTAssertTrue(h.last.bounds.contains(note.frame))
        h.move(to: point(1000, 700))
        h.run(2)
        XCTAssertNil(h.last.annotation)
    }

    func testAnnotationStaysOnScreenAtTheEdge() {
        let graph = region(1, rect(0, 0, 1280, 800), effect: .none) { $0.annotation = "1024 × 768" }
        var h = Harness(regions: [graph], at: point(1275, 5))
        h.run(1)
        let note = h.last.annotation!
        XCTAssertTrue(output.contains(note.frame))
        XCTAssertLessThan(note.frame.maxX, h.last.pointer.bounds.minX, "flipped to the left")
    }
}
