@testable import LodestoneCompositor
import CWaylandClient
import CWaylandProtocols
import WaylandClient
import XCTest

/// Touchpad gestures through `Seat.handle`: what a client's `zwp_pointer_gesture_*_v1`
/// objects receive, and the swipes Lodestone keeps. Two windows: Left x 100..<300,
/// Right x 400..<600, both y 100..<250; Right was mapped last, so it is on top and focused.
final class GestureTests: XCTestCase {
    private var lodestone: InProcessCompositor!
    private var left: TestClient!, right: TestClient!
    private var leftWindow: Window!, rightWindow: Window!
    private var leftGestures: GestureRecorder!, rightGestures: GestureRecorder!

    override func setUpWithError() throws {
        lodestone = try InProcessCompositor()
        left = try lodestone.connect()
        right = try lodestone.connect()
        leftWindow = try lodestone.mapWindow(on: left, title: "Left", x: 100, y: 100, width: 200, height: 150)
        rightWindow = try lodestone.mapWindow(on: right, title: "Right", x: 400, y: 100, width: 200, height: 150)
        // A new window of another client does not take the keyboard by itself: a click does.
        try lodestone.click(at: 450, 200)
        leftGestures = try GestureRecorder(left)
        rightGestures = try GestureRecorder(right)
        try lodestone.roundtrip()
        try lodestone.movePointer(to: 150, 120)  // over Left
    }

    override func tearDown() {
        leftGestures = nil; rightGestures = nil
        leftWindow = nil; rightWindow = nil
        left = nil; right = nil
        lodestone = nil
    }

    func testSwipePinchAndHoldReachTheClientUnderThePointerWithFingersScaleAndRotation() throws {
        let surface = leftWindow.surface.id
        try lodestone.send(.gesture(.swipeBegin(fingers: 2)))
        try lodestone.send(.gesture(.swipeUpdate(dx: 5, dy: -3)))
        try lodestone.send(.gesture(.swipeEnd(cancelled: false)))
        try lodestone.send(.gesture(.pinchBegin(fingers: 2)))
        try lodestone.send(.gesture(.pinchUpdate(dx: 1, dy: 2, scale: 1.5, rotation: 12.5)))
        try lodestone.send(.gesture(.pinchEnd(cancelled: true)))
        try lodestone.send(.gesture(.holdBegin(fingers: 3)))
        try lodestone.send(.gesture(.holdEnd(cancelled: false)))
        try lodestone.send(.gesture(.swipeBegin(fingers: 5)))  // five fingers are the app's too
        try lodestone.send(.gesture(.swipeEnd(cancelled: false)))

        XCTAssertEqual(leftGestures.events, [
            "swipe begin surface \(surface) fingers 2", "swipe update 5.0 -3.0", "swipe end cancelled 0",
            "pinch begin surface \(surface) fingers 2", "pinch update 1.0 2.0 scale 1.5 rotation 12.5", "pinch end cancelled 1",
            "hold begin surface \(surface) fingers 3", "hold end cancelled 0",
            "swipe begin surface \(surface) fingers 5", "swipe end cancelled 0",
        ])
        XCTAssertEqual(rightGestures.events, [], "only the client under the pointer hears gestures")
    }

    func testGestureStaysWithTheSurfaceItBeganOn() throws {
        try lodestone.send(.gesture(.pinchBegin(fingers: 2)))
        try lodestone.movePointer(to: 450, 120)  // over Right mid-pinch
        try lodestone.send(.gesture(.pinchUpdate(dx: 0, dy: 0, scale: 2, rotation: 0)))
        try lodestone.send(.gesture(.pinchEnd(cancelled: false)))
        XCTAssertEqual(leftGestures.events.count, 3)
        XCTAssertEqual(rightGestures.events, [])
    }

    func testThreeFingerSwipeIsNotDeliveredAndSwitchesTheFocusedWindow() throws {
        try lodestone.movePointer(to: 450, 120)  // over Right, the focused window
        XCTAssertTrue(lodestone.seat.keyboard.focus === lodestone.surface(of: rightWindow))
        try lodestone.send(.gesture(.swipeBegin(fingers: 3)))
        try lodestone.send(.gesture(.swipeUpdate(dx: -60, dy: 4)))
        try lodestone.send(.gesture(.swipeUpdate(dx: -50, dy: 0)))
        try lodestone.send(.gesture(.swipeEnd(cancelled: false)))

        XCTAssertEqual(rightGestures.events, [], "a three-finger swipe is the system's")
        XCTAssertEqual(leftGestures.events, [])
        XCTAssertTrue(lodestone.seat.keyboard.focus === lodestone.surface(of: leftWindow), "the swipe switched to the other window")
        XCTAssertTrue(lodestone.scene.windows.last === lodestone.toplevel(of: leftWindow), "and raised it")
        // It slides in from the side: moved at first, home when the animation ends.
        XCTAssertEqual(lodestone.position(of: leftWindow)?.x, 160)
        _ = lodestone.compositor.clock.advance(by: 100)
        let midway = try XCTUnwrap(lodestone.position(of: leftWindow)?.x)
        XCTAssertTrue((101..<160).contains(midway), "mid-animation the window is between (\(midway))")
        _ = lodestone.compositor.clock.advance(by: 300)
        XCTAssertEqual(lodestone.position(of: leftWindow)?.x, 100)
        XCTAssertEqual(lodestone.position(of: leftWindow)?.y, 100)
    }

    func testShortOrCancelledSystemSwipesChangeNothing() throws {
        try lodestone.send(.gesture(.swipeBegin(fingers: 3)))
        try lodestone.send(.gesture(.swipeUpdate(dx: -10, dy: 0)))
        try lodestone.send(.gesture(.swipeEnd(cancelled: false)))
        try lodestone.send(.gesture(.swipeBegin(fingers: 3)))
        try lodestone.send(.gesture(.swipeUpdate(dx: -200, dy: 0)))
        try lodestone.send(.gesture(.swipeEnd(cancelled: true)))
        XCTAssertTrue(lodestone.seat.keyboard.focus === lodestone.surface(of: rightWindow))
        XCTAssertEqual(leftGestures.events + rightGestures.events, [])
    }

    func testFourFingerSwipeShowsTheDesktopAndBringsTheWindowsBack() throws {
        try lodestone.send(.gesture(.swipeBegin(fingers: 4)))
        try lodestone.send(.gesture(.swipeUpdate(dx: 0, dy: 80)))
        try lodestone.send(.gesture(.swipeEnd(cancelled: false)))
        _ = lodestone.compositor.clock.advance(by: 400)
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(lodestone.position(of: leftWindow)?.y), 800, "the windows slid off the output")
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(lodestone.position(of: rightWindow)?.y), 800)
        try lodestone.send(.gesture(.swipeBegin(fingers: 4)))
        try lodestone.send(.gesture(.swipeUpdate(dx: 0, dy: -80)))
        try lodestone.send(.gesture(.swipeEnd(cancelled: false)))
        _ = lodestone.compositor.clock.advance(by: 400)
        XCTAssertEqual(lodestone.position(of: leftWindow)?.y, 100)
        XCTAssertEqual(lodestone.position(of: rightWindow)?.x, 400)
        XCTAssertEqual(leftGestures.events + rightGestures.events, [])
    }

    func testHoldPressesTheAdaptivePointer() throws {
        let compositor = lodestone.compositor
        _ = lodestone.compositor.clock.advance(by: 500)
        let rest = compositor.settlePointer().pointer.scale
        try lodestone.send(.gesture(.holdBegin(fingers: 2)))
        _ = lodestone.compositor.clock.advance(by: 500)
        XCTAssertLessThan(compositor.settlePointer().pointer.scale, rest, "fingers resting on the touchpad press the pointer")
        try lodestone.send(.gesture(.holdEnd(cancelled: false)))
        _ = lodestone.compositor.clock.advance(by: 500)
        XCTAssertEqual(compositor.settlePointer().pointer.scale, rest, accuracy: 0.001)
    }
}

/// A client's swipe, pinch and hold objects, their events as short lines.
final class GestureRecorder {
    private(set) var events: [String] = []
    private var proxies: [Proxy] = []

    init(_ client: TestClient) throws {
        let manager = try XCTUnwrap(client.bind(cwp_zwp_pointer_gestures_v1_interface(), version: 3), "no zwp_pointer_gestures_v1")
        XCTAssertEqual(manager.version, 3, "hold needs version 3")
        let pointer = try XCTUnwrap(client.globals.pointer)
        let id = { (p: OpaquePointer?) in p.map { wl_proxy_get_id($0) } ?? 0 }
        for (name, create) in [("swipe", zwp_pointer_gestures_v1_get_swipe_gesture), ("pinch", zwp_pointer_gestures_v1_get_pinch_gesture),
                               ("hold", zwp_pointer_gestures_v1_get_hold_gesture)] {
            let proxy = Proxy(try XCTUnwrap(manager.request(pointer) { create($0, $1) }), on: client.connection)
            proxy.onEvent = { [unowned self] opcode, a in
                switch (name, opcode) {
                case (_, 0): self.events.append("\(name) begin surface \(id(a.object(2))) fingers \(a.uint(3))")
                case ("hold", 1): self.events.append("hold end cancelled \(a.int(2))")
                case ("swipe", 1): self.events.append("swipe update \(a.fixed(1)) \(a.fixed(2))")
                case ("pinch", 1): self.events.append("pinch update \(a.fixed(1)) \(a.fixed(2)) scale \(a.fixed(3)) rotation \(a.fixed(4))")
                case (_, 2): self.events.append("\(name) end cancelled \(a.int(2))")
                default: self.events.append("\(name) unknown \(opcode)")
                }
            }
            proxies.append(proxy)
        }
    }
}
