import Foundation
import LodestoneTesting
import XCTest

/// A default session (issue 38, item 7): config.toml's `[session] startup` programs run once
/// the display is ready, with WAYLAND_DISPLAY set, and Super+Return starts the terminal
/// (`session.terminal`); the installed default session.toml starts waybar; bad values stop
/// start-up with the file, line and key.
final class SessionStartupTests: XCTestCase {
    private var session: Session?
    private var directory = ""

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "lodestone-session-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    override func tearDown() {
        session?.stop()
        session = nil
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// The startup programs run with the session's WAYLAND_DISPLAY: one writes it to a file,
    /// waybar puts its bar up. Super+Return starts the configured terminal (foot), whose
    /// window takes the keyboard.
    func testStartupProgramsRunAndSuperReturnStartsTheTerminal() throws {
        try requireProgram("waybar")
        try requireProgram("foot")
        let waybarConfig = directory + "/waybar.json"
        try #"{ "layer": "top", "position": "top", "height": 30, "modules-left": ["clock"] }"#
            .write(toFile: waybarConfig, atomically: true, encoding: .utf8)
        let config = directory + "/config.toml"
        try """
        [session]
        startup = ["echo \\"$WAYLAND_DISPLAY\\" > \(directory)/display", "exec waybar --config \(waybarConfig)"]
        terminal = "foot --title session-terminal"
        """.write(toFile: config, atomically: true, encoding: .utf8)
        let session = try Session(extraArguments: ["--config", config])
        self.session = session
        XCTAssertTrue(try session.wait { textOfFile(self.directory + "/display") == session.socket + "\n" },
                      "the first startup program did not see WAYLAND_DISPLAY=\(session.socket): '\(textOfFile(directory + "/display"))'\n\(session.log)")
        XCTAssertTrue(try session.wait(timeout: 20) { try session.control.movePointer(x: 640, y: 15).title == "waybar" },
                      "waybar did not start:\n\(session.log)")

        // Super (125) + Return (28).
        _ = try session.control.key(125, pressed: true)
        try session.control.tap(28)
        _ = try session.control.key(125, pressed: false)
        _ = try session.waitForWindow("session-terminal", timeout: 30)
        XCTAssertTrue(try session.wait { try session.control.keyboard().title == "session-terminal" }, "\(String(describing: try? session.control.keyboard()))")
    }

    /// Scripts/session.toml, the default session of the display managers' entry
    /// (Scripts/lodestone-session), starts waybar with its own default config.
    func testDefaultSessionStartsAPanel() throws {
        try requireProgram("waybar")
        let session = try Session(extraArguments: ["--config", repositoryRoot + "/Scripts/session.toml"],
                                  environment: ["XDG_CONFIG_HOME": directory, "DBUS_SESSION_BUS_ADDRESS": "unix:path=\(directory)/no-bus"])
        self.session = session
        XCTAssertTrue(try session.wait(timeout: 20) { try session.control.movePointer(x: 640, y: 10).appID == "zwlr_layer_surface_v1" },
                      "no panel along the top:\n\(session.log)")
        XCTAssertTrue(session.log.contains("started 'command -v waybar"), session.log)
    }

    /// Bad `[session]` values stop start-up: the file, line and key, and status 1.
    func testBadSessionValuesStopStartUp() throws {
        let cases = [
            ("[session]\nstartup = \"waybar\"\n", ":2: session.startup: must be an array of commands"),
            ("[session]\nstartup = [\"waybar\", 3]\n", ":2: session.startup.1: must be a command (a non-empty string), not the integer 3"),
            ("[session]\nstartup = [\"  \"]\n", ":2: session.startup.0: must be a command"),
            ("[session]\nterminal = 7\n", ":2: session.terminal: must be a command (a non-empty string) like \"foot\", not the integer 7"),
            ("[session]\nautostart = []\n", ":2: session.autostart: unknown key; [session] has startup, terminal"),
        ]
        var env = ProcessInfo.processInfo.environment
        env["XDG_RUNTIME_DIR"] = directory
        env.removeValue(forKey: "WAYLAND_DISPLAY")
        for (i, (text, message)) in cases.enumerated() {
            let file = directory + "/bad-\(i).toml"
            try text.write(toFile: file, atomically: true, encoding: .utf8)
            let (status, output) = try run([Session.executable, "--backend", "headless", "--socket", "bad-session", "--config", file, "--timeout", "5"], environment: env)
            XCTAssertEqual(status, 1, output)
            XCTAssertTrue(output.contains(file + message), "expected '\(message)' in:\n\(output)")
        }
    }
}
