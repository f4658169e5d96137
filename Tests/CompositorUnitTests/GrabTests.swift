@testable import LodestoneCompositor
import CWaylandClient
import CWaylandProtocols
import WaylandClient
import XCTest

/// Interactive move and resize (`xdg_toplevel.move`/`resize` with a press serial) and the
/// popup grab (`xdg_popup.grab`).
final class GrabTests: XCTestCase {
    private var lodestone: InProcessCompositor!
    private var client: TestClient!
    private var window: Window!

    override func setUpWithError() throws {
        lodestone = try InProcessCompositor()
        client = try lodestone.connect()
        window = try lodestone.mapWindow(on: client, title: "Window", x: 100, y: 100, width: 200, height: 100)
        try lodestone.movePointer(to: 150, 120)
        client.forgetEvents()
    }

    override func tearDown() {
        window = nil
        client = nil
        lodestone = nil
    }

    private func move(serial: UInt32) throws {
        window.toplevel.request(client.globals.seat!) { xdg_toplevel_move($0, $1, serial) }
        try lodestone.roundtrip()
    }

    // MARK: Move

    func testMoveWithThePressSerialCarriesTheWindowUntilRelease() throws {
        try lodestone.press()
        try move(serial: client.lastPressSerial)
        client.forgetEvents()

        try lodestone.movePointer(to: 200, 150)
        try lodestone.movePointer(to: 250, 180)
        XCTAssertEqual(lodestone.position(of: window)?.x, 200)
        XCTAssertEqual(lodestone.position(of: window)?.y, 160)
        XCTAssertEqual(client.motions.count, 0, "the client hears no motion while it is moved: \(client.pointerEvents)")

        try lodestone.release()
        try lodestone.movePointer(to: 260, 190)
        XCTAssertEqual(lodestone.position(of: window)?.x, 200, "the move ended with the release")
        XCTAssertEqual(lodestone.position(of: window)?.y, 160)
        XCTAssertEqual(client.pointerEvents.last, .motion(x: 60, y: 30), "motion flows again, relative to the new place")
    }

    func testMoveWithABogusSerialIsIgnored() throws {
        try lodestone.press()
        try move(serial: client.lastPressSerial &+ 1000)
        try lodestone.movePointer(to: 200, 150)

        XCTAssertEqual(lodestone.position(of: window)?.x, 100)
        XCTAssertEqual(lodestone.position(of: window)?.y, 100)
        XCTAssertEqual(client.pointerEvents.last, .motion(x: 100, y: 50), "the pointer still talks to the client")
    }

    func testMoveWithAStaleSerialIsIgnored() throws {
        try lodestone.press()
        let stale = client.lastPressSerial
        try lodestone.release()
        // The pointer leaves and comes back: a new enter makes the old press serial stale.
        try lodestone.movePointer(to: 50, 50)
        try lodestone.movePointer(to: 150, 120)
        try lodestone.press()
        XCTAssertNotEqual(client.lastPressSerial, stale)

        try move(serial: stale)
        try lodestone.movePointer(to: 200, 150)
        XCTAssertEqual(lodestone.position(of: window)?.x, 100)
        XCTAssertEqual(lodestone.position(of: window)?.y, 100)
    }

    func testMoveWithoutAHeldButtonIsIgnored() throws {
        try lodestone.click(at: 150, 120)
        try move(serial: client.lastPressSerial)
        try lodestone.movePointer(to: 200, 150)
        XCTAssertEqual(lodestone.position(of: window)?.x, 100)
        XCTAssertEqual(lodestone.position(of: window)?.y, 100)
    }

    // MARK: Resize

    func testResizeConfiguresGrowingSizesWhileResizing() throws {
        var configures: [(width: Int32, height: Int32, states: [UInt32])] = []
        let original = window.toplevel.onEvent
        window.toplevel.onEvent = { opcode, a in
            if opcode == 0 { configures.append((a.int(0), a.int(1), a.array(2))) }
            original?(opcode, a)
        }
        try lodestone.movePointer(to: 295, 195)  // near the bottom-right corner
        try lodestone.press()
        window.toplevel.request(client.globals.seat!) {
            xdg_toplevel_resize($0, $1, client.lastPressSerial, XDG_TOPLEVEL_RESIZE_EDGE_BOTTOM_RIGHT.rawValue)
        }
        try lodestone.roundtrip()
        try lodestone.movePointer(to: 315, 205)
        try lodestone.movePointer(to: 345, 225)

        let resizing = XDG_TOPLEVEL_STATE_RESIZING.rawValue
        XCTAssertEqual(configures.map { [$0.width, $0.height] }, [[220, 110], [250, 130]])
        XCTAssertTrue(configures.allSatisfy { $0.states.contains(resizing) }, "\(configures)")
        XCTAssertEqual(lodestone.surface(of: window)?.width, 250, "the client followed the configures")
        XCTAssertEqual(lodestone.position(of: window)?.x, 100, "the top-left corner stays put")
        XCTAssertEqual(lodestone.position(of: window)?.y, 100)

        try lodestone.release()
        XCTAssertEqual(configures.last.map { [$0.width, $0.height] }, [250, 130])
        XCTAssertEqual(configures.last?.states.contains(resizing), false, "the release ends the resizing state")
        XCTAssertEqual(configures.count, 3)
    }

    private func resize(edges: xdg_toplevel_resize_edge) throws {
        window.toplevel.request(client.globals.seat!) { xdg_toplevel_resize($0, $1, client.lastPressSerial, edges.rawValue) }
        try lodestone.roundtrip()
    }

    /// The client changes its size on its own: a buffer of another size, no configure asked for it.
    private func commitOwnSize(width: Int32, height: Int32) throws {
        let buffer = try XCTUnwrap(ClientShmBuffer(shm: client.globals.shm, width: width, height: height))
        buffer.fill(0xff40_8040)
        window.surface.request(buffer.buffer) { wl_surface_attach($0, $1, 0, 0) }
        window.surface.request { wl_surface_damage_buffer($0, 0, 0, width, height) }
        window.surface.request { wl_surface_commit($0) }
        try lodestone.roundtrip()
    }

    func testResizeFromTheLeftEdgeKeepsTheRightEdgeInPlace() throws {
        try lodestone.movePointer(to: 102, 150)
        try lodestone.press()
        try resize(edges: XDG_TOPLEVEL_RESIZE_EDGE_LEFT)
        try lodestone.movePointer(to: 72, 150)
        try lodestone.release()

        XCTAssertEqual(lodestone.surface(of: window)?.width, 230)
        XCTAssertEqual(lodestone.position(of: window)?.x, 70, "the window grew to the left")
        XCTAssertEqual(lodestone.position(of: window)?.y, 100)
    }

    func testWindowResizedFromTheLeftAndThenMovedStaysWhereItWasMoved() throws {
        try lodestone.movePointer(to: 102, 150)
        try lodestone.press()
        try resize(edges: XDG_TOPLEVEL_RESIZE_EDGE_LEFT)
        try lodestone.movePointer(to: 72, 150)
        try lodestone.release()
        // Drag it 200 to the right by a press on it.
        try lodestone.movePointer(to: 150, 150)
        try lodestone.press()
        try move(serial: client.lastPressSerial)
        try lodestone.movePointer(to: 350, 150)
        try lodestone.release()
        XCTAssertEqual(lodestone.position(of: window)?.x, 270)

        try commitOwnSize(width: 250, height: 100)

        XCTAssertEqual(lodestone.surface(of: window)?.width, 250)
        XCTAssertEqual(lodestone.position(of: window)?.x, 270, "a size the client chose later does not move the window")
    }

    // MARK: Popup grab

    func testPressOutsideThePopupsClientDismissesIt() throws {
        let other = try lodestone.connect()
        let otherWindow = try lodestone.mapWindow(on: other, title: "Other", x: 500, y: 100, width: 200, height: 100)
        try lodestone.click(at: 150, 120)  // Window comes back to the front, and gets a press serial
        let popup = try Popup(parent: window, x: 20, y: 30, width: 80, height: 60, grabSerial: client.lastPressSerial)
        try lodestone.roundtrip()
        XCTAssertTrue(lodestone.scene.popups.contains { $0.xdgSurface.surface === lodestone.seat.keyboard.focus },
                      "the grabbing popup has the keyboard")
        other.forgetEvents()

        try lodestone.click(at: 550, 150)

        XCTAssertTrue(popup.done, "popup_done")
        XCTAssertTrue(lodestone.scene.popups.isEmpty)
        XCTAssertEqual(other.buttons, [.button(Button.left, pressed: true), .button(Button.left, pressed: false)],
                       "the dismissing press goes where it landed")
        XCTAssertTrue(lodestone.seat.keyboard.focus === lodestone.surface(of: otherWindow))
    }

    func testPressOnTheEmptyDesktopDismissesThePopup() throws {
        try lodestone.click(at: 150, 120)
        let popup = try Popup(parent: window, x: 20, y: 30, width: 80, height: 60, grabSerial: client.lastPressSerial)
        try lodestone.roundtrip()
        client.forgetEvents()

        try lodestone.click(at: 900, 600)

        XCTAssertTrue(popup.done)
        XCTAssertTrue(lodestone.scene.popups.isEmpty)
        XCTAssertEqual(client.buttons, [], "a press on nothing reaches no client")
    }

    func testPressesInsideThePopupsClientGoThrough() throws {
        try lodestone.click(at: 150, 120)
        let popup = try Popup(parent: window, x: 20, y: 30, width: 80, height: 60, grabSerial: client.lastPressSerial)
        try lodestone.roundtrip()
        client.forgetEvents()

        try lodestone.click(at: 150, 160)  // on the popup: (120..<200, 130..<190)
        XCTAssertTrue(client.pointerEvents.contains(.enter(surface: popup.surface.id, x: 30, y: 30)), "\(client.pointerEvents)")
        XCTAssertEqual(client.buttons, [.button(Button.left, pressed: true), .button(Button.left, pressed: false)])

        client.forgetEvents()
        try lodestone.click(at: 250, 110)  // on its own window, outside the popup
        XCTAssertEqual(client.buttons, [.button(Button.left, pressed: true), .button(Button.left, pressed: false)])
        XCTAssertFalse(popup.done)
        XCTAssertEqual(lodestone.scene.popups.count, 1)
    }
}

/// An `xdg_popup` below a window, placed at (x, y) of its window geometry, optionally
/// grabbing with a press serial, mapped with a buffer once configured.
private final class Popup {
    let surface: Proxy, xdgSurface: Proxy, popup: Proxy
    private(set) var done = false
    private var buffer: ClientShmBuffer?

    init(parent: Window, x: Int32, y: Int32, width: Int32, height: Int32, grabSerial: UInt32?) throws {
        let globals = parent.globals, c = globals.connection
        surface = Proxy(globals.compositor.request { wl_compositor_create_surface($0) }!, on: c)
        xdgSurface = Proxy(globals.wmBase.request(surface) { xdg_wm_base_get_xdg_surface($0, $1) }!, on: c)
        let positioner = globals.wmBase.request { xdg_wm_base_create_positioner($0) }!
        xdg_positioner_set_size(positioner, width, height)
        xdg_positioner_set_anchor_rect(positioner, x, y, 1, 1)
        xdg_positioner_set_anchor(positioner, XDG_POSITIONER_ANCHOR_TOP_LEFT.rawValue)
        xdg_positioner_set_gravity(positioner, XDG_POSITIONER_GRAVITY_BOTTOM_RIGHT.rawValue)
        popup = Proxy(xdgSurface.request(parent.xdgSurface) { xdg_surface_get_popup($0, $1, positioner) }!, on: c)
        xdg_positioner_destroy(positioner)
        popup.onEvent = { [unowned self] opcode, _ in if opcode == 1 { self.done = true } }
        xdgSurface.onEvent = { [unowned self] opcode, a in
            guard opcode == 0 else { return }
            self.xdgSurface.request { xdg_surface_ack_configure($0, a.uint(0)) }
            guard self.buffer == nil, let buffer = ClientShmBuffer(shm: globals.shm, width: width, height: height) else { return }
            buffer.fill(0xffc0_8080)
            self.buffer = buffer
            self.surface.request(buffer.buffer) { wl_surface_attach($0, $1, 0, 0) }
            self.surface.request { wl_surface_damage_buffer($0, 0, 0, width, height) }
            self.surface.request { wl_surface_commit($0) }
        }
        if let grabSerial { popup.request(globals.seat!) { xdg_popup_grab($0, $1, grabSerial) } }
        surface.request { wl_surface_commit($0) }
        try c.roundtrip()
    }
}
