import Foundation
import LodestoneTesting
import LodestoneTour
import XCTest

/// `make demo`'s scripted tour, as a test: lodestone-demo in a headless
/// Lodestone (adaptive pointer, manual clock), the pointer driven through
/// every element. Each step asserts the presented pointer (shape, effect,
/// targeted region, accessories, annotation) and a few pixels of its capture,
/// so the demo cannot silently break.
final class DemoTourTests: XCTestCase {
    func testScriptedTourThroughEveryElement() throws {
        let directory = NSTemporaryDirectory() + "lodestone-tour-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let results = try DemoTour(directory: directory).run()

        XCTAssertEqual(results.count, DemoTour.script.count, "every step ran")
        for r in results {
            XCTAssertTrue(r.failures.isEmpty, "step \(r.index) \(r.step.name) (\(r.step.title)): \(r.failures.joined(separator: "; ")); pointer: \(r.pointer)")
            XCTAssertTrue(FileManager.default.fileExists(atPath: r.path), "one PNG per step")
        }
        // Every kind of behaviour was visited.
        let pointers = results.map(\.pointer)
        for effect in [PresentedPointer.Effect.highlight, .lift, .hover] {
            XCTAssertTrue(pointers.contains { $0.effect == effect }, "the tour shows \(effect)")
        }
        for kind in [PresentedPointer.Kind.circle, .verticalBeam, .roundedRect, .band] {
            XCTAssertTrue(pointers.contains { $0.kind == kind }, "the tour shows the \(kind) shape")
        }
        XCTAssertTrue(pointers.contains { !$0.annotation.isEmpty }, "an annotation")
        XCTAssertTrue(pointers.contains { $0.accessories.contains { $0.shape == .circleSlash } }, "circle.slash")

        let sheet = directory + "/contact-sheet.png"
        try ContactSheet.write(results.map { ($0.path, $0.step.title) }, to: sheet)
        let composed = try Screenshot(png: sheet)
        XCTAssertGreaterThan(composed.width, 1000)
        XCTAssertGreaterThan(composed.distinctColors(x: 12, y: 12, width: 320, height: 200), 50, "thumbnails, not a blank sheet")
    }

    /// The demo's elements do what they show: after the tour the demo's own
    /// state changed where the pointer acted (checked through its pixels).
    func testTourStepsChangeTheDemo() throws {
        let directory = NSTemporaryDirectory() + "lodestone-tour-short-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // A shorter script: toggle bold, then look again without the pointer on it.
        let steps = [
            TourStep("rest", "Pointer on plain content", expect: [.kind(.circle), .untargeted]) { try $0.move(640, 338) },
            TourStep("bold", "Bold on", expect: [.target(102)]) { d in try d.move(424, 30); try d.click() },
            TourStep("away", "Bold stays on", expect: [
                .untargeted,
                .pixel(407, 15, "the bold button's accent fill", isBluish),
                .area(878, 108, 340, 22, differsIn: 200, "the text area's first line now bold"),
            ]) { try $0.glide(640, 338, steps: 6) },
        ]
        let results = try DemoTour(directory: directory, steps: steps).run()
        for r in results {
            XCTAssertTrue(r.failures.isEmpty, "step \(r.step.name): \(r.failures.joined(separator: "; ")); pointer: \(r.pointer)")
        }
    }
}
