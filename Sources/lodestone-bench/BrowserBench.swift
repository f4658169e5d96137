// What switching accessibility on costs a browser (issue 27): Firefox ESR and Chromium on
// Wayland in a headless Lodestone, showing Tests/Fixtures/browser-page.html from a fresh
// profile, each twice: without accessibility (Lodestone with `--legacy-apps shapes` reads no
// geometry and leaves `org.a11y.Status.IsEnabled` off; Chromium without its switch) and with
// it (Lodestone as it runs by default, switching `IsEnabled` on; Chromium with
// `--force-renderer-accessibility`, the switch Lodestone adds to a Chromium it starts). For
// each: the CPU the browser's processes use over 10 s idle, then over 10 s of scrolling (a
// wheel step down or up every 50 ms), its memory (PSS, shared pages split among the processes
// that map them) when idle and after scrolling, Lodestone's own CPU over the same 20 s, and
// with accessibility the walks' longest wake-up of the loop (what walking the page can delay a
// frame by). Figures from a loaded 2-core machine without a GPU vary by some tens of percent
// from run to run: compare the rows of one run.
import Foundation
import LodestoneTesting

func benchmarkBrowsers() {
    let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Tests/Fixtures/browser-page.html").path
    guard FileManager.default.isExecutableFile(atPath: "/usr/libexec/at-spi-bus-launcher"), FileManager.default.fileExists(atPath: page) else {
        return print("browsers: skipped (needs at-spi2-core and the repository's Tests/Fixtures)")
    }
    for browser in ["firefox-esr", "chromium"] {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/" + browser) else {
            print("browsers: \(browser) skipped (not installed; make deps installs it)")
            continue
        }
        for accessible in [false, true] { measureBrowser(browser, page: page, accessible: accessible) }
    }
}

private func measureBrowser(_ browser: String, page: String, accessible: Bool) {
    let label = "browser \(browser), accessibility \(accessible ? "on " : "off")"
    let profile = NSTemporaryDirectory() + "lodestone-bench-\(browser)-\(getpid())"
    try? FileManager.default.createDirectory(atPath: profile, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: profile) }
    do {
        try withPrivateSessionBus { bus in
            let session = try Session(size: "1400x1000", extraArguments: accessible ? [] : ["--legacy-apps", "shapes"], environment: bus)
            defer { session.stop() }
            let command: [String]
            if browser == "firefox-esr" {
                let prefs = ["browser.shell.checkDefaultBrowser": "false", "browser.startup.homepage_override.mstone": "\"ignore\"",
                             "browser.aboutwelcome.enabled": "false", "datareporting.policy.dataSubmissionEnabled": "false",
                             "toolkit.telemetry.reportingpolicy.firstRun": "false", "browser.sessionstore.resume_from_crash": "false",
                             "app.normandy.enabled": "false", "general.smoothScroll": "false"]
                try prefs.map { "user_pref(\"\($0.key)\", \($0.value));" }.joined(separator: "\n").write(toFile: profile + "/user.js", atomically: false, encoding: .utf8)
                command = ["firefox-esr", "-no-remote", "-profile", profile, "file://" + page]
            } else {
                command = ["chromium", "--ozone-platform=wayland", "--no-first-run", "--no-default-browser-check", "--disable-gpu",
                           "--disable-smooth-scrolling", "--user-data-dir=" + profile] + (getuid() == 0 ? ["--no-sandbox"] : [])
                    + (accessible ? ["--force-renderer-accessibility"] : []) + ["file://" + page]
            }
            let process = try session.launch(command, environment: bus.merging(["MOZ_ENABLE_WAYLAND": "1"]) { $1 })
            let window = try session.waitForWindow(nil, timeout: 120) { $0.title.hasPrefix("Lodestone page") }
            // On the page's button as the window maps (its first hover), then the start-up settles.
            // The button is at 380 px in the page, below the browser's own bars (88 px in
            // Firefox ESR 153, 154 in Chromium 156, as BrowserAccessibilityTests finds them).
            try session.control.movePointer(x: Double(window.x) + 100, y: Double(window.y) + (browser == "firefox-esr" ? 88 : 154) + 400)
            sleep(15)
            let root = process.processIdentifier
            let lodestone = session.compositorPID
            var cpu = ProcessCPU(root: root), lodestoneCPU = ProcessCPU(root: lodestone, tree: false)
            sleep(10)
            let idle = cpu.seconds(), idlePSS = ProcessCPU.pss(root: root)
            var steps = 0
            let start = Date()
            while Date().timeIntervalSince(start) < 10 {
                // 20 steps down, 20 up: the page keeps moving.
                try session.control.axis(value: steps % 40 < 20 ? 10 : -10, discrete: steps % 40 < 20 ? 1 : -1, source: 0)
                steps += 1
                usleep(50_000)
            }
            let scrolling = cpu.seconds(), scrolledPSS = ProcessCPU.pss(root: root)
            let compositor = lodestoneCPU.seconds()
            let walks = walkFigures(session.log)
            // The pointer came onto the page as its window mapped: when its elements were in place.
            if accessible, let text = accessibilityLine(session.log, saying: "elements of", "the pointer came") {
                print("\(label): first hover: \(text)")
            }
            if accessible, let text = accessibilityLine(session.log, saying: adaptsWords) {
                print("\(label): first hover, the pointer's form: \(text)")
            }
            print(String(format: "%@: CPU idle %.1f %%, scrolling %.1f %%; PSS idle %.0f MB, after scrolling %.0f MB; Lodestone's CPU %.1f %%",
                         label, idle * 10, scrolling * 10, idlePSS / 1024, scrolledPSS / 1024, compositor * 5)
                + (accessible ? String(format: "; %d walks, the longest wake-up of the loop %.2f ms wall, %.2f ms CPU", walks.count, walks.wall, walks.cpu) : ""))
        }
    } catch {
        print("\(label): \(error)")
    }
}

/// CPU seconds of a process and (with `tree`) its descendants since the last call, from
/// /proc/PID/stat (utime + stime); the descendants are found again at each call (a browser
/// starts and ends content processes).
private struct ProcessCPU {
    let root: Int32, tree: Bool
    private var last: Double = 0
    init(root: Int32, tree: Bool = true) { self.root = root; self.tree = tree; last = total() }

    mutating func seconds() -> Double {
        let now = total()
        defer { last = now }
        return now - last
    }

    private func total() -> Double {
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        return (tree ? Self.descendants(of: root) : [root]).reduce(0) { sum, pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return sum }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            // After the name: state is field 3, utime 14 and stime 15.
            guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return sum }
            return sum + (user + system) / ticks
        }
    }

    /// `root` and every process below it.
    static func descendants(of root: Int32) -> [Int32] {
        var children: [Int32: [Int32]] = [:]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int32(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { continue }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 1, let parent = Int32(fields[1]) { children[parent, default: []].append(pid) }
        }
        var all = [root], i = 0
        while i < all.count { all += children[all[i]] ?? []; i += 1 }
        return all
    }

    /// Kilobytes of proportional set size (`Pss` in /proc/PID/smaps_rollup) of `root` and its descendants.
    static func pss(root: Int32) -> Double {
        descendants(of: root).reduce(0) { sum, pid in
            let rollup = (try? String(contentsOfFile: "/proc/\(pid)/smaps_rollup", encoding: .utf8)) ?? ""
            let line = rollup.split(separator: "\n").first { $0.hasPrefix("Pss:") }
            return sum + (line.flatMap { Double($0.split(separator: " ")[1]) } ?? 0)
        }
    }
}
