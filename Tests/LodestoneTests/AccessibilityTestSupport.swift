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
        // Lodestone switches org.a11y.Status.IsEnabled on; the launcher keeps it in GSettings,
        // which must not be the user's own (dconf).
        env["GSETTINGS_BACKEND"] = "memory"
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

extension XCTestCase {
    /// dbus-daemon and at-spi2-core, or the test is skipped (fails under CI).
    func requireAccessibilityBus() throws {
        try requireProgram("dbus-daemon")
        guard FileManager.default.isExecutableFile(atPath: "/usr/libexec/at-spi-bus-launcher") else {
            if ProcessInfo.processInfo.environment["CI"] != nil { return XCTFail("at-spi2-core is not installed; run make deps") }
            throw XCTSkip("at-spi2-core is not installed; run make deps")
        }
    }

    /// Starts this session's AT-SPI registry now, as an app's first call would (D-Bus
    /// activation on the accessibility bus, itself started by `org.a11y.Bus.GetAddress`), and
    /// gives its PID: the registry of this bus, not another session's (`pgrep` would find any).
    func startRegistry(on bus: PrivateSessionBus) throws -> pid_t {
        try requireProgram("dbus-send")
        func send(_ address: String, _ destination: String, _ path: String, _ method: String, _ arguments: String...) throws -> String {
            let (status, output) = try run(["dbus-send", "--bus=\(address)", "--print-reply=literal", "--dest=\(destination)", path, method] + arguments)
            guard status == 0 else { throw TestFailure("\(method): \(output)") }
            return output.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let accessibilityBus = try send(bus.address, "org.a11y.Bus", "/org/a11y/bus", "org.a11y.Bus.GetAddress")
        let dbus = ("org.freedesktop.DBus", "/org/freedesktop/DBus")
        _ = try send(accessibilityBus, dbus.0, dbus.1, "org.freedesktop.DBus.StartServiceByName", "string:org.a11y.atspi.Registry", "uint32:0")
        let pid = try send(accessibilityBus, dbus.0, dbus.1, "org.freedesktop.DBus.GetConnectionUnixProcessID", "string:org.a11y.atspi.Registry")
        guard let last = pid.split(separator: " ").last, let value = pid_t(last) else { throw TestFailure("no registry PID: \(pid)") }
        return value
    }
}

extension AdaptiveFixture {
    /// Moves onto (x, y) until the pointer targets an element there (the app's geometry
    /// arrives asynchronously), then lets it settle.
    func targeted(_ x: Double, _ y: Double, timeout: TimeInterval = 30,
                  until condition: (PointerShape) -> Bool = { $0.targeted }) throws -> PointerShape {
        var last = try move(to: x, y)
        _ = try session.wait(timeout: timeout) {
            try control.movePointer(x: x + Double.random(in: -0.4...0.4), y: y)
            try control.advanceClock(milliseconds: 600)
            last = try probe.shape()
            return condition(last)
        }
        return last
    }

    /// The pointer's shape at (300, 250) over `client`'s window once it set the text cursor
    /// there: with accessibility out of the game, the cursor name alone shapes the pointer.
    func shapeFromTextCursor(of client: RegionClient) throws -> PointerShape {
        try move(to: 300, 250)
        try client.sync()
        try client.setCursorShape(9)  // text
        try control.movePointer(dx: 0.5, dy: 0)
        try control.advanceClock(milliseconds: 600)
        return try probe.shape()
    }
}
