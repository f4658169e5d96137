import Foundation
import LodestoneTesting
import XCTest

/// Each app used for a minute the way a person's session uses it (issue 23), on the real clock,
/// in its own headless Lodestone: it idles, the pointer wanders over its header bar, buttons and
/// text fields, leaves and re-enters five times, opens a menu and moves onto it, types into a text
/// field, drags the window by its title bar and closes a secondary window. Once with the adaptive
/// pointer (which reads every cursor image the app attaches) and once with `--pointer client`
/// (which shows them). After every step the app must still run; at the end its window must
/// still be drawn, and the log must hold no protocol error.
///
/// RealAppInteractionTests entered a GTK 4 window at one point only, so GTK 4 showed one cursor
/// image and lived; ordinary wandering shows several and used to get every GTK 4 app killed.
final class AppSessionTests: XCTestCase {
    /// An app, and where a person would put the pointer, relative to its window geometry.
    struct App {
        var name: String
        var arguments: [String]
        var environment: [String: String] = [:]
        /// Its window's title or app_id.
        var window: String
        /// Needs the X11 display (Xwayland).
        var x11 = false
        var size = "1280x800"
        /// An empty spot of its title bar or header bar (a point on Lodestone's own title bar,
        /// above the geometry, for apps with server-side decorations).
        var titleBar: (TestControl.WindowState) -> (Double, Double)
        /// A text field (or the terminal), and how to check that typing reached it.
        var textField: ((TestControl.WindowState) -> (Double, Double))?
        var typing: Typing = .anything
        /// What opens a popup menu: where to click, and with which button.
        var menu: ((TestControl.WindowState) -> (Double, Double), button: UInt32)?
        /// Keys (evdev codes, held in order, then released) that open a secondary window with this
        /// title or app_id, which is then closed as its close button does (xdg_toplevel.close).
        var secondary: (keys: [UInt32], window: (TestControl.WindowState) -> Bool)?
        /// Distinct colours the drawn window has at least.
        var minColors = 20
    }

    enum Typing {
        /// Any keys; the app must live and keep the keyboard.
        case anything
        /// A shell: `touch NAME` and Enter must create the file in its directory.
        case shell(directory: String)
    }

    // evdev key codes
    static let escape: UInt32 = 1, enter: UInt32 = 28, leftCtrl: UInt32 = 29, leftShift: UInt32 = 42
    static let keyO: UInt32 = 24, slash: UInt32 = 53, space: UInt32 = 57
    static let rightButton: UInt32 = 0x111
    /// "touch lodestone" without the Enter.
    static let touchLodestone: [UInt32] = [20, 24, 22, 46, 35, 57, 38, 24, 32, 18, 31, 20, 24, 49, 18]

    static let gtkWayland = ["GDK_BACKEND": "wayland", "GSK_RENDERER": "cairo", "NO_AT_BRIDGE": "1"]
    /// A GTK 4 header bar's empty middle, and a client-side title bar's.
    static func header(_ w: TestControl.WindowState) -> (Double, Double) { (Double(w.x + w.width / 2 - 150), Double(w.y + 20)) }
    /// Lodestone's own title bar, above the window's geometry.
    static func serverTitleBar(_ w: TestControl.WindowState) -> (Double, Double) { (Double(w.x + w.width / 2), Double(w.y - 15)) }
    static func centre(_ w: TestControl.WindowState) -> (Double, Double) { (Double(w.x + w.width / 2), Double(w.y + w.height / 2)) }
    /// Ctrl+? (GTK's keyboard shortcuts window).
    static let ctrlQuestion: [UInt32] = [leftCtrl, leftShift, slash]

    // MARK: GTK 4 (and so every GNOME app)

    func testGtk4Demo() throws {
        try both(App(name: "gtk4-demo", arguments: ["gtk4-demo"], environment: Self.gtkWayland, window: "gtk4-demo",
                     titleBar: Self.header,
                     // The search entry above the list of demos (shown by typing into the list).
                     textField: { (Double($0.x + 120), Double($0.y + 200)) },
                     // The source view's context menu.
                     menu: ({ (Double($0.x + $0.width * 3 / 4), Double($0.y + $0.height / 2)) }, Self.rightButton),
                     secondary: ([59], { $0.appID == "gtk4-demo" && $0.title.contains("About") })))
    }

    func testGtk4WidgetFactory() throws {
        try both(App(name: "gtk4-widget-factory", arguments: ["gtk4-widget-factory"], environment: Self.gtkWayland,
                     window: "GTK Widget Factory", size: "1600x1000", titleBar: { (Double($0.x + 200), Double($0.y + 22)) },
                     // The first combo box's entry.
                     textField: { (Double($0.x + 230), Double($0.y + 73)) },
                     // The header bar's menu button, left of the close button.
                     menu: ({ (Double($0.x + $0.width - 71), Double($0.y + 22)) }, TestControl.leftButton),
                     secondary: (Self.ctrlQuestion, { $0.title != "GTK Widget Factory" && $0.appID == "gtk4-widget-factory" }),
                     minColors: 50))
    }

    func testGnomeCalculator() throws {
        try both(App(name: "gnome-calculator", arguments: ["gnome-calculator"], environment: Self.gtkWayland,
                     window: "Calculator", titleBar: { (Double($0.x + $0.width / 2), Double($0.y + 20)) },
                     textField: { (Double($0.x + $0.width / 2), Double($0.y + 90)) },
                     menu: ({ (Double($0.x + $0.width - 60), Double($0.y + 22)) }, TestControl.leftButton),
                     secondary: (Self.ctrlQuestion, { $0.appID == "gnome-calculator" && $0.title != "Calculator" })))
    }

    func testGnomeTextEditor() throws {
        try both(App(name: "gnome-text-editor", arguments: ["gnome-text-editor", "--standalone"], environment: Self.gtkWayland,
                     window: "gnome-text-editor", titleBar: Self.header,
                     textField: { (Double($0.x + $0.width / 2), Double($0.y + $0.height / 2)) },
                     // The text view's context menu.
                     menu: ({ (Double($0.x + $0.width / 2), Double($0.y + $0.height / 2)) }, Self.rightButton),
                     secondary: (Self.ctrlQuestion, { $0.appID == "gnome-text-editor" && !$0.title.contains("Text Editor") })))
    }

    // MARK: GTK 3, Qt 6

    func testGtk3Demo() throws {
        try both(App(name: "gtk3-demo", arguments: ["gtk3-demo"], environment: Self.gtkWayland, window: "gtk3-demo",
                     titleBar: { (Double($0.x + 220), Double($0.y + 22)) },
                     textField: { (Double($0.x + 520), Double($0.y + 420)) },
                     // The right-click menu of the Info page's text view.
                     menu: ({ (Double($0.x + 520), Double($0.y + 420)) }, Self.rightButton)))
    }

    func testQt6Linguist() throws {
        try both(App(name: "linguist", arguments: ["/usr/lib/qt6/bin/linguist"], environment: ["QT_QPA_PLATFORM": "wayland"],
                     window: "Qt Linguist", titleBar: Self.serverTitleBar,
                     // "File" in the menu bar, at the window's top.
                     menu: ({ (Double($0.x + 20), Double($0.y + 8)) }, TestControl.leftButton),
                     // File > Open: a file dialog of its own.
                     secondary: ([Self.leftCtrl, Self.keyO], { $0.title != "Qt Linguist" && $0.appID.contains("linguist") })))
    }

    // MARK: Terminals, SDL

    func testFoot() throws {
        let directory = try scratchDirectory("foot")
        try both(App(name: "foot", arguments: ["foot", "--override=shell=/bin/sh", "--working-directory=" + directory], window: "foot",
                     titleBar: Self.serverTitleBar, textField: Self.centre, typing: .shell(directory: directory), minColors: 4))
    }

    func testWestonTerminal() throws {
        let directory = try scratchDirectory("weston-terminal")
        try both(App(name: "weston-terminal", arguments: ["sh", "-c", "cd '\(directory)' && exec weston-terminal --shell=/bin/sh"],
                     window: "Wayland Terminal", titleBar: { (Double($0.x + $0.width / 2), Double($0.y + 12)) },
                     textField: Self.centre, typing: .shell(directory: directory), minColors: 4))
    }

    func testSDL2() throws {
        // SDL's window-manager test: a resizable window that draws and logs every event.
        try both(App(name: "testwm2", arguments: ["/usr/libexec/installed-tests/SDL2/testwm2"],
                     environment: ["SDL_VIDEODRIVER": "wayland"], window: "testwm2",
                     // Lodestone's title bar. No click inside: testwm2 answers one with a message box
                     // run by zenity, a process of its own that outlives the test.
                     titleBar: Self.serverTitleBar, minColors: 2))
    }

    // MARK: X11 through Xwayland

    func testXterm() throws {
        let directory = try scratchDirectory("xterm")
        try both(App(name: "xterm", arguments: ["sh", "-c", "cd '\(directory)' && exec xterm -T xterm-session -geometry 80x24 -e /bin/sh"],
                     window: "xterm-session", x11: true, titleBar: Self.serverTitleBar, textField: Self.centre,
                     typing: .shell(directory: directory), minColors: 2))
    }

    func testGtk3DemoOnX11() throws {
        try both(App(name: "gtk3-demo (X11)", arguments: ["gtk3-demo"], environment: ["GDK_BACKEND": "x11", "NO_AT_BRIDGE": "1"],
                     window: "Gtk3-demo", x11: true, titleBar: { (Double($0.x + 220), Double($0.y + 22)) },
                     textField: { (Double($0.x + 520), Double($0.y + 420)) }))
    }

    // MARK: The minute

    /// The whole sequence with the adaptive pointer, then with the app's own cursor images.
    private func both(_ app: App, file: StaticString = #filePath, line: UInt = #line) throws {
        let program = app.arguments[0] == "sh" ? app.name : app.arguments[0]
        if program.hasPrefix("/") {
            guard FileManager.default.isExecutableFile(atPath: program) else {
                if ProcessInfo.processInfo.environment["CI"] != nil { return XCTFail("\(program) is not installed; run make deps") }
                throw XCTSkip("\(program) is not installed; run make deps")
            }
        } else {
            try requireProgram(program.split(separator: " ").first.map(String.init) ?? program)
        }
        if app.x11 { try requireProgram("Xwayland") }
        for pointer in ["adaptive", "client"] {
            try minute(app, pointer: pointer, file: file, line: line)
        }
    }

    private func minute(_ app: App, pointer: String, file: StaticString, line: UInt) throws {
        let session = try Session(size: app.size, extraArguments: ["--pointer", pointer])
        defer { session.stop() }
        var environment = app.environment
        if app.x11 {
            guard let display = session.x11Display else { return XCTFail("Lodestone offers no X11 display:\n\(session.log)", file: file, line: line) }
            environment["DISPLAY"] = display
        }
        let process = try session.launch(app.arguments, environment: environment)
        let person = Person(app: app, session: session, process: process, pointer: pointer, file: file, line: line)
        var window = try session.waitForWindow(app.window, timeout: 40)

        // Idle, as a person reads the window before touching it.
        usleep(2_000_000)
        guard person.alive("idling 2 s") else { return }
        try person.wander(over: window)
        guard person.alive("wandering over the window") else { return }
        try person.leaveAndReenter(window)
        guard person.alive("leaving and re-entering") else { return }
        if let menu = app.menu {
            try person.openMenu(at: menu.0(window), button: menu.button)
            guard person.alive("the menu") else { return }
        }
        if let field = app.textField {
            try person.type(at: field(window))
            guard person.alive("typing") else { return }
        }
        window = try person.drag(byTitleBar: window)
        guard person.alive("dragging the title bar") else { return }
        if let secondary = app.secondary {
            try person.openAndClose(secondary.keys, secondary.window, over: window)
            guard person.alive("closing the secondary window") else { return }
        }
        try person.assertDrawn(window, "at the end")
        person.assertNoProtocolError()
    }

    private func scratchDirectory(_ name: String) throws -> String {
        let directory = NSTemporaryDirectory() + "lodestone-\(name)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: directory) }
        return directory
    }
}
