import Foundation
import LodestoneTesting
import XCTest

/// X11 apps get the accessibility geometry Wayland ones get (issue 27): Lodestone reads an
/// Xwayland window's _NET_WM_PID and finds its AT-SPI app by that PID (every X window's
/// Wayland client is Xwayland). zenity's question dialog, GTK 3 on X11: its buttons.
final class AccessibleX11AppTests: XCTestCase {
    func testX11Gtk3DialogButtonIsHighlighted() throws {
        try requireProgram("zenity")
        try requireAccessibilityBus()
        let bus = try PrivateSessionBus()
        defer { bus.stop() }
        let (session, display) = try startXwaylandSession(environment: bus.environment)
        defer { session.stop() }
        let probe = try PointerShapeProbe(session: session)
        try session.launch(["zenity", "--question", "--title", "x11-a11y", "--text", "Highlight the buttons?"],
                           environment: ["DISPLAY": display, "GDK_BACKEND": "x11"].merging(bus.environment) { $1 })
        let w = try session.waitForWindow("x11-a11y", timeout: 60)
        // The buttons are along the dialog's bottom: the pointer goes along it, row by row,
        // until one is highlighted.
        var found: PointerShape?
        _ = try session.wait(timeout: 30) {
            for dy in stride(from: 12.0, through: 60, by: 8) {
                for dx in stride(from: Double(w.width) - 12, through: Double(w.width) / 3, by: -16) {
                    try session.control.movePointer(x: Double(w.x) + dx, y: Double(w.y + w.height) - dy)
                    usleep(30_000)
                    let s = try probe.shape()
                    if s.targeted, s.effect == .highlight { found = s; return true }
                }
            }
            return false
        }
        print(session.log.split(separator: "\n").filter { $0.contains("accessibility:") }.joined(separator: "\n"))
        _ = try XCTUnwrap(found, "no button of the X11 dialog \(w) was highlighted\n\(session.log.suffix(3000))")
        usleep(500_000)  // the platter settles
        let button = try probe.shape()
        print("highlighted:", button)
        XCTAssertTrue(button.width >= 40 && button.width <= Double(w.width) / 2 && button.height >= 20 && button.height <= 60,
                      "a button's size: \(button)")
        // Inside the dialog, but for the platter's growth and parallax (the pointer is off its centre).
        XCTAssertTrue(button.x >= Double(w.x) - 8 && button.x + button.width <= Double(w.x + w.width) + 8, "inside the dialog: \(button), \(w)")
        XCTAssertTrue(button.y >= Double(w.y) - 8 && button.y + button.height <= Double(w.y + w.height) + 8, "inside the dialog: \(button), \(w)")
    }
}
