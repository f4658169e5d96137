// The accuracy benchmark (issue 41, docs/accuracy.md): real apps in a headless Lodestone on the
// real clock. Each app's AT-SPI tree is read by `Tests/clients/atspi_elements.py` (libatspi,
// independently of Lodestone's own walk); every showing element that is interactive or text,
// and labels and images outside them, are hovered, and the pointer's form 0.35 s after it
// arrives is checked against what the element should give (`AccuracyProbe`).
import Foundation
import LodestoneTesting

/// One app the benchmark runs.
struct AccuracyApp: Sendable {
    var name: String
    var command: [String]
    /// The window's title or app id, as `Session.waitForWindow` matches it (nil: the first window).
    var window: String?
    var environment: [String: String] = [:]
    /// How long after its window maps the app is left to build its tree before it is read.
    var settle: Double = 1.5
    /// Firefox: a fresh profile with no first-run pages, and the benchmark's page.
    var browser = false

    static let gtk: [String: String] = ["GDK_BACKEND": "wayland", "GSK_RENDERER": "cairo"]

    /// Its command line: Firefox's with a fresh profile in `scratch` and the page with links,
    /// buttons, a field and paragraphs (Tests/Fixtures/browser-page.html).
    func arguments(scratch: String) throws -> [String] {
        guard browser else { return command }
        let prefs = [
            "browser.shell.checkDefaultBrowser": "false", "browser.startup.homepage_override.mstone": "\"ignore\"",
            "browser.aboutwelcome.enabled": "false", "datareporting.policy.dataSubmissionEnabled": "false",
            "toolkit.telemetry.reportingpolicy.firstRun": "false", "trailhead.firstrun.didSeeAboutWelcome": "true",
            "browser.sessionstore.resume_from_crash": "false", "app.normandy.enabled": "false", "browser.startup.page": "0",
        ]
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        try prefs.map { "user_pref(\"\($0.key)\", \($0.value));" }.joined(separator: "\n").write(toFile: scratch + "/user.js", atomically: false, encoding: .utf8)
        let page = repositoryFile("Tests/Fixtures/browser-page.html") ?? "Tests/Fixtures/browser-page.html"
        return command + ["-no-remote", "-profile", scratch, "file://" + page]
    }

    /// Its environment in `session`: the session bus, and an X11 app's display (Xwayland).
    func environment(in session: Session, bus: [String: String]) -> [String: String] {
        var env = environment.merging(bus) { $1 }
        if env["GDK_BACKEND"] == "x11", let display = session.x11Display { env["DISPLAY"] = display }
        return env
    }

    /// Every app of the full run (`make accuracy`).
    static let all: [AccuracyApp] = [
        AccuracyApp(name: "gtk4-widget-factory", command: ["gtk4-widget-factory"], window: "org.gtk.WidgetFactory4", environment: gtk),
        AccuracyApp(name: "gtk4-demo", command: ["gtk4-demo"], window: "org.gtk.Demo4", environment: gtk),
        AccuracyApp(name: "gnome-calculator", command: ["gnome-calculator"], window: "org.gnome.Calculator", environment: gtk),
        AccuracyApp(name: "gnome-text-editor", command: ["gnome-text-editor", "--standalone"], window: "org.gnome.TextEditor", environment: gtk, settle: 2.5),
        AccuracyApp(name: "nautilus", command: ["nautilus", "--new-window", "/usr/share"], window: "org.gnome.Nautilus", environment: gtk, settle: 3),
        AccuracyApp(name: "gnome-characters", command: ["gnome-characters"], window: "org.gnome.Characters", environment: gtk, settle: 3),
        AccuracyApp(name: "gtk3-demo", command: ["gtk3-demo"], window: "gtk3-demo", environment: gtk),
        AccuracyApp(name: "gtk3-widget-factory", command: ["gtk3-widget-factory"], window: "gtk3-widget-factory", environment: gtk),
        AccuracyApp(name: "designer (Qt 6)", command: ["/usr/lib/qt6/bin/designer"], window: "designer", environment: ["QT_QPA_PLATFORM": "wayland", "QT_ACCESSIBILITY": "1", "QT_LINUX_ACCESSIBILITY_ALWAYS_ON": "1"], settle: 3),
        AccuracyApp(name: "linguist (Qt 6)", command: ["/usr/lib/qt6/bin/linguist"], window: "linguist", environment: ["QT_QPA_PLATFORM": "wayland", "QT_ACCESSIBILITY": "1", "QT_LINUX_ACCESSIBILITY_ALWAYS_ON": "1"], settle: 3),
        AccuracyApp(name: "firefox-esr", command: ["firefox-esr"], window: "firefox-esr", environment: ["MOZ_ENABLE_WAYLAND": "1"], settle: 5, browser: true),
        AccuracyApp(name: "gtk3-widget-factory (X11)", command: ["gtk3-widget-factory"], window: nil, environment: ["GDK_BACKEND": "x11"], settle: 2.5),
    ]

    /// The short run in `make test`: three apps, 30 elements each.
    static let short: [String] = ["gtk4-widget-factory", "gtk3-widget-factory", "linguist (Qt 6)"]
}

/// An app's figures.
struct AccuracyResult {
    var app: String
    var probes = 0
    var verdicts: [AccuracyVerdict: Int] = [:]
    /// Milliseconds from arrival to the right form, for the probes that got it.
    var arrivals: [Double] = []
    /// Milliseconds to the right form for the first element hovered 250 ms after the window mapped.
    var firstHovers: [Double] = []
    var failure: String?
    var right: Int { verdicts[.right] ?? 0 }
    var share: Double { probes == 0 ? 0 : Double(right) / Double(probes) }
}

/// Runs the benchmark: `--accuracy [--short] [--pictures DIR] [--apps a,b]`. Returns whether
/// every app reached `minimumShare` (the short run's pass mark).
func benchmarkAccuracy(arguments: [String]) -> Bool {
    let short = arguments.contains("--short")
    let pictures = arguments.firstIndex(of: "--pictures").flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
    var names = short ? AccuracyApp.short : AccuracyApp.all.map(\.name)
    if let i = arguments.firstIndex(of: "--apps"), i + 1 < arguments.count { names = arguments[i + 1].split(separator: ",").map(String.init) }
    let limit = short ? 30 : Int.max
    let minimumShare = 0.9
    let dumper = repositoryFile("Tests/clients/atspi_elements.py")
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/dbus-daemon"), let dumper else {
        print("accuracy: needs dbus-daemon, at-spi2-core and Tests/clients/atspi_elements.py (run from the repository)")
        return false
    }
    if let pictures { try? FileManager.default.createDirectory(atPath: pictures, withIntermediateDirectories: true) }
    var results: [AccuracyResult] = []
    for name in names {
        guard let app = AccuracyApp.all.first(where: { $0.name == name }) else {
            print("accuracy: no app called \(name); the apps: \(AccuracyApp.all.map(\.name).joined(separator: ", "))")
            return false
        }
        guard let program = app.command.first, programPath(program) != nil else {
            results.append(AccuracyResult(app: app.name, failure: "\(app.command[0]) is not installed"))
            continue
        }
        let result = measureAccuracy(of: app, dumper: dumper, limit: limit, pictures: pictures, firstHoverRuns: short ? 0 : 5)
        print(accuracyRow(result))
        results.append(result)
    }
    print(accuracyTable(results))
    let failed = results.filter { $0.failure != nil || $0.share < minimumShare }
    for r in failed { print("accuracy: \(r.app) below \(Int(minimumShare * 100))%: \(r.failure ?? String(format: "%.1f%%", r.share * 100))") }
    return failed.isEmpty
}

private func measureAccuracy(of app: AccuracyApp, dumper: String, limit: Int, pictures: String?, firstHoverRuns: Int) -> AccuracyResult {
    var result = AccuracyResult(app: app.name)
    var firstHoverProbe: (AccuracyProbe, (Double, Double))?
    do {
        try withPrivateSessionBus { bus in
            let session = try Session(size: "1600x1000", environment: bus)
            defer { session.stop() }
            let probe = try PointerShapeProbe(session: session)
            try session.control.movePointer(x: 1599, y: 999)
            let process = try session.launch(try app.arguments(scratch: session.runtimeDirectory + "/profile"), environment: app.environment(in: session, bus: bus))
            let window = try session.waitForWindow(app.window, timeout: 60)
            Thread.sleep(forTimeInterval: app.settle)
            let placed = try session.waitForWindow(app.window, timeout: 5)
            let elements = try AccessibleNode.read(dumper: dumper, pid: process.processIdentifier, environment: session.clientEnvironment.merging(bus) { $1 })
            let probes = AccuracyProbe.choose(from: elements, in: try session.control.windows(), active: placed, output: (1600, 1000), limit: limit)
            _ = window
            for (index, p) in probes.enumerated() {
                try session.control.movePointer(x: p.point.x, y: p.point.y)
                let (verdict, ms, shape) = try observe(p, probe: probe)
                result.probes += 1
                result.verdicts[verdict, default: 0] += 1
                if let ms { result.arrivals.append(ms) }
                if verdict != .right {
                    print("  \(app.name) #\(index) \(verdict): \(p.describe()) got \(describe(shape))")
                    if let pictures {
                        let file = "\(pictures)/\(app.name.filter { $0.isLetter || $0.isNumber || $0 == "-" })-\(index)-\(verdict).png"
                        _ = try? session.control.capturePNG(to: file)
                    }
                }
            }
            if firstHoverRuns > 0, let first = probes.first(where: { $0.expectation.isAdaptive && placed.contains($0.point) }) {
                firstHoverProbe = (first, (first.point.x - Double(placed.x), first.point.y - Double(placed.y)))
            }
        }
        // Each first hover in a session and on a session bus of its own: a GApplication (nautilus)
        // left on the bus would only open its window in the session before.
        if let (first, offset) = firstHoverProbe {
            for _ in 0..<firstHoverRuns {
                try withPrivateSessionBus { bus in
                    if let ms = try firstHover(app, bus: bus, offset: offset, expecting: first) { result.firstHovers.append(ms) }
                }
            }
        }
    } catch {
        result.failure = "\(error)"
    }
    return result
}

/// The pointer on `probe.point`; polled every 10 ms for 0.35 s. The verdict is the form at
/// 0.35 s; the time is when it first was right.
private func observe(_ probe: AccuracyProbe, probe reader: PointerShapeProbe) throws -> (AccuracyVerdict, Double?, TestControl.PointerShape) {
    let start = ContinuousClock.now
    var firstRight: Double?
    var shape = try reader.shape()
    while true {
        let elapsed = milliseconds(ContinuousClock.now - start)
        if firstRight == nil, probe.judge(shape) == .right { firstRight = elapsed }
        if elapsed >= 350 { break }
        Thread.sleep(forTimeInterval: 0.01)
        shape = try reader.shape()
    }
    return (probe.judge(shape), firstRight, shape)
}

/// A fresh session: the window mapped, the pointer onto the element 250 ms later; how long
/// until the form is right (nil: not within 2 s).
private func firstHover(_ app: AccuracyApp, bus: [String: String], offset: (Double, Double), expecting probe: AccuracyProbe) throws -> Double? {
    let session = try Session(size: "1600x1000", environment: bus)
    defer { session.stop() }
    let reader = try PointerShapeProbe(session: session)
    try session.control.movePointer(x: 1599, y: 999)
    try session.launch(try app.arguments(scratch: session.runtimeDirectory + "/profile"), environment: app.environment(in: session, bus: bus))
    let window = try session.waitForWindow(app.window, timeout: 60)
    Thread.sleep(forTimeInterval: 0.25)
    var moved = probe
    moved.point = (Double(window.x) + offset.0, Double(window.y) + offset.1)
    try session.control.movePointer(x: moved.point.x, y: moved.point.y)
    let start = ContinuousClock.now
    while milliseconds(ContinuousClock.now - start) < 2000 {
        if moved.judge(try reader.shape()) == .right { return milliseconds(ContinuousClock.now - start) }
        Thread.sleep(forTimeInterval: 0.005)
    }
    return nil
}

private func describe(_ s: TestControl.PointerShape) -> String {
    String(format: "%@/%@ %.0f,%.0f %.0f×%.0f", "\(s.kind)", "\(s.effect)", s.x, s.y, s.width, s.height)
}

private func percentile(_ values: [Double], _ p: Double) -> Double? {
    guard !values.isEmpty else { return nil }
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
}

private func accuracyRow(_ r: AccuracyResult) -> String {
    if let failure = r.failure { return "accuracy \(r.app): not run (\(failure))" }
    return String(format: "accuracy %@: %d elements, %d right (%.1f%%)", r.app, r.probes, r.right, r.share * 100)
}

func accuracyTable(_ results: [AccuracyResult]) -> String {
    func ms(_ v: Double?) -> String { v.map { String(format: "%.0f", $0) } ?? "-" }
    var lines = ["| app | elements | right | wrong element | wrong size | wrong form | none | arrival p50/p95 ms | first hover p50/p95 ms |",
                 "|---|---|---|---|---|---|---|---|---|"]
    var total = 0, right = 0
    for r in results {
        if let failure = r.failure { lines.append("| \(r.app) | not run: \(failure) | | | | | | | |"); continue }
        total += r.probes; right += r.right
        let v = { (k: AccuracyVerdict) in r.verdicts[k] ?? 0 }
        lines.append("| \(r.app) | \(r.probes) | \(r.right) (\(String(format: "%.1f", r.share * 100))%) | \(v(.wrongElement)) | \(v(.wrongSize)) | \(v(.wrongForm)) | \(v(.none)) | \(ms(percentile(r.arrivals, 0.5)))/\(ms(percentile(r.arrivals, 0.95))) | \(ms(percentile(r.firstHovers, 0.5)))/\(ms(percentile(r.firstHovers, 0.95))) |")
    }
    lines.append(String(format: "| all | %d | %d (%.1f%%) | | | | | | |", total, right, total == 0 ? 0 : Double(right) / Double(total) * 100))
    return lines.joined(separator: "\n")
}

/// A file of the repository this benchmark runs from (its working directory or above).
func repositoryFile(_ path: String) -> String? {
    var directory = FileManager.default.currentDirectoryPath
    while !directory.isEmpty && directory != "/" {
        let candidate = directory + "/" + path
        if FileManager.default.fileExists(atPath: candidate) { return candidate }
        directory = (directory as NSString).deletingLastPathComponent
    }
    return nil
}

