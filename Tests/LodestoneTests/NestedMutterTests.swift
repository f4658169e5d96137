import CSDBus
import Foundation
import LodestoneTesting
import Rendering
import XCTest

/// Lodestone nested in GNOME's mutter (Debian 12: mutter 43, headless), which offers no
/// zxdg_decoration_manager_v1: the nested window draws its own title bar, and mutter moves,
/// maximizes, resizes and closes it for the bar's presses.
///
/// mutter's pointer is driven through its own remote-desktop D-Bus API
/// (org.gnome.Mutter.RemoteDesktop, relative motion and buttons) on a private session bus;
/// where the pointer is on Lodestone's window is read back through the nested Lodestone's
/// test control, and the requests Lodestone sends mutter from its WAYLAND_DEBUG trace. Plain
/// mutter has no way to read its screen without PipeWire (ScreenCast), so the bar's pixels
/// are checked in `NestedTitleBarTests` (the same code draws them) and here its place.
final class NestedMutterTests: XCTestCase {
    static let bar = Int32(TitleBarImage.height)

    func testInsideMutterTheOwnTitleBarMovesMaximizesResizesAndClosesTheWindow() throws {
        for program in ["mutter", "dbus-daemon"] { try requireProgram(program) }
        let mutter = try Mutter()
        defer { mutter.stop() }
        let nested = try Session(size: "400x300", nestedIn: Session.Parent(runtimeDirectory: mutter.runtimeDirectory, socket: mutter.socket),
                                 environment: ["WAYLAND_DEBUG": "client"])
        defer { nested.stop() }
        XCTAssertTrue(try nested.wait { nested.log.contains("Lodestone draws its own") }, "no own title bar in mutter:\n\(nested.log.suffix(3000))")
        // The window geometry mutter uses holds the bar: it configures 400×330.
        XCTAssertTrue(try nested.wait { nested.log.contains("xdg_toplevel@") && nested.log.contains(".configure(400, 330, array[") },
                      "mutter did not take the window geometry with the bar:\n\(mutter.log)")

        let pointer = try mutter.virtualPointer()
        // Where the output's top-left is in mutter: sweep the pointer diagonally until it is on the output.
        var origin = try pointer.findOutputOrigin(of: nested)

        // Drag the bar: past the drag threshold Lodestone asks mutter to move the window
        // (xdg_toplevel.move), which follows the pointer until the release.
        try pointer.move(to: (origin.x + 60, origin.y - Double(Self.bar) / 2))
        try pointer.button(pressed: true)
        try pointer.move(by: (10, 5))
        try nested.waitForRequest(".move(", count: 1)
        // mutter's move takes the pointer from the bar (wl_pointer.leave) at its first motion;
        // until the request has reached it, motions still go to the bar.
        func leaves() -> Int { nested.log.split(separator: "\n").filter { $0.contains("wl_pointer@") && $0.contains(".leave(") }.count }
        let before = leaves()
        XCTAssertTrue(try nested.wait { try pointer.move(by: (2, 1)); return leaves() > before }, "mutter did not start moving the window")
        for _ in 0..<4 { try pointer.move(by: (10, 5)) }
        try pointer.button(pressed: false)
        // The window moved with the pointer: by the 40 × 20 after the grab began, and the
        // probing steps along (2, 1) since mutter anchored it.
        let dragged = try pointer.findOutputOrigin(of: nested)
        let moved = (x: dragged.x - origin.x, y: dragged.y - origin.y)
        XCTAssertTrue(moved.x >= 40 && moved.x <= 80 && moved.y * 2 == moved.x, "dragging the bar moved the output by \(moved)")
        origin = dragged
        // The output is where the drag took it: the pointer maps to the same output point.
        try pointer.move(to: (origin.x + 100, origin.y + 100))
        var inside = (x: 0.0, y: 0.0)
        XCTAssertTrue(try nested.wait { let p = try nested.control.pointer(); inside = (p.x, p.y); return p.x == 100 && p.y == 100 },
                      "after the drag the pointer is at \(inside) on the output, not (100, 100)")

        // A double click on the bar: mutter maximizes the window, the output fills it below the bar.
        try pointer.move(to: (origin.x + 60, origin.y - Double(Self.bar) / 2))
        try pointer.click()
        try pointer.click()
        XCTAssertTrue(try nested.wait { try nested.captureSize() == Size(width: mutter.width, height: mutter.height - Self.bar) },
                      "maximized in mutter, the nested output is \((try? nested.captureSize())?.description ?? "?")")
        // Maximized at the screen's top-left: the maximize button (top right) restores it.
        let maximize = TitleBarImage.frame(of: .maximize, barWidth: mutter.width)
        try pointer.move(to: (Double(maximize.x + maximize.width / 2), Double(maximize.y + maximize.height / 2)))
        // As after a resize (the close button below): the window was just reconfigured, and
        // mutter 43 drops a press that follows the first motion at once (seen in a full run).
        usleep(300_000)
        try pointer.move(by: (1, 0))
        try pointer.click()
        XCTAssertTrue(try nested.wait { try nested.captureSize() == Size(width: 400, height: 300) },
                      "the maximize button did not restore: \((try? nested.captureSize())?.description ?? "?")")

        // The right edge's margin: mutter resizes (xdg_toplevel.resize, edge right) and the output follows.
        origin = try pointer.findOutputOrigin(of: nested)
        try pointer.move(to: (origin.x + 400 + 3, origin.y + 150))
        let resizes = nested.log.components(separatedBy: ".resize(").count - 1
        try pointer.button(pressed: true)
        try nested.waitForRequest(".resize(", count: resizes + 1)
        let resize = nested.log.split(separator: "\n").last { $0.contains(" -> xdg_toplevel@") && $0.contains(".resize(") } ?? ""
        XCTAssertTrue(resize.hasSuffix(", 8)"), "not a resize from the right edge (xdg_toplevel.resize_edge 8): \(resize)")
        // The resize has begun when mutter configures the window resizing (activated and
        // resizing: two states, an 8-byte array).
        XCTAssertTrue(try nested.wait {
            let lines = nested.log.split(separator: "\n")
            guard let request = lines.lastIndex(where: { $0.contains(" -> xdg_toplevel@") && $0.contains(".resize(") }) else { return false }
            return lines[request...].contains { $0.contains("xdg_toplevel@") && $0.contains(".configure(") && $0.contains("array[8]") }
        }, "mutter did not start resizing the window")
        for _ in 0..<6 { try pointer.move(by: (10, 0)) }
        try pointer.button(pressed: false)
        XCTAssertTrue(try nested.wait { try nested.captureSize() == Size(width: 460, height: 300) },
                      "after resizing by 60 the output is \((try? nested.captureSize())?.description ?? "?")")

        // mutter 43 has no wp_cursor_shape_v1: over the bar and the margin the cursor is the
        // Xcursor theme's arrow and resize image, on a cursor surface of Lodestone's.
        let lines = nested.log.split(separator: "\n")
        let cursorSurface = lines.first { $0.contains(" -> wl_pointer@") && $0.contains(".set_cursor(") && !$0.contains("nil") }?
            .firstMatch(of: /wl_surface@\d+/).map { String($0.output) }
        XCTAssertNotNil(cursorSurface, "no cursor image set over the bar")
        if let cursorSurface {
            let images = Set(lines.filter { $0.contains(" -> \(cursorSurface).attach(") }.compactMap { $0.firstMatch(of: /wl_buffer@\d+/).map { String($0.output) } })
            XCTAssertGreaterThanOrEqual(images.count, 2, "the arrow and the resize cursor are one image")
        }

        // The close button: Lodestone ends cleanly, as when mutter closes the window.
        let close = TitleBarImage.frame(of: .close, barWidth: 460)
        try pointer.move(to: (origin.x + Double(close.x + close.width / 2), origin.y - Double(Self.bar) + Double(close.y + close.height / 2)))
        // Right after a resize ends, mutter 43 drops a virtual press that follows the first
        // motion at once (seen here: enter, then no button events): give it a moment.
        usleep(300_000)
        try pointer.move(by: (1, 0))
        try pointer.click()
        let status = try nested.waitForExit()
        XCTAssertEqual(status.reason, .exit, "nested Lodestone crashed:\n\(nested.log.suffix(2000))")
        XCTAssertEqual(status.code, 0, nested.log.suffix(2000).description)
        XCTAssertFalse(mutter.log.contains("protocol error"), mutter.log)
    }
}

extension Session {
    /// Waits until Lodestone's trace (WAYLAND_DEBUG=client) has sent the parent `count`
    /// xdg_toplevel requests containing `request` (".move(").
    func waitForRequest(_ request: String, count: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        let found = try wait {
            log.split(separator: "\n").filter { $0.contains(" -> xdg_toplevel@") && $0.contains(request) }.count >= count
        }
        if !found { XCTFail("Lodestone never sent xdg_toplevel\(request)…) to the parent", file: file, line: line) }
    }
}

/// Headless mutter (`--headless --wayland --no-x11 --virtual-monitor`) on a private session
/// bus of its own (`dbus-daemon`), for its remote-desktop API.
final class Mutter {
    let runtimeDirectory: String
    let socket: String
    let busAddress: String
    let width: Int32 = 1280, height: Int32 = 800
    private let bus: Process
    private let process: Process
    private let logPath: String

    init() throws {
        let id = "\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        runtimeDirectory = NSTemporaryDirectory() + "lodestone-mutter-\(id)"
        try FileManager.default.createDirectory(atPath: runtimeDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        socket = "mutter-\(id)"
        logPath = runtimeDirectory + "/mutter.log"
        try createEmptyFile(atPath: logPath)
        let busPath = runtimeDirectory + "/bus"
        busAddress = "unix:path=" + busPath
        var env = ProcessInfo.processInfo.environment
        env["XDG_RUNTIME_DIR"] = runtimeDirectory
        env["DBUS_SESSION_BUS_ADDRESS"] = busAddress
        env["HOME"] = runtimeDirectory  // mutter's settings and caches stay in the test's directory
        for k in ["WAYLAND_DISPLAY", "DISPLAY", "XDG_SESSION_TYPE"] { env.removeValue(forKey: k) }
        let log = FileHandle(forWritingAtPath: logPath)

        bus = Process()
        bus.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        bus.arguments = ["dbus-daemon", "--session", "--nofork", "--nopidfile", "--address=\(busAddress)"]
        bus.environment = env
        bus.standardOutput = log
        bus.standardError = log
        try bus.run()
        let deadline = Date().addingTimeInterval(20)
        while !FileManager.default.fileExists(atPath: busPath) {
            guard bus.isRunning, Date() < deadline else { throw NestedFailure("dbus-daemon did not start:\n\(textOfFile(logPath))") }
            usleep(20_000)
        }

        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["mutter", "--headless", "--wayland", "--no-x11", "--virtual-monitor", "\(width)x\(height)", "--wayland-display=\(socket)"]
        process.environment = env
        process.standardOutput = log
        process.standardError = log
        try process.run()
        while !FileManager.default.fileExists(atPath: runtimeDirectory + "/" + socket) {
            guard process.isRunning, Date() < deadline else {
                stop()
                throw NestedFailure("mutter did not start:\n\(textOfFile(logPath))")
            }
            usleep(20_000)
        }
    }

    var log: String { textOfFile(logPath) }

    /// A remote-desktop session: a pointer of mutter's seat the test moves.
    func virtualPointer() throws -> RemoteDesktopPointer { try RemoteDesktopPointer(address: busAddress, screen: (Double(width), Double(height))) }

    func stop() {
        for p in [process, bus] where p.isRunning {
            p.terminate()
            p.waitUntilExit()
        }
    }
}

/// mutter's org.gnome.Mutter.RemoteDesktop session, called synchronously over sd-bus.
/// Relative motion only (absolute needs a screen-cast stream, so PipeWire): the pointer is
/// first pushed into the top-left corner, then its place is known by adding up.
final class RemoteDesktopPointer {
    private var bus: OpaquePointer?
    private var session = ""
    private(set) var position = (x: 0.0, y: 0.0)
    private let screen: (width: Double, height: Double)
    static let destination = "org.gnome.Mutter.RemoteDesktop"
    static let sessionInterface = "org.gnome.Mutter.RemoteDesktop.Session"

    /// The call failed: what and why.
    struct Failure: Error, CustomStringConvertible { let description: String }

    init(address: String, screen: (width: Double, height: Double)) throws {
        self.screen = screen
        guard sd_bus_new(&bus) >= 0, sd_bus_set_address(bus, address) >= 0, sd_bus_set_bus_client(bus, 1) >= 0, sd_bus_start(bus) >= 0 else {
            throw Failure(description: "cannot connect to mutter's session bus at \(address)")
        }
        // mutter may still be taking its bus name: try for a while.
        let deadline = Date().addingTimeInterval(20)
        while true {
            do {
                session = try call("/org/gnome/Mutter/RemoteDesktop", "org.gnome.Mutter.RemoteDesktop", "CreateSession") { reply in
                    var path: UnsafePointer<CChar>?
                    guard sd_bus_message_read_basic(reply, CChar(bitPattern: 0x6f), &path) >= 0, let path else { return "" }  // 'o'
                    return String(cString: path)
                }
                break
            } catch {
                guard Date() < deadline else { throw error }
                usleep(100_000)
            }
        }
        _ = try call(session, Self.sessionInterface, "Start") { _ in () }
        // Into the corner: mutter clamps the pointer to the screen.
        try notify("NotifyPointerMotionRelative", doubles: [-2 * screen.width, -2 * screen.height])
        position = (0, 0)
    }

    deinit {
        if !session.isEmpty { _ = try? call(session, Self.sessionInterface, "Stop") { _ in () } }
        _ = sd_bus_flush_close_unref(bus)
    }

    func move(by delta: (Double, Double)) throws {
        try notify("NotifyPointerMotionRelative", doubles: [delta.0, delta.1])
        position = (min(max(0, position.x + delta.0), screen.width - 1), min(max(0, position.y + delta.1), screen.height - 1))
    }

    func move(to point: (Double, Double)) throws { try move(by: (point.0 - position.x, point.1 - position.y)) }

    func button(pressed: Bool, _ button: Int32 = 0x110) throws {
        var b = button
        var state: Int32 = pressed ? 1 : 0
        _ = try call(session, Self.sessionInterface, "NotifyPointerButton", append: { m in
            sd_bus_message_append_basic(m, CChar(bitPattern: 0x69), &b) >= 0 && sd_bus_message_append_basic(m, CChar(bitPattern: 0x62), &state) >= 0  // 'i', 'b'
        }) { _ in () }
    }

    func click() throws {
        try button(pressed: true)
        try button(pressed: false)
    }

    /// The top-left of the nested output in mutter's screen: the pointer walks the diagonal
    /// from the top-left corner until the nested Lodestone reports it on its output.
    func findOutputOrigin(of nested: Session) throws -> (x: Double, y: Double) {
        try move(to: (0, 0))
        let start = try nested.control.pointer()
        while position.x < screen.width - 10 && position.y < screen.height - 10 {
            try move(by: (8, 5))
            // Each step gives the nested seat a moment to hear of it before the next.
            var p = try nested.control.pointer()
            let deadline = Date().addingTimeInterval(0.05)
            while p.x == start.x && p.y == start.y && Date() < deadline {
                usleep(5_000)
                p = try nested.control.pointer()
            }
            guard p.x != start.x || p.y != start.y else { continue }
            // On the output: read until the last motion has surely arrived (two equal reads).
            var origin = (x: position.x - p.x, y: position.y - p.y)
            for _ in 0..<20 {
                usleep(30_000)
                p = try nested.control.pointer()
                let again = (x: position.x - p.x, y: position.y - p.y)
                if again == origin { return origin }
                origin = again
            }
            return origin
        }
        throw Failure(description: "the pointer crossed mutter's screen without reaching Lodestone's output")
    }

    private func notify(_ member: String, doubles: [Double]) throws {
        _ = try call(session, Self.sessionInterface, member, append: { m in
            doubles.allSatisfy { var d = $0; return sd_bus_message_append_basic(m, CChar(bitPattern: 0x64), &d) >= 0 }  // 'd'
        }) { _ in () }
    }

    private func call<T>(_ path: String, _ interface: String, _ member: String, append: (OpaquePointer?) -> Bool = { _ in true },
                         read: (OpaquePointer?) -> T) throws -> T {
        var message: OpaquePointer?
        guard sd_bus_message_new_method_call(bus, &message, Self.destination, path, interface, member) >= 0, append(message) else {
            throw Failure(description: "cannot make the call \(member)")
        }
        defer { sd_bus_message_unref(message) }
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        var reply: OpaquePointer?
        guard sd_bus_call(bus, message, 5_000_000, &error, &reply) >= 0 else {
            throw Failure(description: "\(member): \(error.name.map { String(cString: $0) } ?? "?") \(error.message.map { String(cString: $0) } ?? "")")
        }
        defer { sd_bus_message_unref(reply) }
        return read(reply)
    }
}
