import Foundation
import LodestoneTesting
import XCTest

/// Programs no one here wrote, each in its own headless Lodestone: their
/// windows must appear in a capture where the compositor placed them.
final class RealClientTests: XCTestCase {
    func testWestonSimpleShmDrawsItsWindow() throws {
        try requireProgram("weston-simple-shm")
        let session = try Session()
        try session.launch(["weston-simple-shm"])
        let window = try session.waitForWindow("simple-shm")
        XCTAssertEqual(window.width, 250)
        XCTAssertEqual(window.height, 250)
        // simple-shm animates on frame callbacks: two captures differ.
        let first = try session.screenshot("a")
        assertWindowDrawn(first, window, minDistinctColors: 50)
        XCTAssertTrue(try session.wait { try session.screenshot("b").pixels != first.pixels }, "simple-shm stopped animating: no frame callbacks")
    }

    func testWestonTerminalDrawsItsWindow() throws {
        try requireProgram("weston-terminal")
        let session = try Session()
        try session.launch(["weston-terminal", "--shell=/bin/sh"])
        let window = try session.waitForWindow("org.freedesktop.weston.wayland-terminal") { $0.width > 100 }
        _ = try session.wait { try session.screenshot().distinctColors(x: Int(window.x), y: Int(window.y), width: Int(window.width), height: Int(window.height)) > 4 }
        assertWindowDrawn(try session.screenshot(), window, minDistinctColors: 4)
    }

    func testFootDrawsItsWindow() throws {
        try requireProgram("foot")
        let session = try Session()
        try session.launch(["foot", "--override=shell=/bin/sh"])
        let window = try session.waitForWindow("foot")
        _ = try session.wait { try session.screenshot().distinctColors(x: Int(window.x), y: Int(window.y), width: Int(window.width), height: Int(window.height)) > 4 }
        assertWindowDrawn(try session.screenshot(), window, minDistinctColors: 4)
        XCTAssertTrue(window.activated, "a new window gets the keyboard")
    }

    func testGtk4WidgetFactoryDrawsItsWindow() throws {
        try requireProgram("gtk4-widget-factory")
        let session = try Session(size: "1600x1000")
        try session.launch(["gtk4-widget-factory"], environment: ["GDK_BACKEND": "wayland", "GSK_RENDERER": "cairo", "NO_AT_BRIDGE": "1"])
        let window = try session.waitForWindow("gtk4-widget-factory", timeout: 40)
        _ = try session.wait(timeout: 20) { try session.screenshot().distinctColors(x: Int(window.x), y: Int(window.y), width: Int(window.width), height: Int(window.height)) > 50 }
        assertWindowDrawn(try session.screenshot(), window, minDistinctColors: 50)
    }

    func testQt6LinguistDrawsItsWindow() throws {
        // A Qt 6 Widgets app on Qt's own Wayland platform plugin.
        let linguist = "/usr/lib/qt6/bin/linguist"
        guard FileManager.default.isExecutableFile(atPath: linguist) else {
            if ProcessInfo.processInfo.environment["CI"] != nil { return XCTFail("\(linguist) is not installed; run make deps") }
            throw XCTSkip("\(linguist) is not installed; run make deps")
        }
        let session = try Session()
        try session.launch([linguist], environment: ["QT_QPA_PLATFORM": "wayland"])
        let window = try session.waitForWindow("Qt Linguist", timeout: 40)
        _ = try session.wait(timeout: 20) { try session.screenshot().distinctColors(x: Int(window.x), y: Int(window.y), width: Int(window.width), height: Int(window.height)) > 20 }
        assertWindowDrawn(try session.screenshot(), window, minDistinctColors: 20)
    }
}
