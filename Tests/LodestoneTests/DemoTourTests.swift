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

    /// A caption longer than its thumbnail wraps onto a second line within it, and one too
    /// long for two ends with an ellipsis: captions never run under the next thumbnail's
    /// (the tour's steps 25 to 30 did).
    func testContactSheetCaptionsStayWithinTheirThumbnail() {
        let width = 320.0
        for step in DemoTour.script {
            let caption = "30  " + step.title
            let lines = ContactSheet.captionLines(caption, width: width)
            XCTAssertLessThanOrEqual(lines.count, 2, caption)
            for line in lines { XCTAssertLessThanOrEqual(ContactSheet.captionWidth(line), width, "'\(line)' is wider than its thumbnail") }
            if !(lines.last?.hasSuffix("…") ?? false) { XCTAssertEqual(lines.joined(separator: " "), caption, "nothing lost") }
        }
        let long = String(repeating: "a long caption ", count: 20)
        let lines = ContactSheet.captionLines(long, width: width)
        XCTAssertEqual(lines.count, 2)
        XCTAssertTrue(lines[1].hasSuffix("…"), lines[1])
        XCTAssertTrue(DemoTour.script.contains { ContactSheet.captionWidth("30  " + $0.title) > width }, "some step's caption needs two lines")
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

    /// The drop panel's chip is a real drag (wl_data_device.start_drag with an icon): dropped
    /// on the folder, the demo's own source hears the drop performed and its target reads the
    /// bytes; dropped on the locked folder, it is refused and the source cancelled.
    func testTheChipIsARealDragTakenByTheFolderAndRefusedWhenLocked() throws {
        let directory = NSTemporaryDirectory() + "lodestone-tour-drag-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let drag: @Sendable (TourDriver) throws -> Void = { d in
            try d.move(526, 408)
            try d.press()
            try d.glide(720, 440, steps: 10)
        }
        let steps = [
            TourStep("drag", "Dragging onto the folder", expect: [.target(602), .accessories([.plus])], act: drag),
            TourStep("drop", "Dropped", expect: [
                .pixel(470, 400, "the chip back in place") { distance($0, 0x0a64d6) < 60 },
            ]) { try $0.release() },
            TourStep("lock", "Locked", expect: [.target(603)]) { d in try d.glide(532, 462, steps: 6); try d.click() },
            TourStep("drag-locked", "Dragging onto the locked folder", expect: [.target(602), .accessories([.circleSlash])], act: drag),
            TourStep("refused", "Refused", expect: [
                .pixel(470, 400, "the chip back in place") { distance($0, 0x0a64d6) < 60 },
            ]) { try $0.release() },
        ]
        let results = try DemoTour(directory: directory, steps: steps, traceDemo: true).run()
        for r in results {
            XCTAssertTrue(r.failures.isEmpty, "step \(r.step.name): \(r.failures.joined(separator: "; ")); pointer: \(r.pointer)")
        }
        let log = textOfFile(directory + "/lodestone-demo.log")
        let drags = log.split(separator: "\n").filter { $0.hasPrefix("drag") || $0.hasPrefix("drop") }.map(String.init)
        XCTAssertEqual(drags, [
            // Pressed on the chip, outside the folder: nothing takes it yet.
            "drag started", "drag enter text/plain;charset=utf-8,text/plain", "drag target none", "drag target text/plain;charset=utf-8",
            "drag drop", "drag dnd_drop_performed", "drop received text/plain;charset=utf-8 photo.jpg", "drag dnd_finished",
            "drag started", "drag enter text/plain;charset=utf-8,text/plain", "drag target none", "drag leave", "drag cancelled",
        ], log)
    }

    /// The folder takes a drag from another app: drag_client.py's text, dropped on it, is
    /// read by the demo, and the other app hears its drop finished.
    func testTheFolderTakesADragFromAnotherApp() throws {
        let directory = NSTemporaryDirectory() + "lodestone-tour-foreign-drag-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let log = directory + "/drag-client.txt"
        let client = repositoryRoot + "/Tests/clients/drag_client.py"
        let steps = [
            TourStep("drag", "Another app's text over the folder", expect: [.target(602), .accessories([.plus])]) { d in
                _ = try d.session.launch(["python3", client, "other", "cc6633", "--source", "--text", "file:///home/me/beach.png"], output: log)
                guard try d.session.wait(timeout: 20, for: { textOfFile(log).contains("mapped") }) else { throw TestFailure("drag_client did not map: \(textOfFile(log))") }
                try d.session.control.moveWindow("other", x: 1000, y: 560)
                try d.move(1100, 635)
                try d.press()
                guard try d.session.wait(for: { textOfFile(log).contains("started") }) else { throw TestFailure("no drag started: \(textOfFile(log))") }
                try d.glide(720, 440, steps: 10)
            },
            TourStep("drop", "Dropped", expect: [.target(602)]) { d in
                try d.release()
                guard try d.session.wait(for: { textOfFile(log).contains("dnd_finished") }) else { throw TestFailure("the drop did not finish: \(textOfFile(log))") }
                try d.pause()
            },
        ]
        let results = try DemoTour(directory: directory, steps: steps, traceDemo: true).run()
        for r in results {
            XCTAssertTrue(r.failures.isEmpty, "step \(r.step.name): \(r.failures.joined(separator: "; ")); pointer: \(r.pointer)")
        }
        let demo = textOfFile(directory + "/lodestone-demo.log")
        XCTAssertTrue(demo.contains("drop received text/plain file:///home/me/beach.png"), demo)
        XCTAssertFalse(textOfFile(log).contains("cancelled"), textOfFile(log))
    }
}
