import Foundation
import LodestoneTesting
import XCTest

/// zwlr_layer_shell_v1 with the real tools a desktop starts: waybar (a panel whose exclusive
/// zone shrinks what a maximized window fills, and whose buttons take the pointer), fuzzel (a
/// launcher holding the keyboard exclusively) and mako (notifications in the top-right
/// corner); and Tests/clients/layer_client.py for popups, a head unplugged under a surface,
/// and the protocol errors. The test protocol names a layer surface under the pointer or
/// holding the keyboard by its namespace, with the app_id "zwlr_layer_surface_v1".
final class LayerShellTests: XCTestCase {
    private var session: Session!

    override func tearDown() {
        session?.stop()
        session = nil
    }

    private var layerClient: String { repositoryRoot + "/Tests/clients/layer_client.py" }
    private let layerAppID = "zwlr_layer_surface_v1"

    private func requirePywayland() throws {
        let (status, _) = try run(["python3", "-c", "import pywayland"])
        if status != 0 {
            if ProcessInfo.processInfo.environment["CI"] != nil { XCTFail("pywayland is missing; run make deps") }
            throw XCTSkip("pywayland is missing; run make deps")
        }
    }

    /// Moves the pointer to (x, y) and names the surface under it (title, app_id).
    private func under(_ x: Double, _ y: Double) throws -> (title: String, appID: String) {
        let p = try session.control.movePointer(x: x, y: y)
        return (p.title, p.appID)
    }

    /// waybar's bar (30 px, exclusive) along the top: a window maximized beside it fills the
    /// 770 px below, and the whole head once waybar is gone. A click on one of its buttons
    /// reaches it (its on-click runs); the adaptive pointer over the button is reported.
    func testWaybarExclusiveZoneShrinksTheMaximizedWindow() throws {
        try requireProgram("waybar")
        try requirePywayland()
        session = try Session()
        let directory = session.runtimeDirectory
        let clicked = directory + "/clicked"
        let config = directory + "/waybar.json"
        try """
        { "layer": "top", "position": "top", "height": 30,
          "modules-left": ["custom/probe"], "modules-right": ["clock"],
          "custom/probe": { "format": "Probe", "on-click": "touch \(clicked)", "tooltip": false } }
        """.write(toFile: config, atomically: true, encoding: .utf8)
        let waybar = try session.launch(["waybar", "--config", config], output: directory + "/waybar.txt")
        XCTAssertTrue(try session.wait(timeout: 20) { try self.under(640, 15) == ("waybar", self.layerAppID) },
                      "waybar's bar never appeared:\n\(textOfFile(directory + "/waybar.txt"))")

        let output = directory + "/maximized.txt"
        try session.launch(["python3", layerClient, "maximized", "behind"], output: output)
        let window = try session.waitForWindow("behind") { $0.height == 770 }
        XCTAssertEqual([window.x, window.y, window.width, window.height], [0, 30, 1280, 770], textOfFile(output))
        XCTAssertTrue(textOfFile(output).contains("configure 1280 770"), textOfFile(output))
        // The bar is above the window: the pointer there is waybar's, just below the window's.
        XCTAssertEqual(try under(640, 29).title, "waybar")
        XCTAssertEqual(try under(640, 31).title, "behind")

        // A click on its button runs the button's command: input reaches layer surfaces.
        XCTAssertEqual(try under(20, 15).title, "waybar")
        let probe = try PointerShapeProbe(session: session)
        let shape = try probe.shape()
        try session.control.click()
        XCTAssertTrue(try session.wait { FileManager.default.fileExists(atPath: clicked) }, "waybar's on-click did not run")
        // waybar (GTK 3) declares no adaptive regions and sets the default arrow cursor over its
        // buttons; it is a layer surface, not a window, so no AT-SPI tree is read for it: the
        // adaptive pointer stays its plain circle there, targeting nothing.
        XCTAssertEqual(shape.kind, .circle, "\(shape)")
        XCTAssertFalse(shape.targeted, "\(shape)")

        // waybar gone: the window fills the whole head again.
        waybar.terminate()
        let full = try session.waitForWindow("behind") { $0.height == 800 }
        XCTAssertEqual([full.x, full.y, full.width, full.height], [0, 0, 1280, 800])
        XCTAssertFalse(session.log.contains("protocol error"), session.log)
    }

    /// The adaptive pointer over layer surfaces as over windows. A bar declaring an
    /// adaptive_pointer_v1 region (layer_client.py button): the pointer highlights its button.
    /// waybar, which declares none: its AT-SPI tree is read for the layer surface as for a
    /// window (found by pid, its frame by the title GTK gives it, "waybar"), but waybar 0.9.17
    /// draws its custom and clock modules as GtkLabels in GtkEventBoxes, which AT-SPI
    /// publishes as labels with no action: nothing to target, so the pointer stays a circle
    /// there (its workspace and task bar buttons are GtkButtons, but need sway's IPC or
    /// zwlr_foreign_toplevel_manager_v1). Its cursor over them is the default arrow.
    func testAdaptivePointerOverLayerSurfaces() throws {
        try requireProgram("waybar")
        try requirePywayland()
        try requireAccessibilityBus()
        let bus = try PrivateSessionBus()
        defer { bus.stop() }
        let f = try AdaptiveFixture(environment: bus.environment)
        defer { f.session.stop() }
        let directory = f.session.runtimeDirectory
        let bar = directory + "/bar.txt"
        try f.session.launch(["python3", layerClient, "button"], output: bar)
        XCTAssertTrue(try f.session.wait { textOfFile(bar).contains("mapped") }, textOfFile(bar))
        let button = try f.targeted(70, 20)
        XCTAssertTrue(button.targeted, "\(button)")
        XCTAssertEqual(button.effect, .highlight, "\(button)")
        XCTAssertEqual(button.kind, .roundedRect, "\(button)")
        XCTAssertEqual(button.midX, 70, accuracy: 2, "\(button)")
        XCTAssertEqual(button.midY, 20, accuracy: 2, "\(button)")

        let config = directory + "/waybar.json"
        try """
        { "layer": "top", "position": "top", "height": 30, "modules-left": ["custom/probe"],
          "custom/probe": { "format": "Probe", "on-click": "true", "tooltip": false } }
        """.write(toFile: config, atomically: true, encoding: .utf8)
        try f.session.launch(["waybar", "--config", config], environment: bus.environment.merging(["GDK_BACKEND": "wayland"]) { $1 },
                             output: directory + "/waybar.txt")
        // Below the first bar, which reserved the top 40 px.
        XCTAssertTrue(try f.session.wait(timeout: 20) { try f.control.movePointer(x: 640, y: 55).title == "waybar" },
                      "waybar's bar never appeared:\n\(textOfFile(directory + "/waybar.txt"))")
        XCTAssertTrue(try f.session.wait(timeout: 20) { f.session.log.contains("accessibility: walked 'waybar'") },
                      "waybar's AT-SPI tree was never read:\n\(f.session.log.suffix(3000))")
        let label = try f.move(to: 20, 55)
        XCTAssertEqual(label.kind, .circle, "\(label)")
        XCTAssertFalse(label.targeted, "\(label)")
    }

    /// fuzzel holds the keyboard while open: activating the window
    /// behind it does not take the keyboard away. Typing an app's name and Return starts it
    /// (a desktop file in XDG_DATA_HOME that writes a file), fuzzel closes, and the keyboard
    /// goes back to the window.
    func testFuzzelTakesTheKeyboardAndStartsTheChosenApp() throws {
        try requireProgram("fuzzel")
        try requirePywayland()
        session = try Session()
        let directory = session.runtimeDirectory
        try session.launch(["python3", layerClient, "maximized", "behind"], output: directory + "/behind.txt")
        _ = try session.waitForWindow("behind") { $0.activated }

        let data = directory + "/data", started = directory + "/started"
        try FileManager.default.createDirectory(atPath: data + "/applications", withIntermediateDirectories: true)
        try """
        [Desktop Entry]
        Type=Application
        Name=Lodestoneprobe
        Exec=touch \(started)
        """.write(toFile: data + "/applications/lodestoneprobe.desktop", atomically: true, encoding: .utf8)
        // The selected row in magenta, to see when fuzzel lists the app: it reads the desktop
        // files in a thread, and a Return before they are in runs the typed text as a command
        // (a loaded CI run: "lodestoneprobe: failed to execute").
        let fuzzel = try session.launch(["fuzzel", "--selection-color=ff00ffff"], environment: ["XDG_DATA_HOME": data, "XDG_DATA_DIRS": directory + "/none"],
                                        output: directory + "/fuzzel.txt")
        XCTAssertTrue(try session.wait(timeout: 20) { try self.session.control.keyboard().title == "launcher" },
                      "fuzzel never took the keyboard:\n\(textOfFile(directory + "/fuzzel.txt"))")
        XCTAssertEqual(try session.control.keyboard().appID, layerAppID)
        // Exclusive: the window activated behind it does not get the keyboard.
        _ = try session.control.activateWindow("behind")
        XCTAssertEqual(try session.control.keyboard().title, "launcher")

        for c in "lodestoneprobe" { try session.control.tap(Self.letters[c]!) }
        XCTAssertTrue(try session.wait(timeout: 20) { try self.session.screenshot().pixels.contains { $0 & 0xff_ffff == 0xff_00ff } },
                      "fuzzel never listed the app:\n\(textOfFile(directory + "/fuzzel.txt"))")
        try session.control.tap(28)  // Return
        XCTAssertTrue(try session.wait { FileManager.default.fileExists(atPath: started) }, "fuzzel did not start the app:\n\(textOfFile(directory + "/fuzzel.txt"))")
        XCTAssertTrue(try session.wait { !fuzzel.isRunning }, "fuzzel did not close")
        XCTAssertTrue(try session.wait { try self.session.control.keyboard().title == "behind" },
                      "the keyboard did not go back to the window: \(String(describing: try? session.control.keyboard()))")
        // fuzzel 1.8.2 binds wl_seat at version 4 and calls wl_seat.release (since 5) as it
        // exits: libwayland ends it with this error under any compositor. No other error. (Its
        // name may be "?": a loaded CI run's fuzzel was gone before its name was read.)
        let known = "pid \(fuzzel.processIdentifier) ", release = "wl_display@1 error 1: invalid method 3 (since 4 < 5), object wl_seat@"
        let errors = session.log.split(separator: "\n").filter { $0.contains("protocol error") && !($0.contains(known) && $0.contains(release)) }
        XCTAssertEqual(errors, [], session.log)
    }

    private static let letters: [Character: UInt32] = {
        var keys: [Character: UInt32] = [:]
        let rows: [(String, UInt32)] = [("qwertyuiop", 16), ("asdfghjkl", 30), ("zxcvbnm", 44)]
        for (row, first) in rows { for (i, c) in row.enumerated() { keys[c] = first + UInt32(i) } }
        return keys
    }()

    /// mako shows what `notify-send` sends in the top-right corner (its default anchor), on
    /// the top layer: the pointer there is over "notifications", the pixels there are drawn,
    /// and the same place on the left is not. The pointer waits where the notification
    /// appears, as a person's often does: mako 1.7 reads its surface's output when the
    /// pointer enters, and crashed while Lodestone sent `wl_pointer.enter` before the
    /// surface's `wl_surface.enter` (a loaded CI run; dmesg: "mako segfault at 3c").
    func testMakoShowsANotificationInTheTopRightCorner() throws {
        for tool in ["mako", "notify-send", "dbus-daemon", "dbus-send"] { try requireProgram(tool) }
        let bus = try PrivateSessionBus()
        defer { bus.stop() }
        session = try Session()
        let directory = session.runtimeDirectory
        let mako = try session.launch(["mako"], environment: bus.environment, output: directory + "/mako.txt")
        // Its name owned before notify-send, or the bus would start another mako itself
        // (fr.emersion.mako.service) without WAYLAND_DISPLAY.
        XCTAssertTrue(try session.wait {
            try run(["dbus-send", "--bus=\(bus.address)", "--print-reply=literal", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
                     "org.freedesktop.DBus.NameHasOwner", "string:org.freedesktop.Notifications"]).output.contains("true")
        }, "mako never owned org.freedesktop.Notifications:\n\(textOfFile(directory + "/mako.txt"))")
        let before = try session.screenshot("before")
        XCTAssertEqual(try under(1280 - 10 - 150, 30).title, "", "nothing there yet")
        let (status, output) = try run(["notify-send", "Lodestone", "a notification from the test"],
                                       environment: session.clientEnvironment.merging(bus.environment) { $1 })
        XCTAssertEqual(status, 0, output)
        // mako's defaults: 300 wide, 10 px from the top and right edges.
        XCTAssertTrue(try session.wait(timeout: 20) { try self.under(1280 - 10 - 150, 30) == ("notifications", self.layerAppID) },
                      "no notification in the top-right corner:\n\(textOfFile(directory + "/mako.txt"))\n\(session.log.suffix(4000))")
        XCTAssertNotEqual(try under(160, 30).title, "notifications")
        // The pointer away from both corners, so the screenshot shows only the surfaces.
        _ = try under(640, 600)
        let shot = try session.screenshot("notification")
        let right = shot.distinctColors(x: 1280 - 300, y: 10, width: 290, height: 40)
        XCTAssertGreaterThan(right, 2, "the notification drew nothing")
        XCTAssertEqual(before.distinctColors(x: 1280 - 300, y: 10, width: 290, height: 40), 1, "something was there before")
        XCTAssertEqual(shot.distinctColors(x: 10, y: 10, width: 290, height: 40), 1, "the notification is not on the right")
        XCTAssertFalse(session.log.contains("protocol error"), session.log)
        XCTAssertTrue(mako.isRunning, "mako ended (status \(mako.terminationStatus)):\n\(textOfFile(directory + "/mako.txt"))")
    }

    /// A layer surface's popup (get_popup) is placed beside it and takes the pointer; a
    /// surface on a head that is unplugged is closed.
    func testLayerPopupAndSurfaceClosedWithItsHead() throws {
        try requirePywayland()
        session = try Session()
        let directory = session.runtimeDirectory
        let output = directory + "/popup.txt"
        try session.launch(["python3", layerClient, "popup"], output: output)
        XCTAssertTrue(try session.wait { textOfFile(output).contains("popup mapped") }, textOfFile(output))
        XCTAssertTrue(textOfFile(output).contains("surface configure 1280 40"), textOfFile(output))
        // Below the anchor rect's bottom-left corner (16, 32), 64×32.
        XCTAssertTrue(textOfFile(output).contains("popup configure 16 32 64 32"), textOfFile(output))
        XCTAssertTrue(try session.wait { try self.under(16 + 32, 32 + 16) == ("lodestone-test", self.layerAppID) })
        XCTAssertEqual(try session.control.popups().count, 1)
        // on_demand: a click on the surface gives it the keyboard.
        XCTAssertEqual(try under(600, 20).title, "lodestone-test")
        try session.control.click()
        XCTAssertEqual(try session.control.keyboard().title, "lodestone-test")

        _ = try session.control.addOutput("HEADLESS-2", width: 640, height: 480)
        let second = directory + "/second.txt"
        try session.launch(["python3", layerClient, "last-output"], output: second)
        XCTAssertTrue(try session.wait { textOfFile(second).contains("mapped") }, textOfFile(second))
        XCTAssertTrue(try session.wait { try self.under(1280 + 640 - 16, 16).title == "lodestone-test" })
        _ = try session.control.removeOutput("HEADLESS-2")
        XCTAssertTrue(try session.wait { textOfFile(second).contains("closed") }, textOfFile(second))
        XCTAssertTrue(session.compositorIsRunning)
    }

    /// A surface unmapped with a null buffer maps again after a new initial commit; moved to
    /// the background layer with set_layer, it goes under a window that it was above.
    func testRemapAndSetLayer() throws {
        try requirePywayland()
        session = try Session()
        let output = session.runtimeDirectory + "/remap.txt"
        try session.launch(["python3", layerClient, "remap"], output: output)
        XCTAssertTrue(try session.wait { textOfFile(output).contains("background") }, textOfFile(output))
        XCTAssertEqual(try under(100, 50).title, "lodestone-test")
        try session.launch(["python3", layerClient, "maximized", "behind"], output: session.runtimeDirectory + "/behind.txt")
        _ = try session.waitForWindow("behind") { $0.height == 800 }
        XCTAssertEqual(try under(100, 50).title, "behind", "the background layer is not under the window")
        XCTAssertFalse(session.log.contains("protocol error"), session.log)
    }

    /// Each protocol error is named and ends only that client.
    func testMisbehavingLayerClientsGetNamedErrors() throws {
        try requirePywayland()
        session = try Session()
        let cases: [(String, String)] = [
            ("invalid-layer", "zwlr_layer_shell_v1#6: error 1: "), ("already-constructed", "zwlr_layer_shell_v1#6: error 2: "),
            ("role", "zwlr_layer_shell_v1#6: error 0: "), ("invalid-anchor", ": error 2: anchor 16"),
            ("zero-width", ": error 1: width 0 without"), ("invalid-keyboard", ": error 3: "),
            ("buffer-before-configure", ": error 0: commit with a buffer"), ("bad-ack", ": error 0: ack_configure"),
            ("set-layer-invalid", ": error 1: layer 7"), ("popup-with-parent", ": error 0: get_popup"),
        ]
        for (mode, error) in cases {
            let (status, output) = try run(["timeout", "20", "python3", layerClient, mode], environment: session.clientEnvironment)
            XCTAssertEqual(status, 0, "\(mode): \(output)")
            XCTAssertTrue(output.contains("RESULT: protocol-error"), "\(mode): \(output)")
            XCTAssertTrue(output.contains(error), "\(mode): expected '\(error)' in \(output)")
            if mode.hasPrefix("invalid-a") || mode.hasPrefix("zero") || mode.hasPrefix("buffer") || mode.hasPrefix("bad") || mode.hasPrefix("set") || mode.hasPrefix("popup") {
                XCTAssertTrue(output.contains("zwlr_layer_surface_v1#"), "\(mode): \(output)")
            }
        }
        XCTAssertTrue(session.compositorIsRunning)
        XCTAssertEqual(try session.control.windows().count, 0)
    }
}
