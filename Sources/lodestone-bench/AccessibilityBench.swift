// Accessibility geometry (issue 11): gtk4-widget-factory in a headless Lodestone with a private
// session bus, from which the AT-SPI bus and registry are activated. The pointer enters a button;
// Lodestone's debug line says how long the first highlight waited (bus, registry, PID match, walk)
// and the D-Bus round trips of the walk's calls. Motion itself never waits on D-Bus: the figures
// of the pointer benchmarks above stay what they were.
import Foundation
import LodestoneTesting

func benchmarkAccessibility() {
    let tools = ["/usr/bin/dbus-daemon", "/usr/libexec/at-spi-bus-launcher", "/usr/bin/gtk4-widget-factory"]
    guard tools.allSatisfy({ FileManager.default.isExecutableFile(atPath: $0) }) else {
        print("accessibility: skipped (needs dbus-daemon, at-spi2-core, gtk-4-examples)")
        return
    }
    let directory = NSTemporaryDirectory() + "lodestone-bench-dbus-\(getpid())"
    try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let address = "unix:path=\(directory)/bus"
    let daemon = Process()
    daemon.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
    daemon.arguments = ["--session", "--nofork", "--nopidfile", "--address=\(address)"]
    var env = ProcessInfo.processInfo.environment
    env["XDG_RUNTIME_DIR"] = directory
    daemon.environment = env
    daemon.standardOutput = FileHandle.nullDevice
    daemon.standardError = FileHandle.nullDevice
    do {
        try daemon.run()
        defer { daemon.terminate(); daemon.waitUntilExit() }
        while !FileManager.default.fileExists(atPath: directory + "/bus") { usleep(10_000) }
        let bus = ["DBUS_SESSION_BUS_ADDRESS": address]
        let session = try Session(size: "1600x1000", environment: bus)
        defer { session.stop() }
        try session.launch(["gtk4-widget-factory"], environment: ["GDK_BACKEND": "wayland", "GSK_RENDERER": "cairo"].merging(bus) { $1 })
        let window = try session.waitForWindow("org.gtk.WidgetFactory4", timeout: 40)
        sleep(2)  // the app registers with the AT-SPI registry after mapping
        try session.control.movePointer(x: 800, y: 990)
        // The first toggle button of the first page.
        try session.control.movePointer(x: Double(window.x) + 555, y: Double(window.y) + 74)
        var line: Substring?
        _ = try session.wait(timeout: 30) {
            line = session.log.split(separator: "\n").first { $0.contains("elements of") && $0.contains("after the pointer came") }
            return line != nil
        }
        guard let line, let text = line.range(of: "accessibility: ").map({ line[$0.upperBound...] }) else {
            print("accessibility: no geometry arrived within 30 s")
            return
        }
        print("accessibility (gtk4-widget-factory, first entry):", text)
        let ms = text.split(separator: " ").firstIndex(of: "place").flatMap { i in Double(text.split(separator: " ")[i + 1]) } ?? 0
        // The highlight starts with the first frame after the regions are in place.
        print("accessibility: entering a GTK button → highlight starts after \(Int(ms)) ms ≈ \(Int((ms / (1000.0 / 60)).rounded(.up)) + 1) frames at 60 Hz (first time: bus, registry, PID match and walk; afterwards cached: the next frame)")
    } catch {
        print("accessibility: \(error)")
    }
}
