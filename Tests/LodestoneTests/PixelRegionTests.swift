import Rendering
import XCTest

/// A wl_region's requests applied in batches (`PixelRegion.apply`) make the same region as
/// applying them one by one: order matters between an add and a subtract.
final class PixelRegionTests: XCTestCase {
    /// SplitMix64: seeded, so a failure replays.
    private struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    private func oneByOne(_ start: [PixelRect], _ edits: [PixelRegion.Edit]) -> PixelRegion {
        let region = PixelRegion()
        start.forEach(region.add)
        for e in edits { e.adds ? region.add(e.rect) : region.subtract(e.rect) }
        return region
    }

    func testBatchedEditsMakeTheRegionOneByOneEditsMake() {
        var random = Generator(state: 17)
        for round in 0..<300 {
            // Small coordinates, so rectangles overlap, touch and cut each other often; some
            // empty ones (a width or height of 0), and runs of one kind as well as alternation.
            func rect() -> PixelRect {
                PixelRect(x: .random(in: -4...40, using: &random), y: .random(in: -4...40, using: &random),
                          width: .random(in: 0...24, using: &random), height: .random(in: 0...24, using: &random))
            }
            let start = (0..<Int.random(in: 0...6, using: &random)).map { _ in rect() }
            let alternating = round % 3 == 0
            let edits = (0..<Int.random(in: 1...80, using: &random)).map { i in
                PixelRegion.Edit(rect(), adds: alternating ? i % 2 == 0 : Bool.random(using: &random))
            }
            let batched = PixelRegion()
            start.forEach(batched.add)
            batched.apply(edits)
            let expected = oneByOne(start, edits)
            XCTAssertEqual(batched.rects, expected.rects, "round \(round): \(start) then \(edits.map { "\($0.adds ? "+" : "-")\($0.rect)" })")
        }
    }

    func testAddsAloneAndSubtractsAloneAreBatchedToo() {
        let region = PixelRegion(PixelRect(x: 0, y: 0, width: 100, height: 100))
        region.apply((0..<10).map { .init(PixelRect(x: Int32($0) * 10, y: 0, width: 5, height: 100), adds: false) })
        XCTAssertEqual(region.rectangleCount, 10)
        XCTAssertEqual(region.area, 5_000)
        region.apply((0..<10).map { .init(PixelRect(x: Int32($0) * 10 + 5, y: 100, width: 5, height: 10), adds: true) })
        XCTAssertEqual(region.area, 5_500)
        region.apply([])
        XCTAssertEqual(region.area, 5_500)
    }
}
