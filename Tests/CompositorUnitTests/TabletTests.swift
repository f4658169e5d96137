@testable import LodestoneCompositor
import CWaylandClient
import CWaylandProtocols
import WaylandClient
import XCTest

/// A pen through `Seat.handle`: what a client's `zwp_tablet_tool_v2` receives (in order,
/// framed), and the adaptive pointer's hover preview. Left x 100..<300, Right x 400..<600,
/// both y 100..<250.
final class TabletTests: XCTestCase {
    private var lodestone: InProcessCompositor!
    private var left: TestClient!, right: TestClient!
    private var leftWindow: Window!, rightWindow: Window!
    private var leftTablet: TabletRecorder!, rightTablet: TabletRecorder!
    private let pen = TabletTool(kind: .pen, serial: 0x1234_5678_9abc)

    override func setUpWithError() throws {
        lodestone = try InProcessCompositor()
        left = try lodestone.connect()
        right = try lodestone.connect()
        leftWindow = try lodestone.mapWindow(on: left, title: "Left", x: 100, y: 100, width: 200, height: 150)
        rightWindow = try lodestone.mapWindow(on: right, title: "Right", x: 400, y: 100, width: 200, height: 150)
        leftTablet = try TabletRecorder(left)
        rightTablet = try TabletRecorder(right)
        try lodestone.roundtrip()
        try lodestone.movePointer(to: 700, 600)  // the mouse pointer is elsewhere
    }

    override func tearDown() {
        leftTablet = nil; rightTablet = nil
        leftWindow = nil; rightWindow = nil
        left = nil; right = nil
        lodestone = nil
    }

    private func axes(_ x: Double, _ y: Double, pressure: Double = 0, distance: Double = 0.5, tilt: (Double, Double) = (0, 0)) -> TabletToolAxes {
        TabletToolAxes(x: x, y: y, pressure: pressure, distance: distance, tilt: tilt, rotation: 0)
    }

    func testClientReceivesProximityMotionPressureTiltAndDownUpInOrderWithFrames() throws {
        try lodestone.send(.tabletTool(.proximityIn(pen, axes(150, 120, distance: 0.4, tilt: (10, -5)))))
        try lodestone.send(.tabletTool(.axes(pen, axes(160, 125, distance: 0.2, tilt: (10, -5)))))
        try lodestone.send(.tabletTool(.tip(pen, down: true, axes(160, 125, pressure: 0.25, distance: 0, tilt: (12, -5)))))
        try lodestone.send(.tabletTool(.axes(pen, axes(170, 130, pressure: 0.5, distance: 0, tilt: (12, -5)))))
        try lodestone.send(.tabletTool(.button(pen, button: 0x14b, pressed: true)))
        try lodestone.send(.tabletTool(.tip(pen, down: false, axes(170, 130, pressure: 0, distance: 0, tilt: (12, -5)))))
        try lodestone.send(.tabletTool(.proximityOut(pen)))

        let surface = leftWindow.surface.id
        XCTAssertEqual(leftTablet.announcements, ["tablet Lodestone tablet", "tool type 0x140 serial 0x1234 0x56789abc caps 1,2,3,4"])
        XCTAssertEqual(leftTablet.events, [
            "proximity_in surface \(surface)", "motion 50.0 20.0", "pressure 0", "distance 26214", "tilt 10.0 -5.0", "rotation 0.0", "frame",
            "motion 60.0 25.0", "distance 13107", "frame",
            "pressure 16384", "distance 0", "tilt 12.0 -5.0", "down", "frame",
            "motion 70.0 30.0", "pressure 32768", "frame",
            "button 0x14b pressed 1", "frame",
            "pressure 0", "up", "frame",
            "proximity_out", "frame",
        ])
        XCTAssertEqual(rightTablet.events, [], "only the client under the pen hears it")
        XCTAssertEqual(rightTablet.announcements.count, 2, "every client knows the tablet and the tool")
    }

    func testTouchingPenKeepsItsSurfaceAndHoveringMovesProximity() throws {
        try lodestone.send(.tabletTool(.proximityIn(pen, axes(150, 120))))
        try lodestone.send(.tabletTool(.tip(pen, down: true, axes(150, 120, pressure: 0.5, distance: 0))))
        try lodestone.send(.tabletTool(.axes(pen, axes(450, 120, pressure: 0.5, distance: 0))))  // dragged over Right
        XCTAssertEqual(rightTablet.events, [], "a stroke stays with the surface it began on")
        XCTAssertTrue(leftTablet.events.contains("motion 350.0 20.0"))
        try lodestone.send(.tabletTool(.tip(pen, down: false, axes(450, 120, distance: 0.1))))
        try lodestone.send(.tabletTool(.axes(pen, axes(455, 120, distance: 0.2))))
        XCTAssertEqual(Array(leftTablet.events.suffix(2)), ["proximity_out", "frame"], "lifted and moved on: Left loses the pen")
        XCTAssertEqual(rightTablet.events.first, "proximity_in surface \(rightWindow.surface.id)")
        XCTAssertEqual(rightTablet.events.last, "frame")
    }

    /// Pixels: the hover preview at the pen while it hovers, none while it touches.
    func testHoverPreviewShowsAtThePenInProximityAndHidesOnContact() throws {
        let compositor = lodestone.compositor
        func settledBox() -> [UInt32] {
            _ = compositor.clock.advance(by: 100)
            compositor.composeIfNeeded()
            var pixels: [UInt32] = []
            for y in Int32(192)..<208 { for x in Int32(192)..<208 { pixels.append(compositor.output.image.pixel(x: x, y: y)) } }
            return pixels
        }
        let bare = settledBox()
        try lodestone.send(.tabletTool(.proximityIn(pen, axes(200, 200, distance: 0.3))))
        let hovering = settledBox()
        let differing = zip(bare, hovering).filter { $0 != $1 }.count
        XCTAssertGreaterThan(differing, 20, "a hover preview is drawn at the pen")
        XCTAssertLessThan(differing, 256, "a small mark, not a fill")
        let center = compositor.output.image.pixel(x: 200, y: 200)
        XCTAssertNotEqual(center, bare[8 * 16 + 8])

        try lodestone.send(.tabletTool(.axes(pen, axes(200, 200, distance: 1))))
        let far = zip(bare, settledBox()).filter { $0 != $1 }.count
        XCTAssertGreaterThan(far, differing, "farther away the mark is larger")

        try lodestone.send(.tabletTool(.tip(pen, down: true, axes(200, 200, pressure: 0.5, distance: 0))))
        XCTAssertEqual(settledBox(), bare, "on contact the preview hides (the app draws)")
        XCTAssertEqual(compositor.seat.pointerSnapshot.presentation.pointer.alpha, 0, "and the pointer hides")

        try lodestone.send(.tabletTool(.tip(pen, down: false, axes(200, 200, distance: 0.3))))
        try lodestone.send(.tabletTool(.proximityOut(pen)))
        XCTAssertEqual(settledBox(), bare, "out of proximity nothing is left")
        XCTAssertGreaterThan(compositor.seat.pointerSnapshot.presentation.pointer.alpha, 0.5, "the pointer is back")
    }
}

/// A client's tablet seat: what it was told about devices, and its tool's events as lines.
final class TabletRecorder {
    private(set) var announcements: [String] = []
    private(set) var events: [String] = []
    private var proxies: [Proxy] = []
    private var caps: [UInt32] = []

    init(_ client: TestClient) throws {
        let manager = try XCTUnwrap(client.bind(cwp_zwp_tablet_manager_v2_interface(), version: 1), "no zwp_tablet_manager_v2")
        let wlSeat = try XCTUnwrap(client.globals.seat)
        let seat = Proxy(try XCTUnwrap(manager.request(wlSeat) { zwp_tablet_manager_v2_get_tablet_seat($0, $1) }), on: client.connection)
        let connection = client.connection
        let id = { (p: OpaquePointer?) in p.map { wl_proxy_get_id($0) } ?? 0 }
        seat.onEvent = { [unowned self] opcode, a in
            guard let object = a.object(0) else { return }
            let proxy = Proxy(object, on: connection)
            self.proxies.append(proxy)
            switch opcode {
            case 0:  // tablet_added
                proxy.onEvent = { [unowned self] op, b in if op == 0 { self.announcements.append("tablet \(b.string(0))") } }
            case 1:  // tool_added
                var type: UInt32 = 0, serial = ""
                proxy.onEvent = { [unowned self] op, b in
                    switch op {
                    case 0: type = b.uint(0)
                    case 1: serial = " serial 0x\(String(b.uint(0), radix: 16)) 0x\(String(b.uint(1), radix: 16))"
                    case 3: self.caps.append(b.uint(0))
                    case 4: self.announcements.append("tool type 0x\(String(type, radix: 16))\(serial) caps \(self.caps.map(String.init).joined(separator: ","))")
                    case 6: self.events.append("proximity_in surface \(id(b.object(2)))")
                    case 7: self.events.append("proximity_out")
                    case 8: self.events.append("down")
                    case 9: self.events.append("up")
                    case 10: self.events.append("motion \(b.fixed(0)) \(b.fixed(1))")
                    case 11: self.events.append("pressure \(b.uint(0))")
                    case 12: self.events.append("distance \(b.uint(0))")
                    case 13: self.events.append("tilt \(b.fixed(0)) \(b.fixed(1))")
                    case 14: self.events.append("rotation \(b.fixed(0))")
                    case 17: self.events.append("button 0x\(String(b.uint(1), radix: 16)) pressed \(b.uint(2))")
                    case 18: self.events.append("frame")
                    default: break
                    }
                }
            default: break
            }
        }
        proxies += [manager, seat]
    }
}
