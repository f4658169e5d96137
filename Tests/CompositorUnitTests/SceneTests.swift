@testable import LodestoneCompositor
import CWaylandClient
import WaylandClient
import XCTest

/// What is where: two overlapping windows of two clients. Back spans 100..<400 × 100..<300;
/// Front, mapped later and so on top, spans 250..<550 × 200..<400.
final class SceneTests: XCTestCase {
    private var lodestone: InProcessCompositor!
    private var back: TestClient!, front: TestClient!
    private var backWindow: Window!, frontWindow: Window!

    override func setUpWithError() throws {
        lodestone = try InProcessCompositor()
        back = try lodestone.connect()
        front = try lodestone.connect()
        backWindow = try lodestone.mapWindow(on: back, title: "Back", x: 100, y: 100, width: 300, height: 200)
        frontWindow = try lodestone.mapWindow(on: front, title: "Front", x: 250, y: 200, width: 300, height: 200)
        lodestone.forgetEvents()
    }

    override func tearDown() {
        backWindow = nil; frontWindow = nil
        back = nil; front = nil
        lodestone = nil
    }

    func testSurfaceAtFindsTheTopmostWindow() throws {
        let overlap = try XCTUnwrap(lodestone.scene.surfaceAt(x: 300, y: 250))
        XCTAssertTrue(overlap.surface === lodestone.surface(of: frontWindow))
        XCTAssertEqual(overlap.sx, 50)
        XCTAssertEqual(overlap.sy, 50)

        let backOnly = try XCTUnwrap(lodestone.scene.surfaceAt(x: 150, y: 120))
        XCTAssertTrue(backOnly.surface === lodestone.surface(of: backWindow))
        XCTAssertEqual(backOnly.sx, 50)
        XCTAssertEqual(backOnly.sy, 20)

        XCTAssertNil(lodestone.scene.surfaceAt(x: 1000, y: 700), "nothing over the empty desktop")
        XCTAssertNil(lodestone.scene.surfaceAt(x: 400, y: 150), "a window's right edge is outside it")
    }

    func testClickRaisesTheWindowBeneath() throws {
        XCTAssertTrue(lodestone.scene.windows.last === lodestone.toplevel(of: frontWindow))

        try lodestone.click(at: 150, 120)

        XCTAssertTrue(lodestone.scene.windows.last === lodestone.toplevel(of: backWindow), "clicking raises")
        let overlap = try XCTUnwrap(lodestone.scene.surfaceAt(x: 300, y: 250))
        XCTAssertTrue(overlap.surface === lodestone.surface(of: backWindow), "the raised window now covers the overlap")

        try lodestone.movePointer(to: 300, 250)
        XCTAssertEqual(back.pointerEvents.last, .motion(x: 200, y: 150), "the overlap's motion goes to the raised window")
        XCTAssertEqual(front.pointerEvents, [])
    }

    func testUnmappedWindowLeavesTheSceneAndThePointerFallsToTheWindowBeneath() throws {
        try lodestone.movePointer(to: 300, 250)
        XCTAssertEqual(front.distinctPointerEvents, [.enter(surface: frontWindow.surface.id, x: 50, y: 50)])

        frontWindow.surface.request { wl_surface_attach($0, nil, 0, 0) }
        frontWindow.surface.request { wl_surface_commit($0) }
        try lodestone.roundtrip()

        XCTAssertFalse(lodestone.isInScene(frontWindow))
        XCTAssertTrue(lodestone.isInScene(backWindow))
        XCTAssertTrue(lodestone.seat.pointerFocus === lodestone.surface(of: backWindow))
        XCTAssertEqual(front.pointerEvents.last, .leave(surface: frontWindow.surface.id))
        XCTAssertEqual(back.pointerEvents, [.enter(surface: backWindow.surface.id, x: 200, y: 150)],
                       "the window beneath hears enter where the pointer stands, without it moving")
        XCTAssertTrue(lodestone.seat.keyboard.focus === lodestone.surface(of: backWindow), "and gets the keyboard")
    }

    func testDestroyedWindowLeavesTheSceneAndThePointerFallsToTheWindowBeneath() throws {
        try lodestone.movePointer(to: 300, 250)
        frontWindow = nil  // destroys the toplevel, xdg_surface and wl_surface
        try lodestone.roundtrip()

        XCTAssertEqual(lodestone.scene.windows.count, 1)
        XCTAssertTrue(lodestone.seat.pointerFocus === lodestone.surface(of: backWindow))
        XCTAssertEqual(back.pointerEvents, [.enter(surface: backWindow.surface.id, x: 200, y: 150)])
    }

    func testAWindowThatShrinksDamagesWhereItWas() throws {
        // Composed frames clear the damage; what this commit damages is what gets repainted.
        lodestone.compositor.composeIfNeeded()
        XCTAssertTrue(lodestone.compositor.output.damage.isEmpty)
        // Asked to shrink, the client acknowledges and commits a smaller buffer.
        try XCTUnwrap(lodestone.toplevel(of: frontWindow)).configure(width: 100, height: 80)
        try lodestone.roundtrip()
        try lodestone.roundtrip()
        XCTAssertEqual(frontWindow.width, 100)
        let damage = lodestone.compositor.output.damage
        XCTAssertTrue(damage.contains(x: 300, y: 250), "the new, smaller window")
        XCTAssertTrue(damage.contains(x: 500, y: 350), "where the window no longer is: its old pixels must go")
    }
}
