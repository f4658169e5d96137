@testable import LodestoneCompositor
import CWaylandClient
import CWaylandProtocols
import WaylandClient
import XCTest

/// `wp_pointer_warp_v1`: honoured only inside the window under the pointer, with the
/// pointer's current enter serial, and never while a lock holds the pointer. Two clients:
/// Game spans x 100..<400, y 100..<300; Other spans x 500..<700, y 100..<300.
final class PointerWarpTests: XCTestCase {
    private var lodestone: InProcessCompositor!
    private var game: TestClient!
    private var other: TestClient!
    private var gameWindow: Window!
    private var otherWindow: Window!

    override func setUpWithError() throws {
        lodestone = try InProcessCompositor()
        game = try lodestone.connect()
        other = try lodestone.connect()
        gameWindow = try lodestone.mapWindow(on: game, title: "Game", x: 100, y: 100, width: 300, height: 200)
        otherWindow = try lodestone.mapWindow(on: other, title: "Other", x: 500, y: 100, width: 200, height: 200)
        try lodestone.movePointer(to: 600, 200)
        try lodestone.movePointer(to: 200, 190)
        game.forgetEvents()
        other.forgetEvents()
    }

    override func tearDown() {
        gameWindow = nil; otherWindow = nil
        game = nil; other = nil
        lodestone = nil
    }

    private func warp(_ client: TestClient, on window: Window, x: Double, y: Double, serial: UInt32) throws {
        let warp = try XCTUnwrap(client.bind(cwp_wp_pointer_warp_v1_interface(), version: 1))
        warp.request(window.surface, client.globals.pointer!) {
            wp_pointer_warp_v1_warp_pointer($0, $1, $2, wl_fixed_from_double(x), wl_fixed_from_double(y), serial)
        }
        try lodestone.roundtrip()
    }

    private var device: (x: Double, y: Double) {
        let p = lodestone.seat.position.device
        return (p.x, p.y)
    }

    func testAWarpInsideTheFocusedWindowMovesThePointerAndTheClientHearsIt() throws {
        try warp(game, on: gameWindow, x: 250, y: 30, serial: game.globals.lastEnterSerial)
        XCTAssertEqual(device.x, 350)
        XCTAssertEqual(device.y, 130)
        XCTAssertEqual(game.motions.last?.x, 250)
        XCTAssertEqual(game.motions.last?.y, 30)
        // The next device motion continues from there.
        try lodestone.movePointer(by: 5, 5)
        XCTAssertEqual(device.x, 355)
        XCTAssertEqual(device.y, 135)
    }

    func testAWarpWithAStaleOrInventedSerialIsRefused() throws {
        for serial in [game.globals.lastEnterSerial &- 1, game.globals.lastEnterSerial &+ 1000] {
            try warp(game, on: gameWindow, x: 250, y: 30, serial: serial)
            XCTAssertEqual(device.x, 200, "serial \(serial)")
            XCTAssertEqual(device.y, 190)
        }
        XCTAssertTrue(game.motions.isEmpty)
    }

    func testAWarpOnAWindowWithoutThePointerIsRefused() throws {
        // Other had the pointer a moment ago, with a serial of its own.
        try warp(other, on: otherWindow, x: 10, y: 10, serial: other.globals.lastEnterSerial)
        XCTAssertEqual(device.x, 200)
        XCTAssertEqual(device.y, 190)
        XCTAssertTrue(other.pointerEvents.isEmpty, "Other never gets the pointer back this way: \(other.pointerEvents)")
    }

    func testAWarpOutsideTheSurfaceIsRefused() throws {
        try warp(game, on: gameWindow, x: 300, y: 30, serial: game.globals.lastEnterSerial)
        try warp(game, on: gameWindow, x: -1, y: 30, serial: game.globals.lastEnterSerial)
        XCTAssertEqual(device.x, 200)
        XCTAssertTrue(game.motions.isEmpty)
    }

    func testAWarpIsRefusedWhileALockHoldsThePointer() throws {
        let constraints = try XCTUnwrap(game.bind(cwp_zwp_pointer_constraints_v1_interface(), version: 1))
        let locked = constraints.request(gameWindow.surface, game.globals.pointer!) {
            zwp_pointer_constraints_v1_lock_pointer($0, $1, $2, nil, ZWP_POINTER_CONSTRAINTS_V1_LIFETIME_PERSISTENT.rawValue)
        }!
        try lodestone.roundtrip()
        try warp(game, on: gameWindow, x: 250, y: 30, serial: game.globals.lastEnterSerial)
        XCTAssertEqual(device.x, 200)
        XCTAssertEqual(device.y, 190)
        zwp_locked_pointer_v1_destroy(locked)
        try lodestone.roundtrip()
        try warp(game, on: gameWindow, x: 250, y: 30, serial: game.globals.lastEnterSerial)
        XCTAssertEqual(device.x, 350, "honoured once the lock is gone")
    }
}
