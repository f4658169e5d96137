import AdaptivePointerClient
import Foundation
import LodestoneTesting
import XCTest

/// Several heads in one headless Lodestone (`--outputs 2`, two 800×600 heads side by
/// side): what clients are told, the pointer crossing between them and staying on them,
/// windows moving across, and a head unplugged and plugged in (`lodestone_test_v1`'s
/// `remove_output` and `add_output`, as a TTY's hotplug does).
final class MultiOutputTests: XCTestCase {
    private func twoHeads(manualClock: Bool = true) throws -> Session {
        try Session(size: "800x600", manualClock: manualClock, extraArguments: ["--outputs", "2"])
    }

    /// wayland-info's description of each wl_output and xdg_output, in order.
    private func outputs(_ session: Session) throws -> String {
        try requireProgram("wayland-info")
        let (status, info) = try run(["timeout", "10", "wayland-info"], environment: session.clientEnvironment)
        XCTAssertEqual(status, 0, info)
        return info
    }

    private func count(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

    func testTwoHeadsAreTwoWlOutputsSideBySide() throws {
        let session = try twoHeads()
        let info = try outputs(session)
        XCTAssertEqual(count("interface: 'wl_output'", in: info), 2, info)
        XCTAssertNotNil(info.range(of: #"name: HEADLESS-1\s+description: Lodestone HEADLESS-1\s+x: 0, y: 0, scale: 1"#, options: .regularExpression), info)
        XCTAssertNotNil(info.range(of: #"name: HEADLESS-2\s+description: Lodestone HEADLESS-2\s+x: 800, y: 0, scale: 1"#, options: .regularExpression), info)
        XCTAssertEqual(count("width: 800 px, height: 600 px", in: info), 2, "each head's own mode:\n\(info)")
        XCTAssertNotNil(info.range(of: #"name: 'HEADLESS-2'[\s\S]*?logical_x: 800, logical_y: 0\s+logical_width: 800, logical_height: 600"#, options: .regularExpression), info)
        // The composed frame spans both.
        let shot = try session.screenshot()
        XCTAssertEqual(shot.width, 1600)
        XCTAssertEqual(shot.height, 600)
    }

    func testPointerCrossesToTheNextHeadAndStaysOnTheHeads() throws {
        let session = try twoHeads()
        let c = session.control
        XCTAssertEqual(try c.movePointer(x: 790, y: 300).x, 790)
        let crossed = try c.movePointer(dx: 30, dy: 0)
        XCTAssertEqual(crossed.x, 820, accuracy: 0.01, "relative motion carries on onto HEADLESS-2")
        let right = try c.movePointer(dx: 5000, dy: 0)
        // wl_fixed rounds the last pixel's inside (1599.99...) to 1600.
        XCTAssertGreaterThan(right.x, 1599)
        XCTAssertLessThanOrEqual(right.x, 1600, "held at the right edge of HEADLESS-2")
        XCTAssertEqual(try c.movePointer(dx: -6000, dy: 0).x, 0, "and back across to the left edge of HEADLESS-1")
    }

    func testHeadsOfDifferentHeightsLeaveNoGapForThePointer() throws {
        let session = try twoHeads()
        let c = session.control
        // HEADLESS-3, 640×400, goes right of the others: below it is a gap no head covers.
        try c.addOutput("HEADLESS-3", width: 640, height: 400)
        let info = try outputs(session)
        XCTAssertEqual(count("interface: 'wl_output'", in: info), 3, info)
        XCTAssertNotNil(info.range(of: #"name: HEADLESS-3\s+description: Lodestone HEADLESS-3\s+x: 1600, y: 0"#, options: .regularExpression), info)
        XCTAssertEqual(try session.screenshot().width, 2240)
        let p = try c.movePointer(x: 1800, y: 550)
        XCTAssertEqual(p.x, 1800)
        XCTAssertLessThanOrEqual(p.y, 400, "pulled up onto HEADLESS-3, not lost in the gap below it")
        XCTAssertGreaterThan(p.y, 399)
        // Along the bottom of HEADLESS-2 into the gap: held at HEADLESS-2's right edge, the
        // nearest point of a head (HEADLESS-3's bottom edge is farther).
        try c.movePointer(x: 1500, y: 550)
        let q = try c.movePointer(dx: 200, dy: 0)
        XCTAssertEqual(q.y, 550, "\(q)")
        XCTAssertGreaterThan(q.x, 1599, "\(q)")
        XCTAssertLessThanOrEqual(q.x, 1600, "\(q)")
    }

    func testDraggedAcrossThenItsHeadUnpluggedTheWindowMovesOntoTheOther() throws {
        try requireProgram("foot")
        let session = try twoHeads(manualClock: false)
        let c = session.control
        try session.launch(["foot", "--override=shell=/bin/sh", "--title=travel", "--override=locked-title=yes"])
        let w = try session.waitForWindow("travel", timeout: 40)
        XCTAssertLessThan(w.x + w.width, 800, "the pointer starts on HEADLESS-1, and a new window opens on the head the pointer is on: \(w)")
        // Drag the title bar 900 to the right: the window crosses onto HEADLESS-2.
        try c.movePointer(x: Double(w.x + 100), y: Double(w.y - 15))
        try c.button(pressed: true)
        try c.movePointer(x: Double(w.x + 500), y: Double(w.y + 10))
        try c.movePointer(x: Double(w.x + 1000), y: Double(w.y + 20))
        try c.button(pressed: false)
        let moved = try XCTUnwrap(try c.windows().first { $0.title == "travel" })
        XCTAssertEqual(moved.x - w.x, 900)
        XCTAssertGreaterThanOrEqual(moved.x, 800, "on HEADLESS-2: \(moved)")
        let shot = try session.screenshot()
        XCTAssertNotEqual(shot[Int(moved.x) + 4, Int(moved.y) - 26], 0x303446, "its bar is drawn on HEADLESS-2")

        // Unplugged: the window comes onto HEADLESS-1 at the same place within it, pulled in
        // so all of it is on HEADLESS-1 (it hung over HEADLESS-2's right edge).
        XCTAssertGreaterThan(moved.x + moved.width, 1600, "\(moved)")
        try c.removeOutput("HEADLESS-2")
        let home = try XCTUnwrap(try c.windows().first { $0.title == "travel" })
        XCTAssertEqual(home.x, 800 - moved.width, "\(home)")
        XCTAssertEqual(home.y, moved.y)
        XCTAssertLessThanOrEqual(try c.pointer().x, 800, "the pointer came back onto HEADLESS-1")
        let after = try session.screenshot()
        XCTAssertEqual(after.width, 800)
        XCTAssertNotEqual(after[Int(home.x) + 4, Int(home.y) - 26], 0x303446, "its bar is drawn on HEADLESS-1")
        let info = try outputs(session)
        XCTAssertEqual(count("interface: 'wl_output'", in: info), 1, info)
        XCTAssertFalse(info.contains("HEADLESS-2"), info)
        XCTAssertThrowsError(try c.removeOutput("HEADLESS-1"), "the last head stays")
    }

    func testMaximizedWindowFillsItsOwnHeadAndFollowsWhenTheFirstIsUnplugged() throws {
        try requireProgram("foot")
        let session = try twoHeads(manualClock: false)
        let c = session.control
        // The pointer on HEADLESS-2: foot opens there.
        try c.movePointer(x: 1200, y: 300)
        try session.launch(["foot", "--override=shell=/bin/sh", "--title=right", "--override=locked-title=yes"])
        let w = try session.waitForWindow("right", timeout: 40)
        XCTAssertGreaterThanOrEqual(w.x, 800, "\(w)")
        // A double click on its bar maximizes it on HEADLESS-2 only.
        try c.movePointer(x: Double(w.x + 100), y: Double(w.y - 15))
        try c.click()
        try c.click()
        XCTAssertTrue(try session.wait(timeout: 20) {
            let m = try c.windows().first { $0.title == "right" }
            return m?.x == 800 && m?.y == 30 && m?.width == 800 && m?.height == 570
        }, "maximized on HEADLESS-2: \((try? c.windows()) ?? [])")
        // HEADLESS-1 unplugged: HEADLESS-2 moves to the origin, and the window with it.
        try c.removeOutput("HEADLESS-1")
        XCTAssertTrue(try session.wait(timeout: 20) {
            let m = try c.windows().first { $0.title == "right" }
            return m?.x == 0 && m?.y == 30 && m?.width == 800 && m?.height == 570
        }, "still maximized, now at the origin: \((try? c.windows()) ?? [])")
    }

    /// The TTY's quick return (issue 28): the tablet puts the pointer on HEADLESS-2, and
    /// within half a second back on HEADLESS-1 to the right of a lifting element, in one
    /// motion each. That jump is no flick: nothing is captured, and once settled the pointer is
    /// the plain circle where the tablet put it, with no content effect (what puts it back on
    /// a cursor plane). It used to read as a flick toward the element, lifted it and held it.
    func testAQuickReturnFromTheOtherHeadLeavesThePlainPointer() throws {
        let f = try AdaptiveFixture(size: "800x600", extraArguments: ["--outputs", "2"])
        let client = try RegionClient(session: f.session, title: "icons", background: 0xffe0_e0e0,
                                      boxes: [(100, 100, 80, 40, 0xff20_60c0)])
        defer { withExtendedLifetime(client) {} }
        try f.control.moveWindow("icons", x: 100, y: 100)
        var icon = RegionDescription(frame: (100, 100, 80, 40), effect: .lift, identifier: 1)
        icon.opaque = true
        try client.declare(icon)   // at 200...280 × 200...240 on HEADLESS-1
        XCTAssertEqual(try f.move(to: 240, 220).effect, .lift, "the element lifts under the pointer")
        let home = try f.move(to: 420, 220)
        XCTAssertEqual(home.effect, .none, "\(home)")
        XCTAssertEqual(try f.move(to: 1100, 220, settle: 300).effect, .none, "on HEADLESS-2")
        let back = try f.move(to: 420, 220)
        XCTAssertEqual(back.effect, .none, "a content effect after the quick return: \(back)")
        XCTAssertFalse(back.targeted, "a region captured: \(back.regionIdentifier)")
        XCTAssertEqual(back.kind, .circle)
        XCTAssertEqual(back.midX, 420, accuracy: 0.5)
        XCTAssertEqual(back.midY, 220, accuracy: 0.5)
    }
}
