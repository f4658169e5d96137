import Foundation
import LodestoneTesting
import XCTest

/// liblodestone-pointer's adapter (lodestone_pointer_adapter_*) against a real app that
/// declares no regions: gtk4-widget-factory on a private session bus with at-spi2-core, shown
/// by a headless Lodestone that reads cursor names only (`--legacy-apps shapes`), so the walk
/// over AT-SPI is the adapter's alone. c-api/tests/adapter-test.c, built with meson against
/// the library SwiftPM built, is told the app's pid and window rectangle, dispatches its own
/// wl_event_loop (the adapter's D-Bus fds and timers), and moves the engine's pointer over the
/// window until a region the adapter put into the engine targets it with the highlight.
final class PointerAdapterTests: XCTestCase {
    func testAdapterFindsAGtkButtonOverAtSpiThroughTheCApi() throws {
        try requireProgram("gtk4-widget-factory")
        try requireProgram("meson")
        try requireProgram("ninja")
        try requireAccessibilityBus()
        try skipUnderSanitizersForALibraryConsumer()
        let scratch = NSTemporaryDirectory() + "lodestone-adapter-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let build = scratch + "/build"
        for step in [["meson", "setup", "-Dwerror=true", "-Dswiftpm_libdir=" + PointerLibraryTests.libraryDirectory, build, PointerLibraryTests.project],
                     ["ninja", "-C", build]] {
            let (status, output) = try run(step)
            guard status == 0 else { throw TestFailure("\(step.joined(separator: " ")) failed:\n\(output)") }
        }

        let bus = try PrivateSessionBus()
        defer { bus.stop() }
        let session = try Session(size: "1600x1000", extraArguments: ["--pointer", "adaptive", "--legacy-apps", "shapes"], environment: bus.environment)
        let app = try session.launch(["gtk4-widget-factory"], environment: AccessibleAppTests.gtkEnvironment.merging(bus.environment) { $1 })
        defer { if app.isRunning { app.terminate() } }
        let window = try session.waitForWindow("org.gtk.WidgetFactory4", timeout: 40)

        var environment = ProcessInfo.processInfo.environment.merging(bus.environment) { $1 }
        environment["XDG_RUNTIME_DIR"] = bus.directory
        environment.removeValue(forKey: "AT_SPI_BUS_ADDRESS")
        let (status, output) = try run([build + "/adapter-test", "\(app.processIdentifier)", "\(window.x)", "\(window.y)", "\(window.width)", "\(window.height)"],
                                       environment: environment)
        XCTAssertEqual(status, 0, output)
        XCTAssertTrue(output.contains("\nok\n") || output.hasSuffix("ok\n"), output)
        let elements = output.split(separator: "\n").first { $0.hasPrefix("elements ") && $0.hasSuffix(" walked") }
        let count = elements.flatMap { Int($0.split(separator: " ")[1]) } ?? 0
        XCTAssertGreaterThan(count, 20, "gtk4-widget-factory's first page has dozens of elements: \(output)")
        print(output)
    }
}
