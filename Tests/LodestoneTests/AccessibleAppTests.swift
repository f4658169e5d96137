import Foundation
import LodestoneTesting
import XCTest

/// A private session bus, as a desktop session has one: `dbus-daemon` on a socket of its
/// own. The accessibility bus (`at-spi-bus-launcher`) and the AT-SPI registry are
/// D-Bus-activated from it, exactly as in a desktop session (at-spi2-core's service files).
final class PrivateSessionBus {
    let directory: String
    let address: String
    private let daemon = Process()

    init() throws {
        directory = NSTemporaryDirectory() + "lodestone-dbus-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let socket = directory + "/bus"
        address = "unix:path=\(socket)"
        daemon.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        daemon.arguments = ["--session", "--nofork", "--nopidfile", "--address=\(address)"]
        // The launcher puts the accessibility bus's socket in XDG_RUNTIME_DIR/at-spi.
        var env = ProcessInfo.processInfo.environment
        env["XDG_RUNTIME_DIR"] = directory
        env.removeValue(forKey: "AT_SPI_BUS_ADDRESS")
        daemon.environment = env
        daemon.standardOutput = FileHandle.nullDevice
        daemon.standardError = FileHandle.nullDevice
        try daemon.run()
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: socket) {
            guard daemon.isRunning, Date() < deadline else { throw TestFailure("dbus-daemon did not start") }
            usleep(10_000)
        }
    }

    /// What Lodestone and its apps need to find this bus.
    var environment: [String: String] { ["DBUS_SESSION_BUS_ADDRESS": address] }

    func stop() {
        // The launcher and the registry leave when their session bus goes away.
        if daemon.isRunning { daemon.terminate(); daemon.waitUntilExit() }
        try? FileManager.default.removeItem(atPath: directory)
    }

    deinit { stop() }
}

/// Apps that declare no regions but publish their widgets through AT-SPI: Lodestone reads
/// their geometry from the accessibility bus (README, "Apps that declare no regions").
final class AccessibleAppTests: XCTestCase {
    static let gtkEnvironment = ["GDK_BACKEND": "wayland", "GSK_RENDERER": "cairo"]

    private func requireAccessibilityBus() throws {
        try requireProgram("dbus-daemon")
        guard FileManager.default.isExecutableFile(atPath: "/usr/libexec/at-spi-bus-launcher") else {
            if ProcessInfo.processInfo.environment["CI"] != nil { return XCTFail("at-spi2-core is not installed; run make deps") }
            throw XCTSkip("at-spi2-core is not installed; run make deps")
        }
    }

    /// Moves onto (x, y) until the pointer targets an element there (the app's geometry
    /// arrives asynchronously), then lets it settle.
    private func targeted(_ f: AdaptiveFixture, _ x: Double, _ y: Double, timeout: TimeInterval = 30,
                          until condition: (PointerShape) -> Bool = { $0.targeted }) throws -> PointerShape {
        var last = try f.move(to: x, y)
        _ = try f.session.wait(timeout: timeout) {
            try f.control.movePointer(x: x + Double.random(in: -0.4...0.4), y: y)
            try f.control.advanceClock(milliseconds: 600)
            last = try f.probe.shape()
            return condition(last)
        }
        return last
    }

    func testGtk4WidgetFactoryButtonEntryAndCheckBox() throws {
        try requireProgram("gtk4-widget-factory")
        try requireAccessibilityBus()
        let bus = try PrivateSessionBus()
        defer { bus.stop() }
        let f = try AdaptiveFixture(size: "1600x1000", environment: bus.environment)
        try f.session.launch(["gtk4-widget-factory"], environment: Self.gtkEnvironment.merging(bus.environment) { $1 })
        let window = try f.session.waitForWindow("org.gtk.WidgetFactory4", timeout: 40)
        print("window", window)
        let points: [(Double, Double)] = [(555, 74), (119, 162), (24, 422)]
        for (x, y) in points {
            let s = try targeted(f, Double(window.x) + x, Double(window.y) + y)
            print("at", x, y, s)
        }
        print(f.session.log)
    }
}
