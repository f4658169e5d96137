// Accessibility geometry (issues 11 and 27): real apps in a headless Lodestone with a private
// session bus, from which the AT-SPI bus and registry are activated. Each app's tree is walked
// when its window maps, so the pointer entering a button of a window mapped 2 s ago finds its
// elements ready (the highlight starts on the next frame), and one mapped 250 ms ago finds them
// within the figure printed. Lodestone's debug lines say when the elements were in place and
// each walk's longest wake-up of the loop: what a walk can delay a frame by (wall time, which
// includes the loop being descheduled on a loaded machine, and its CPU time). Motion itself
// never waits on D-Bus: the figures of the pointer benchmarks above stay what they were.
import Foundation
import LodestoneTesting

func benchmarkAccessibility() {
    let tools = ["/usr/bin/dbus-daemon", "/usr/libexec/at-spi-bus-launcher", "/usr/bin/gtk4-widget-factory"]
    guard tools.allSatisfy({ FileManager.default.isExecutableFile(atPath: $0) }) else {
        print("accessibility: skipped (needs dbus-daemon, at-spi2-core, gtk-4-examples)")
        return
    }
    // gtk4-widget-factory's first toggle button, 555,74 in its window.
    firstHover(["gtk4-widget-factory"], window: "org.gtk.WidgetFactory4", button: (555, 74), after: 2)
    firstHover(["gtk4-widget-factory"], window: "org.gtk.WidgetFactory4", button: (555, 74), after: 0.25)
    // The pointer on the button as the window maps: the point query answers before the walk ends.
    firstHover(["gtk4-widget-factory"], window: "org.gtk.WidgetFactory4", button: (555, 74), after: 0)
    if FileManager.default.isExecutableFile(atPath: "/usr/bin/gtk3-demo") {
        firstHover(["gtk3-demo"], window: "gtk3-demo", button: nil, after: 3)
    }
}

/// Starts `command` with its own session bus, moves the pointer onto `button` (window
/// coordinates) `after` s after its window mapped, and prints what the log says of its walks.
private func firstHover(_ command: [String], window name: String, button: (Double, Double)?, after: Double) {
    do {
        try withPrivateSessionBus { bus in
            let session = try Session(size: "1600x1000", environment: bus)
            defer { session.stop() }
            try session.control.movePointer(x: 1599, y: 2)
            try session.launch(command, environment: ["GDK_BACKEND": "wayland", "GSK_RENDERER": "cairo"].merging(bus) { $1 })
            let window = try session.waitForWindow(name, timeout: 40)
            usleep(useconds_t(after * 1_000_000))
            let app = "accessibility (\(command[0]), pointer \(Int(after * 1000)) ms after the window mapped)"
            var line: Substring?
            if let (x, y) = button {
                try session.control.movePointer(x: Double(window.x) + x, y: Double(window.y) + y)
                _ = try session.wait(timeout: 30) {
                    line = accessibilityLine(session.log, saying: "elements of", "the pointer came")
                    return line != nil
                }
            }
            sleep(2)  // the walks going on end
            // The walks so far: each one's longest wake-up, wall and CPU.
            let walks = walkFigures(session.log)
            print("\(app): \(walks.count) walks, the longest wake-up of the loop \(String(format: "%.2f", walks.wall)) ms wall, \(String(format: "%.2f", walks.cpu)) ms CPU")
            guard button != nil else { return }
            guard let line else { return print("\(app): no geometry arrived within 30 s") }
            print("\(app):", line)
            // The highlight starts with the first frame after the element under the pointer was
            // there fresh, confirmed by the app, or found by a point query: the line saying the
            // pointer adapts.
            guard let adapts = accessibilityLine(session.log, saying: adaptsWords), let ms = adaptedMilliseconds(adapts) else {
                return print("\(app): entering a GTK button → no highlight: the log never says the pointer adapted (\(adaptsWords))")
            }
            print("\(app):", adapts)
            print("\(app): entering a GTK button → highlight after \(Int(ms)) ms + the next frame (≈ \(Int((ms / (1000.0 / 60)).rounded(.up)) + 1) frames at 60 Hz)")
        }
    } catch {
        print("accessibility: \(error)")
    }
}

/// What the first of Lodestone's accessibility log lines that says all of `words` says
/// (after "accessibility: ").
func accessibilityLine(_ log: String, saying words: String...) -> Substring? {
    guard let line = log.split(separator: "\n").first(where: { l in words.allSatisfy { l.contains($0) } }) else { return nil }
    return line.range(of: "accessibility: ").map { line[$0.upperBound...] }
}

/// The log's words when the pointer first takes the form of one of a window's elements.
let adaptsWords = "the pointer adapts to an element"

/// How long after the pointer came onto a window it first took the form of one of its
/// elements, in milliseconds, from the `adaptsWords` line.
func adaptedMilliseconds(_ line: Substring) -> Double? {
    line.range(of: "' ").flatMap { line[$0.upperBound...].split(separator: " ").first }.flatMap { Double($0) }
}

/// The walks in a Lodestone log: how many, and the longest wake-up of the loop any of them
/// caused (wall and CPU milliseconds): what a walk can delay a frame by.
func walkFigures(_ log: String) -> (count: Int, wall: Double, cpu: Double) {
    let walks = log.split(separator: "\n").filter { $0.contains("accessibility: walked") }
    func worst(_ label: String) -> Double {
        walks.compactMap { w in w.range(of: label).flatMap { Double(w[$0.upperBound...].prefix { $0 == "." || $0.isNumber }) } }.max() ?? 0
    }
    return (walks.count, worst("longest wake-up "), worst("ms wall, "))
}

/// Runs `body` with a private session bus of its own (its environment), as a desktop session
/// has one: the AT-SPI bus and registry are activated from it. GSettings in memory: the bus
/// launcher keeps `IsEnabled` there, never in the user's own settings.
func withPrivateSessionBus(_ body: ([String: String]) throws -> Void) throws {
    let directory = NSTemporaryDirectory() + "lodestone-bench-dbus-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let address = "unix:path=\(directory)/bus"
    let daemon = Process()
    daemon.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
    daemon.arguments = ["--session", "--nofork", "--nopidfile", "--address=\(address)"]
    var env = ProcessInfo.processInfo.environment
    env["XDG_RUNTIME_DIR"] = directory
    env["GSETTINGS_BACKEND"] = "memory"
    env.removeValue(forKey: "AT_SPI_BUS_ADDRESS")
    daemon.environment = env
    daemon.standardOutput = FileHandle.nullDevice
    daemon.standardError = FileHandle.nullDevice
    try daemon.run()
    defer { daemon.terminate(); daemon.waitUntilExit() }
    while !FileManager.default.fileExists(atPath: directory + "/bus") { usleep(10_000) }
    try body(["DBUS_SESSION_BUS_ADDRESS": address])
}
