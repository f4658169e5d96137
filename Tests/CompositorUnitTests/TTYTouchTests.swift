import Backends
import CWaylandClient
import CWaylandProtocols
import WaylandClient
@testable import LodestoneCompositor
import XCTest

/// The TTY path's touchscreen, end to end without devices: libinput's device added/removed
/// and touch events (plain values, as `LibinputContext.read` makes them) through
/// `LibinputTranslator` into the real seat, to a client's `wl_seat` and `wl_touch`.
final class TTYTouchTests: XCTestCase {
    private enum TouchEvent: Equatable {
        case down(surface: UInt32, id: Int32, x: Double, y: Double)
        case motion(id: Int32, x: Double, y: Double)
        case up(id: Int32)
        case frame, cancel
    }

    private var lodestone: InProcessCompositor!
    private var client: TestClient!
    private var window: Window!
    private var seat: Proxy!
    private var touch: Proxy?
    private var translator = LibinputTranslator()
    /// `wl_seat.capabilities`, in order.
    private var capabilities: [UInt32] = []
    private var touchEvents: [TouchEvent] = []

    private let pointerAndKeyboard = WL_SEAT_CAPABILITY_POINTER.rawValue | WL_SEAT_CAPABILITY_KEYBOARD.rawValue
    private var withTouch: UInt32 { pointerAndKeyboard | WL_SEAT_CAPABILITY_TOUCH.rawValue }

    override func setUpWithError() throws {
        lodestone = try InProcessCompositor()
        client = try lodestone.connect()
        window = try lodestone.mapWindow(on: client, title: "A", x: 100, y: 100, width: 200, height: 150)
        seat = try XCTUnwrap(client.bind(cwp_wl_seat_interface(), version: 8))
        seat.onEvent = { [unowned self] opcode, a in if opcode == 0 { self.capabilities.append(a.uint(0)) } }
        try lodestone.roundtrip()
    }

    override func tearDown() {
        touch = nil
        seat = nil
        window = nil
        client = nil
        lodestone = nil
    }

    private func libinput(_ event: LibinputEvent) throws {
        for e in translator.translate(event) { try lodestone.send(e) }
    }

    /// What a client does when the seat gains touch: it asks for a `wl_touch`.
    private func getTouch() throws {
        let touch = try Proxy(creating: { seat.request { wl_seat_get_touch($0) } }, on: client.connection, what: "wl_seat.get_touch")
        touch.onEvent = { [unowned self] opcode, a in
            switch opcode {
            case 0: self.touchEvents.append(.down(surface: a.object(2).map { wl_proxy_get_id($0) } ?? 0, id: a.int(3), x: a.fixed(4), y: a.fixed(5)))
            case 1: self.touchEvents.append(.up(id: a.int(2)))
            case 2: self.touchEvents.append(.motion(id: a.int(1), x: a.fixed(2), y: a.fixed(3)))
            case 3: self.touchEvents.append(.frame)
            case 4: self.touchEvents.append(.cancel)
            default: break  // shape, orientation
            }
        }
        self.touch = touch
        try lodestone.roundtrip()
    }

    /// The seat offers touch from the first touch device plugged in to the last unplugged;
    /// keyboards and mice change nothing, and a second touchscreen is not announced again.
    func testTouchCapabilityFollowsTouchDevices() throws {
        XCTAssertEqual(capabilities, [pointerAndKeyboard], "no touch device yet")
        XCTAssertNil(lodestone.seat.touchscreen)
        try libinput(.deviceAdded(touch: false))   // a keyboard
        XCTAssertEqual(capabilities, [pointerAndKeyboard])
        try libinput(.deviceAdded(touch: true))
        XCTAssertEqual(capabilities, [pointerAndKeyboard, withTouch], "the first touchscreen adds touch")
        try libinput(.deviceAdded(touch: true))
        XCTAssertEqual(capabilities.count, 2, "a second one changes nothing")
        try libinput(.deviceRemoved(touch: true))
        XCTAssertEqual(capabilities.count, 2, "one touchscreen is still there")
        XCTAssertNotNil(lodestone.seat.touchscreen)
        try libinput(.deviceRemoved(touch: false))
        try libinput(.deviceRemoved(touch: true))
        XCTAssertEqual(capabilities, [pointerAndKeyboard, withTouch, pointerAndKeyboard], "the last one gone: touch is withdrawn")
        XCTAssertNil(lodestone.seat.touchscreen)
        try libinput(.deviceAdded(touch: true))
        XCTAssertEqual(capabilities.last, withTouch, "plugged in again")
        // A wl_seat bound later hears the capabilities as they are now.
        var late: [UInt32] = []
        let seat2 = try XCTUnwrap(client.bind(cwp_wl_seat_interface(), version: 8))
        seat2.onEvent = { opcode, a in if opcode == 0 { late.append(a.uint(0)) } }
        try lodestone.roundtrip()
        XCTAssertEqual(late, [withTouch])
    }

    /// Touches from a libinput touchscreen reach the surface under the finger, in its own
    /// coordinates, each with a frame; cancel ends them.
    func testTouchesReachTheSurfaceUnderTheFinger() throws {
        try libinput(.deviceAdded(touch: true))
        try getTouch()
        let surface = window.surface.id
        try libinput(.touchDown(slot: 0, x: 150, y: 130))
        try libinput(.touchMotion(slot: 0, x: 160, y: 140))
        try libinput(.touchUp(slot: 0))
        XCTAssertEqual(touchEvents, [.down(surface: surface, id: 0, x: 50, y: 30), .frame, .motion(id: 0, x: 60, y: 40), .frame, .up(id: 0), .frame])
        touchEvents = []
        try libinput(.touchDown(slot: 1, x: 110, y: 110))
        try libinput(.touchCancel)
        XCTAssertEqual(touchEvents, [.down(surface: surface, id: 1, x: 10, y: 10), .frame, .cancel])
        touchEvents = []
        try libinput(.touchDown(slot: 0, x: 50, y: 50))
        XCTAssertEqual(touchEvents, [], "no surface under the finger: nobody hears it")
    }

    /// Unplugging the touchscreen with a finger down cancels the touch; later touch events
    /// (none should come) reach no one.
    func testUnpluggingCancelsTouchesDown() throws {
        try libinput(.deviceAdded(touch: true))
        try getTouch()
        try libinput(.touchDown(slot: 0, x: 150, y: 130))
        try libinput(.deviceRemoved(touch: true))
        XCTAssertEqual(touchEvents, [.down(surface: window.surface.id, id: 0, x: 50, y: 30), .frame, .cancel])
        XCTAssertEqual(capabilities.last, pointerAndKeyboard)
        touchEvents = []
        try lodestone.send(.touchDown(id: 0, x: 150, y: 130))
        XCTAssertEqual(touchEvents, [], "no touchscreen: nothing is routed")
    }
}
