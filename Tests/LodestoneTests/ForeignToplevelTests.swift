import Foundation
import LodestoneTesting
import XCTest

/// `zwlr_foreign_toplevel_manager_v1` and `ext_foreign_toplevel_list_v1`
/// (Desktop/ForeignToplevels.swift) with a pywayland task bar (Tests/clients/taskbar_client.py)
/// and real apps: foot, gtk4-widget-factory and xterm through Xwayland are listed with their
/// titles, app_ids, states and head; activating one moves the keyboard, minimizing hides it
/// until it is restored, maximize reaches the app, close makes foot exit; a window mapped
/// later is announced, new titles are heard; stop finishes both. Misbehaving task bars get named errors.
final class ForeignToplevelTests: XCTestCase {
    private var client: String { repositoryRoot + "/Tests/clients/taskbar_client.py" }

    private func requirePywayland() throws {
        let (status, _) = try run(["python3", "-c", "import pywayland.scanner"])
        if status != 0 {
            if ProcessInfo.processInfo.environment["CI"] != nil { XCTFail("pywayland is missing; run make deps") }
            throw XCTSkip("pywayland is missing; run make deps")
        }
    }

    /// taskbar_client.py driven through its commands file.
    private final class TaskBar {
        let output: String, commands: String
        private var count = 0
        private unowned let session: Session

        init(_ session: Session) throws {
            self.session = session
            output = session.runtimeDirectory + "/taskbar.txt"
            commands = session.runtimeDirectory + "/taskbar-commands.txt"
            try createEmptyFile(atPath: commands)
            try session.launch(["python3", repositoryRoot + "/Tests/clients/taskbar_client.py", commands], output: output)
            guard try session.wait(timeout: 20, for: { textOfFile(self.output).contains("ready\n") }) else {
                throw TestFailure("taskbar_client.py did not start: \(textOfFile(output))")
            }
        }

        var text: String { textOfFile(output) }

        /// Runs one command; the lines it printed.
        @discardableResult
        func run(_ command: String) throws -> [String] {
            let before = text.count
            let handle = FileHandle(forWritingAtPath: commands)!
            handle.seekToEndOfFile()
            handle.write((command + "\n").data(using: .utf8)!)
            handle.closeFile()
            count += 1
            let mark = "ok \(count)"
            guard try session.wait(timeout: 10, for: { self.text.split(separator: "\n").contains { $0 == mark } }) else {
                throw TestFailure("taskbar_client.py did not answer '\(command)': \(text)")
            }
            let new = String(text.dropFirst(before))
            return new.split(separator: "\n").map(String.init).prefix { $0 != mark }
        }

        /// `list`: the wlr windows by title (app_id, states, outputs, parent), and the ext ones.
        func list() throws -> (wlr: [String: (appID: String, states: Set<String>, outputs: String, parent: String)], ext: [(id: String, title: String, appID: String)]) {
            var wlr: [String: (String, Set<String>, String, String)] = [:], ext: [(String, String, String)] = []
            for line in try run("list") {
                if line.hasPrefix("window ") {
                    let f = line.dropFirst(7).split(separator: "|", omittingEmptySubsequences: false).map(String.init)
                    wlr[f[0]] = (f[1], Set(f[2].split(separator: ",").map(String.init)), f[3], f[4])
                } else if line.hasPrefix("ext ") {
                    let f = line.dropFirst(4).split(separator: "|", omittingEmptySubsequences: false).map(String.init)
                    ext.append((f[0], f[1], f[2]))
                }
            }
            return (wlr, ext)
        }
    }

    func testTaskBarListsActivatesMinimizesMaximizesAndClosesRealApps() throws {
        try requirePywayland()
        for program in ["foot", "gtk4-widget-factory", "xterm"] { try requireProgram(program) }
        let (session, x11) = try startXwaylandSession()
        defer { session.stop() }
        let control = session.control
        let foot = try session.launch(["foot", "--title=taskbar-foot", "--app-id=taskbar-foot", "--override=locked-title=yes"])
        _ = try session.waitForWindow("taskbar-foot", timeout: 40)
        try session.launch(["gtk4-widget-factory"], environment: ["GDK_BACKEND": "wayland"])
        let factory = try session.waitForWindow("gtk4-widget-factory", timeout: 60)
        // Both retitle themselves (OSC 2) once the test creates `rename`.
        let rename = session.runtimeDirectory + "/rename"
        let retitle = { (title: String) in ["sh", "-c", "while [ ! -e \(rename) ]; do sleep 0.1; done; printf '\\033]2;\(title)\\007'; exec sleep 600"] }
        try session.launch(["xterm", "-title", "taskbar-xterm", "-e"] + retitle("renamed-xterm"), environment: ["DISPLAY": x11])
        _ = try session.waitForWindow("taskbar-xterm", timeout: 40)

        let bar = try TaskBar(session)
        var (wlr, ext) = try bar.list()
        XCTAssertEqual(Set(wlr.keys), ["taskbar-foot", factory.title, "taskbar-xterm"], bar.text)
        XCTAssertEqual(wlr["taskbar-foot"]?.appID, "taskbar-foot")
        XCTAssertEqual(wlr[factory.title]?.appID, "gtk4-widget-factory")
        XCTAssertEqual(wlr["taskbar-xterm"]?.appID, "XTerm", "an X11 window's app_id is its WM_CLASS class")
        for (title, w) in wlr { XCTAssertEqual(w.outputs, "HEADLESS-1", "\(title) is on the one head") }
        // The window with the keyboard, and only it, is activated.
        let activated = try control.windows().filter(\.activated).map(\.title)
        XCTAssertEqual(activated.count, 1)
        XCTAssertEqual(wlr.filter { $0.value.states.contains("activated") }.map(\.key), activated)
        XCTAssertEqual(Set(ext.map(\.title)), Set(wlr.keys))
        XCTAssertEqual(Set(ext.map(\.id)).count, 3, "each toplevel has its own identifier: \(ext)")
        XCTAssertEqual(ext.first { $0.title == factory.title }?.appID, "gtk4-widget-factory")

        // activate: the keyboard moves to foot.
        try bar.run("activate taskbar-foot")
        XCTAssertTrue(try session.wait { try control.keyboard().title == "taskbar-foot" }, "keyboard: \(String(describing: try? control.keyboard()))")
        XCTAssertEqual(try bar.list().wlr.filter { $0.value.states.contains("activated") }.map(\.key), ["taskbar-foot"])

        // minimize: off the screen, the keyboard to the window below; unminimize brings it back.
        try bar.run("minimize \(factory.title)")
        XCTAssertTrue(try session.wait { try !control.windows().contains { $0.title == factory.title } }, "\((try? control.windows()) ?? [])")
        wlr = try bar.list().wlr
        XCTAssertEqual(wlr[factory.title]?.states, ["minimized"])
        XCTAssertEqual(wlr[factory.title]?.outputs, "HEADLESS-1", "a minimized window stays listed on its head")
        try bar.run("unminimize \(factory.title)")
        XCTAssertTrue(try session.wait { try control.windows().contains { $0.title == factory.title } })
        XCTAssertTrue(try session.wait { try control.keyboard().title == factory.title })
        XCTAssertEqual(try bar.list().wlr[factory.title]?.states, ["activated"])

        // maximize reaches foot, which fills the head; unmaximize restores it.
        try bar.run("maximize taskbar-foot")
        XCTAssertTrue(try session.wait { try control.windows().first { $0.title == "taskbar-foot" }?.width == 1280 }, "\((try? control.windows()) ?? [])")
        XCTAssertTrue(try bar.list().wlr["taskbar-foot"]?.states.contains("maximized") ?? false, bar.text)
        try bar.run("unmaximize taskbar-foot")
        XCTAssertTrue(try session.wait { (try control.windows().first { $0.title == "taskbar-foot" }?.width ?? 0) < 1280 })
        XCTAssertFalse(try bar.list().wlr["taskbar-foot"]?.states.contains("maximized") ?? true, bar.text)

        // A window mapped while the task bar runs is announced.
        try session.launch(["foot", "--title=taskbar-foot-2", "--app-id=taskbar-foot"] + retitle("renamed-foot"))
        _ = try session.waitForWindow("taskbar-foot-2", timeout: 40)
        XCTAssertTrue(try session.wait { try bar.list().wlr["taskbar-foot-2"] != nil }, bar.text)

        // New titles reach both lists, from Wayland (xdg_toplevel.set_title) and X11 (_NET_WM_NAME).
        try createEmptyFile(atPath: rename)
        XCTAssertTrue(try session.wait {
            let (wlr, ext) = try bar.list()
            return wlr["renamed-foot"] != nil && wlr["renamed-xterm"] != nil && Set(ext.map(\.title)).isSuperset(of: ["renamed-foot", "renamed-xterm"])
        }, bar.text)

        // close: foot exits, both handles close, the others stay.
        try bar.run("close taskbar-foot")
        XCTAssertTrue(try session.wait(timeout: 10) { !foot.isRunning }, "foot did not exit on close")
        XCTAssertTrue(try session.wait { bar.text.contains("closed taskbar-foot\n") && bar.text.contains("ext-closed taskbar-foot\n") }, bar.text)
        (wlr, ext) = try bar.list()
        XCTAssertEqual(Set(wlr.keys), [factory.title, "renamed-xterm", "renamed-foot"])
        XCTAssertEqual(Set(ext.map(\.title)), Set(wlr.keys))

        // close reaches an X11 window too (WM_DELETE_WINDOW).
        try bar.run("close renamed-xterm")
        XCTAssertTrue(try session.wait { bar.text.contains("closed renamed-xterm\n") }, bar.text)

        try bar.run("stop")
        XCTAssertTrue(try session.wait { bar.text.contains("finished wlr\n") && bar.text.contains("finished ext\n") }, bar.text)
        XCTAssertTrue(session.compositorIsRunning)
        XCTAssertFalse(session.log.contains("protocol error"), session.log)
    }

    /// Two heads: a window's handle enters the head it is moved to and leaves the one it
    /// left, straddling both it is on both; a window whose xdg-foreign parent is another
    /// client's names that window's handle as its parent.
    func testHeadsAndParents() throws {
        try requirePywayland()
        let session = try Session(size: "800x600", extraArguments: ["--outputs", "2"])
        defer { session.stop() }
        let surfaces = repositoryRoot + "/Tests/clients/surface_client.py"
        let exportLog = session.runtimeDirectory + "/export.txt"
        try session.launch(["python3", surfaces, "export"], output: exportLog)
        XCTAssertTrue(try session.wait(timeout: 20) { textOfFile(exportLog).contains("handle ") }, textOfFile(exportLog))
        let handle = try XCTUnwrap(textOfFile(exportLog).split(separator: "\n").first { $0.hasPrefix("handle ") }).dropFirst(7)
        _ = try session.waitForWindow("exported")
        try session.launch(["python3", surfaces, "import", String(handle)])
        _ = try session.waitForWindow("imported")

        let bar = try TaskBar(session)
        var wlr = try bar.list().wlr
        XCTAssertEqual(wlr["imported"]?.parent, "exported", bar.text)
        XCTAssertEqual(wlr["exported"]?.parent, "-")

        _ = try session.control.moveWindow("exported", x: 1000, y: 100)
        XCTAssertTrue(try session.wait { try bar.list().wlr["exported"]?.outputs == "HEADLESS-2" }, bar.text)
        _ = try session.control.moveWindow("exported", x: 700, y: 100)
        wlr = try bar.list().wlr
        XCTAssertEqual(wlr["exported"]?.outputs, "HEADLESS-1,HEADLESS-2", bar.text)
        _ = try session.control.moveWindow("exported", x: 100, y: 100)
        XCTAssertEqual(try bar.list().wlr["exported"]?.outputs, "HEADLESS-1", bar.text)
        XCTAssertFalse(session.log.contains("protocol error"), session.log)
    }

    /// A negative set_rectangle is a named protocol error for that task bar only; requests
    /// on a closed handle are ignored.
    func testMisbehavingTaskBars() throws {
        try requirePywayland()
        try requireProgram("foot")
        let session = try Session()
        defer { session.stop() }
        let foot = try session.launch(["foot", "--title=closed-by-handle", "--override=locked-title=yes"])
        _ = try session.waitForWindow("closed-by-handle", timeout: 40)
        try session.launch(["python3", repositoryRoot + "/Tests/clients/surface_client.py", "idle-inhibit"])
        _ = try session.waitForWindow("idle-inhibit")

        var (status, output) = try run(["timeout", "20", "python3", client, "bad-rectangle", "idle-inhibit"], environment: session.clientEnvironment)
        XCTAssertEqual(status, 0, output)
        XCTAssertTrue(output.contains("RESULT: protocol-error"), output)
        // libwayland-client: "zwlr_foreign_toplevel_handle_v1#N: error 0: set_rectangle with a negative size -5×10"
        XCTAssertTrue(output.contains("zwlr_foreign_toplevel_handle_v1#") && output.contains("error 0: set_rectangle with a negative size"), output)

        (status, output) = try run(["timeout", "20", "python3", client, "closed-handle", "closed-by-handle"], environment: session.clientEnvironment)
        XCTAssertEqual(status, 0, output)
        XCTAssertTrue(output.contains("RESULT: ok"), output)
        XCTAssertTrue(try session.wait { !foot.isRunning })
        XCTAssertTrue(session.compositorIsRunning, session.log)
        XCTAssertEqual(try session.control.windows().map(\.title), ["idle-inhibit"])
    }
}
