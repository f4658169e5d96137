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
    /// gtk4-widget-factory shown by Lodestone on a private bus, and adapter-test built.
    struct Scene {
        let bus: PrivateSessionBus
        let session: Session
        let app: Process
        let window: TestControl.WindowState
        let adapterTest: String
        let environment: [String: String]
        let scratch: String

        func stop() {
            if app.isRunning { app.terminate() }
            bus.stop()
            try? FileManager.default.removeItem(atPath: scratch)
        }
    }

    func startScene() throws -> Scene {
        try requireProgram("gtk4-widget-factory")
        try requireProgram("meson")
        try requireProgram("ninja")
        try requireAccessibilityBus()
        try skipUnderSanitizersForALibraryConsumer()
        let scratch = NSTemporaryDirectory() + "lodestone-adapter-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let build = scratch + "/build"
        for step in [["meson", "setup", "-Dwerror=true", "-Dswiftpm_libdir=" + PointerLibraryTests.libraryDirectory, build, PointerLibraryTests.project],
                     ["ninja", "-C", build]] {
            let (status, output) = try run(step)
            guard status == 0 else { throw TestFailure("\(step.joined(separator: " ")) failed:\n\(output)") }
        }

        let bus = try PrivateSessionBus()
        let session = try Session(size: "1600x1000", extraArguments: ["--pointer", "adaptive", "--legacy-apps", "shapes"], environment: bus.environment)
        let app = try session.launch(["gtk4-widget-factory"], environment: AccessibleAppTests.gtkEnvironment.merging(bus.environment) { $1 })
        let window = try session.waitForWindow("org.gtk.WidgetFactory4", timeout: 40)

        var environment = ProcessInfo.processInfo.environment.merging(bus.environment) { $1 }
        environment["XDG_RUNTIME_DIR"] = bus.directory
        environment.removeValue(forKey: "AT_SPI_BUS_ADDRESS")
        return Scene(bus: bus, session: session, app: app, window: window, adapterTest: build + "/adapter-test", environment: environment, scratch: scratch)
    }

    /// adapter-test on the scene's window with `extra` arguments; its output, after it passed.
    func adapterTest(_ scene: Scene, _ extra: [String] = []) throws -> String {
        let w = scene.window
        let (status, output) = try run([scene.adapterTest, "\(scene.app.processIdentifier)", "\(w.x)", "\(w.y)", "\(w.width)", "\(w.height)"] + extra,
                                       environment: scene.environment)
        XCTAssertEqual(status, 0, output)
        XCTAssertTrue(output.contains("\nok\n") || output.hasSuffix("ok\n"), output)
        print(output)
        return output
    }

    /// The settled platter adapter-test printed ("platter X Y W H").
    func platter(_ output: String) throws -> (x: Double, y: Double, width: Double, height: Double) {
        let line = try XCTUnwrap(output.split(separator: "\n").first { $0.hasPrefix("platter ") }, output)
        let n = line.split(separator: " ").dropFirst().compactMap { Double($0) }
        guard n.count == 4 else { throw TestFailure("not a platter: \(line)") }
        return (n[0], n[1], n[2], n[3])
    }

    func testAdapterFindsAGtkButtonOverAtSpiThroughTheCApi() throws {
        let scene = try startScene()
        defer { scene.stop() }
        let output = try adapterTest(scene)
        let elements = output.split(separator: "\n").first { $0.hasPrefix("elements ") && $0.hasSuffix(" walked") }
        let count = elements.flatMap { Int($0.split(separator: " ")[1]) } ?? 0
        XCTAssertGreaterThan(count, 20, "gtk4-widget-factory's first page has dozens of elements: \(output)")
    }

    /// With the window's pixels (lodestone_pointer_adapter_set_window_pixels, here the window's
    /// rectangle from Lodestone's capture), the adapter's highlight over a GTK 4 button is the
    /// outline the button draws grown by 2 each side, its edges found in the capture as
    /// AccessibleAppTests finds them for Lodestone's own highlight over the same button
    /// (127×30 drawn); without them it is the content box GTK publishes (93×24).
    func testWindowPixelsGrowAGtkButtonToItsDrawnOutlineAsLodestoneDoes() throws {
        let scene = try startScene()
        defer { scene.stop() }
        let w = (x: Int(scene.window.x), y: Int(scene.window.y), width: Int(scene.window.width), height: Int(scene.window.height))
        let (wx, wy) = (Double(w.x), Double(w.y))
        // Lodestone's pointer off the window (GTK draws a hovered button differently), then
        // the window's pixels once GTK has drawn its first page.
        _ = try scene.session.control.movePointer(x: 800, y: 990)
        _ = try scene.session.wait(timeout: 5) { try scene.session.screenshot().distinctColors(x: 0, y: w.y, width: 600, height: 500) > 50 }
        let shot = try scene.session.screenshot()
        var argb: [UInt32] = []
        argb.reserveCapacity(w.width * w.height)
        for y in w.y..<w.y + w.height { for x in w.x..<w.x + w.width { argb.append(shot.pixels[y * shot.width + x] | 0xff00_0000) } }
        let file = scene.scratch + "/window.argb"
        try argb.withUnsafeBytes { try Data($0).write(to: URL(fileURLWithPath: file)) }

        // The first page's first toggle button ("togglebutton", 93×24 at 509,62 in the window).
        let at = ["\(wx + 555)", "\(wy + 74)"]
        let published = try platter(try adapterTest(scene, at))
        let withPixels = try adapterTest(scene, at + [file])
        let drawn = try platter(withPixels)
        let asked = withPixels.split(separator: "\n").first { $0.hasPrefix("pixels asked ") }.flatMap { Int($0.split(separator: " ")[2]) } ?? 0
        XCTAssertGreaterThan(asked, 0, "the adapter asked for the window's pixels: \(withPixels)")

        // The drawn edges, found in the capture as AccessibleAppTests finds them for Lodestone.
        let (left, right) = (Int((drawn.x + 2).rounded()), Int((drawn.x + drawn.width - 2).rounded()))
        let (top, bottom) = (Int((drawn.y + 2).rounded()), Int((drawn.y + drawn.height - 2).rounded()))
        let midY = (top + bottom) / 2, insideX = left + 4
        XCTAssertEqual(AccessibleAppTests.edge(shot, vertical: false, at: midY, expected: left), left, accuracy: 2, "the button's left edge: \(drawn)")
        XCTAssertEqual(AccessibleAppTests.edge(shot, vertical: false, at: midY, expected: right), right, accuracy: 2, "the button's right edge: \(drawn)")
        XCTAssertEqual(AccessibleAppTests.edge(shot, vertical: true, at: insideX, expected: top), top, accuracy: 2, "the button's top edge: \(drawn)")
        XCTAssertEqual(AccessibleAppTests.edge(shot, vertical: true, at: insideX, expected: bottom), bottom, accuracy: 2, "the button's bottom edge: \(drawn)")
        // Without pixels: what GTK 4.8 publishes, the content box (93×24 at 509,62 in the
        // window), its label 17 px in from the drawn left edge.
        XCTAssertEqual(published.x + 2, wx + 509, accuracy: 3, "published \(published)")
        XCTAssertEqual(published.y + 2, wy + 62, accuracy: 3, "published \(published)")
        XCTAssertEqual(published.width - 4, 93, accuracy: 3, "published \(published)")
        XCTAssertGreaterThan(published.x - drawn.x, 10, "published \(published), drawn \(drawn)")
        XCTAssertGreaterThan(drawn.width - published.width, 20, "published \(published), drawn \(drawn)")
    }
}
