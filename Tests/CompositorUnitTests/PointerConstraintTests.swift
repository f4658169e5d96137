@testable import LodestoneCompositor
import CWaylandClient
import CWaylandProtocols
import WaylandClient
import XCTest

/// `zwp_locked_pointer_v1` and `zwp_confined_pointer_v1`, with `zwp_relative_pointer_v1`
/// listening: one client, one window spanning x 100..<400, y 100..<300.
final class PointerConstraintTests: XCTestCase {
    private var lodestone: InProcessCompositor!
    private var client: TestClient!
    private var window: Window!
    private var constraints: Proxy!
    /// What the relative pointer heard: (dx, dy) per event.
    private var relativeMotion: [[Double]] = []
    private var relativePointer: Proxy!
    /// locked/unlocked or confined/unconfined, as they came.
    private var constraintEvents: [String] = []
    private var constraint: Proxy?

    override func setUpWithError() throws {
        lodestone = try InProcessCompositor()
        client = try lodestone.connect()
        window = try lodestone.mapWindow(on: client, title: "Game", x: 100, y: 100, width: 300, height: 200)
        constraints = try XCTUnwrap(client.bind(cwp_zwp_pointer_constraints_v1_interface(), version: 1))
        let manager = try XCTUnwrap(client.bind(cwp_zwp_relative_pointer_manager_v1_interface(), version: 1))
        relativePointer = Proxy(manager.request(client.globals.pointer!) { zwp_relative_pointer_manager_v1_get_relative_pointer($0, $1) }!,
                                on: client.connection)
        relativePointer.onEvent = { [unowned self] opcode, a in
            if opcode == 0 { self.relativeMotion.append([a.fixed(2), a.fixed(3)]) }  // relative_motion
        }
        try lodestone.movePointer(to: 200, 190)
        client.forgetEvents()
    }

    override func tearDown() {
        constraint = nil; relativePointer = nil; constraints = nil
        window = nil; client = nil
        lodestone = nil
    }

    private func lock() throws {
        let locked = constraints.request(window.surface, client.globals.pointer!) {
            zwp_pointer_constraints_v1_lock_pointer($0, $1, $2, nil, ZWP_POINTER_CONSTRAINTS_V1_LIFETIME_PERSISTENT.rawValue)
        }!
        constraint = Proxy(locked, on: client.connection)
        constraint?.onEvent = { [unowned self] opcode, _ in self.constraintEvents.append(opcode == 0 ? "locked" : "unlocked") }
        try lodestone.roundtrip()
    }

    /// Confines the pointer to a surface-local rectangle.
    private func confine(to rect: (x: Int32, y: Int32, width: Int32, height: Int32)) throws {
        let region = client.region([rect])
        let confined = constraints.request(window.surface, client.globals.pointer!) {
            zwp_pointer_constraints_v1_confine_pointer($0, $1, $2, region, ZWP_POINTER_CONSTRAINTS_V1_LIFETIME_PERSISTENT.rawValue)
        }!
        wl_region_destroy(region)
        constraint = Proxy(confined, on: client.connection)
        constraint?.onEvent = { [unowned self] opcode, _ in self.constraintEvents.append(opcode == 0 ? "confined" : "unconfined") }
        try lodestone.roundtrip()
    }

    func testLockedPointerStaysPutWhileRelativeMotionStillArrives() throws {
        try lock()
        XCTAssertEqual(constraintEvents, ["locked"])

        try lodestone.movePointer(by: 30, -20)
        try lodestone.movePointer(by: 400, 300)
        try lodestone.send(.pointerMotion(.absolute(x: 900, y: 700)))

        XCTAssertEqual(relativeMotion, [[30, -20], [400, 300]])
        XCTAssertEqual(lodestone.seat.position.logical.x, 200)
        XCTAssertEqual(lodestone.seat.position.logical.y, 190)
        XCTAssertEqual(client.motions.count, 0, "a locked pointer sends no wl_pointer.motion: \(client.pointerEvents)")
        XCTAssertTrue(lodestone.seat.pointerFocus === lodestone.surface(of: window), "the lock keeps the focus")
    }

    func testRelativeMotionFlowsWithoutAConstraintAndMovesThePointer() throws {
        try lodestone.movePointer(by: 10, 5)
        XCTAssertEqual(relativeMotion, [[10, 5]])
        XCTAssertEqual(client.pointerEvents, [.motion(x: 110, y: 95)])
        XCTAssertEqual(lodestone.seat.position.logical.x, 210)
    }

    func testConfinedPointerStaysInsideItsRegion() throws {
        // Surface-local 50..<150 × 50..<130: global 150..<250 × 150..<230.
        try confine(to: (50, 50, 100, 80))
        XCTAssertEqual(constraintEvents, ["confined"])

        try lodestone.movePointer(by: 500, 500)
        XCTAssertLessThan(lodestone.seat.position.logical.x, 250)
        XCTAssertLessThan(lodestone.seat.position.logical.y, 230)
        XCTAssertGreaterThanOrEqual(lodestone.seat.position.logical.x, 249, "it went as far as the region lets it")
        try lodestone.movePointer(by: -1000, -1000)
        XCTAssertEqual(lodestone.seat.position.logical.x, 150)
        XCTAssertEqual(lodestone.seat.position.logical.y, 150)
        try lodestone.movePointer(by: 20, 10)  // inside, free to move
        XCTAssertEqual(lodestone.seat.position.logical.x, 170)
        XCTAssertEqual(lodestone.seat.position.logical.y, 160)
        try lodestone.send(.pointerMotion(.absolute(x: 10, y: 700)))
        XCTAssertTrue((150..<250).contains(lodestone.seat.position.logical.x) && (150..<230).contains(lodestone.seat.position.logical.y),
                      "an absolute device is held too: \(lodestone.seat.position.logical.x), \(lodestone.seat.position.logical.y)")

        XCTAssertFalse(client.motions.isEmpty)
        for m in client.motions {
            XCTAssertTrue((50..<150).contains(m.x) && (50..<130).contains(m.y), "the client saw the pointer at \(m)")
        }
        XCTAssertEqual(relativeMotion.count, 3, "relative listeners hear every step, held or not")
    }

    func testTheDeviceKindReachesTheEngine() throws {
        // A trackpad's pointer hides sooner than a mouse's (3.25 s against 8 s).
        try lodestone.send(.pointerDevice(.trackpad))
        XCTAssertEqual((lodestone.seat.pointer as? SeatPointer)?.engine.deviceKind, .trackpad)
        try lodestone.send(.pointerDevice(.mouse))
        XCTAssertEqual((lodestone.seat.pointer as? SeatPointer)?.engine.deviceKind, .mouse)
    }
}
