@testable import LodestoneCompositor
import WaylandClient
import XCTest

/// Where `Seat.handle` sends pointer and keyboard input: two clients, one window each,
/// side by side. Left spans x 100..<300, Right x 400..<600, both y 100..<250.
final class SeatRoutingTests: XCTestCase {
    private var lodestone: InProcessCompositor!
    private var left: TestClient!, right: TestClient!
    private var leftWindow: Window!, rightWindow: Window!

    override func setUpWithError() throws {
        lodestone = try InProcessCompositor()
        left = try lodestone.connect()
        right = try lodestone.connect()
        leftWindow = try lodestone.mapWindow(on: left, title: "Left", x: 100, y: 100, width: 200, height: 150)
        rightWindow = try lodestone.mapWindow(on: right, title: "Right", x: 400, y: 100, width: 200, height: 150)
        // Right opened while Left had the keyboard, so Left keeps it; the user clicks Right.
        try lodestone.click(at: 450, 200)
        try lodestone.movePointer(to: 50, 50)  // over nothing
        lodestone.forgetEvents()
    }

    override func tearDown() {
        leftWindow = nil; rightWindow = nil
        left = nil; right = nil
        lodestone = nil
    }

    func testPointerCrossingTwoWindowsGetsEnterMotionLeaveInSurfaceCoordinates() throws {
        try lodestone.movePointer(to: 150, 120)
        try lodestone.movePointer(to: 160, 135)
        try lodestone.movePointer(to: 450, 200)
        try lodestone.movePointer(to: 455, 201)

        XCTAssertEqual(left.distinctPointerEvents, [
            .enter(surface: leftWindow.surface.id, x: 50, y: 20),
            .motion(x: 60, y: 35),
            .leave(surface: leftWindow.surface.id),
        ])
        XCTAssertEqual(right.distinctPointerEvents, [
            .enter(surface: rightWindow.surface.id, x: 50, y: 100),
            .motion(x: 55, y: 101),
        ])
        XCTAssertTrue(lodestone.seat.pointerFocus === lodestone.surface(of: rightWindow))
        XCTAssertEqual(lodestone.seat.position.logical.x, 455)
        XCTAssertEqual(lodestone.seat.position.logical.y, 201)
    }

    func testPressedButtonKeepsTheFocusOutsideTheWindowUntilRelease() throws {
        try lodestone.movePointer(to: 150, 120)
        try lodestone.press()
        try lodestone.movePointer(to: 450, 200)  // over Right, button still down

        XCTAssertEqual(left.pointerEvents.last, .motion(x: 350, y: 100), "the pressed window follows the pointer past its edge")
        XCTAssertEqual(right.pointerEvents, [], "no enter while another window holds the implicit grab")
        XCTAssertTrue(lodestone.seat.pointerFocus === lodestone.surface(of: leftWindow))

        left.forgetEvents()
        try lodestone.release()
        XCTAssertEqual(left.pointerEvents, [.button(Button.left, pressed: false), .leave(surface: leftWindow.surface.id)],
                       "the release goes to the pressed window, then it is left")
        XCTAssertEqual(right.pointerEvents, [.enter(surface: rightWindow.surface.id, x: 50, y: 100)])
    }

    func testButtonsGoOnlyToTheClientUnderThePointer() throws {
        try lodestone.click(at: 450, 200, button: Button.right)
        XCTAssertEqual(right.buttons, [.button(Button.right, pressed: true), .button(Button.right, pressed: false)])
        XCTAssertEqual(left.pointerEvents, [])

        try lodestone.click(at: 150, 200)
        XCTAssertEqual(left.buttons, [.button(Button.left, pressed: true), .button(Button.left, pressed: false)])
        XCTAssertEqual(right.buttons.count, 2, "Right heard nothing of the click on Left")
    }

    func testScrollGoesOnlyToTheFocusedClient() throws {
        try lodestone.movePointer(to: 450, 200)
        try lodestone.send(.pointerAxis(PointerAxis(axis: 0, value: 15, discrete: 1)))
        try lodestone.send(.pointerAxis(PointerAxis(axis: 1, value: -10, discrete: -1)))

        XCTAssertEqual(right.pointerEvents.filter { if case .axis = $0 { true } else { false } },
                       [.axis(0, value: 15), .axis(1, value: -10)])
        XCTAssertEqual(left.pointerEvents, [])
    }

    func testScrollOverNothingGoesNowhere() throws {
        try lodestone.send(.pointerAxis(PointerAxis(axis: 0, value: 15, discrete: 1)))
        XCTAssertEqual(left.pointerEvents, [])
        XCTAssertEqual(right.pointerEvents, [])
    }

    func testClickGivesTheKeyboardToTheWindow() throws {
        XCTAssertTrue(lodestone.seat.keyboard.focus === lodestone.surface(of: rightWindow), "Right, clicked last, has the keyboard")

        try lodestone.click(at: 150, 200)

        XCTAssertEqual(left.keyboardEvents, [.enter(surface: leftWindow.surface.id)])
        XCTAssertEqual(right.keyboardEvents, [.leave(surface: rightWindow.surface.id)])
        XCTAssertTrue(lodestone.seat.keyboard.focus === lodestone.surface(of: leftWindow))
        XCTAssertEqual(lodestone.toplevel(of: leftWindow)?.isActivated, true)
        XCTAssertEqual(lodestone.toplevel(of: rightWindow)?.isActivated, false)
        XCTAssertTrue(leftWindow.lastStates.contains(4), "Left was configured activated: \(leftWindow.lastStates)")
    }

    func testNewWindowOfAnotherClientDoesNotTakeTheKeyboard() throws {
        // Right has the keyboard; Left's client opens a 1×1 window: Right keeps it.
        XCTAssertTrue(lodestone.seat.keyboard.focus === lodestone.surface(of: rightWindow))
        let tiny = try lodestone.mapWindow(on: left, title: "Tiny", x: 700, y: 100, width: 1, height: 1)
        XCTAssertTrue(lodestone.seat.keyboard.focus === lodestone.surface(of: rightWindow), "a window of another client took the keyboard")
        XCTAssertEqual(lodestone.toplevel(of: tiny)?.isActivated, false)
        XCTAssertEqual(lodestone.toplevel(of: tiny)?.demandsAttention, true)
        // A new window of the client that has the keyboard takes it.
        let second = try lodestone.mapWindow(on: right, title: "Right 2", x: 700, y: 300, width: 100, height: 100)
        XCTAssertTrue(lodestone.seat.keyboard.focus === lodestone.surface(of: second))
    }

    func testKeysGoOnlyToTheFocusedClient() throws {
        try lodestone.type(Key.a)  // Right has the keyboard
        try lodestone.click(at: 150, 200)
        try lodestone.type(Key.b)

        XCTAssertEqual(right.keys, [.key(Key.a, pressed: true), .key(Key.a, pressed: false)])
        XCTAssertEqual(left.keys, [.key(Key.b, pressed: true), .key(Key.b, pressed: false)])
    }
}
