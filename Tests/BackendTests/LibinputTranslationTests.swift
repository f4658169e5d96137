@testable import Backends
import LodestoneCompositor
import XCTest

/// The libinput → InputEvent step with plain values (no devices here: see docs/tty.md).
final class LibinputTranslationTests: XCTestCase {
    private var translator = LibinputTranslator()

    private func translate(_ e: LibinputEvent) -> [String] { translator.translate(e).map { "\($0)" } }

    func testAcceleratedMotionPassesThroughAndTheDeviceKindIsAnnouncedOnChange() {
        XCTAssertEqual(translate(.pointerMotion(dx: 3.5, dy: -2, device: .mouse)),
                       ["\(InputEvent.pointerDevice(.mouse))", "\(InputEvent.pointerMotion(.relative(dx: 3.5, dy: -2)))"])
        XCTAssertEqual(translate(.pointerMotion(dx: 1, dy: 1, device: .mouse)), ["\(InputEvent.pointerMotion(.relative(dx: 1, dy: 1)))"],
                       "the same device is not announced again")
        XCTAssertEqual(translate(.pointerMotion(dx: 1, dy: 0, device: .touchpad)).first, "\(InputEvent.pointerDevice(.trackpad))",
                       "a touchpad hides the pointer sooner: the engine hears it")
        XCTAssertEqual(translate(.pointerMotionAbsolute(x: 100, y: 50, device: .touchpad)), ["\(InputEvent.pointerMotion(.absolute(x: 100, y: 50)))"])
    }

    func testButtonsAndKeysKeepTheirLinuxCodes() {
        _ = translate(.pointerMotion(dx: 0, dy: 0, device: .mouse))
        XCTAssertEqual(translate(.pointerButton(button: 0x110, pressed: true, device: .mouse)), ["\(InputEvent.pointerButton(button: 0x110, pressed: true))"])
        XCTAssertEqual(translate(.keyboardKey(key: 30, pressed: false)), ["\(InputEvent.key(code: 30, pressed: false))"])
    }

    func testWheelScrollCarriesDiscreteStepsFromValue120() {
        let out = translator.translate(.pointerScroll(source: .wheel, vertical: 30, horizontal: nil, v120Vertical: 240, device: .mouse))
        XCTAssertEqual(out.count, 2)
        guard case .pointerAxis(let axis) = out[1] else { return XCTFail("no axis: \(out)") }
        XCTAssertEqual(axis, PointerAxis(axis: 0, value: 30, discrete: 2, source: 0))
        // A high-resolution wheel's half click: no whole step yet.
        let half = translator.translate(.pointerScroll(source: .wheel, vertical: 7.5, horizontal: -7.5, v120Vertical: 60, v120Horizontal: -60, device: .mouse))
        XCTAssertEqual(half.map { "\($0)" }, ["\(InputEvent.pointerAxis(PointerAxis(axis: 0, value: 7.5, discrete: 0, source: 0)))",
                                              "\(InputEvent.pointerAxis(PointerAxis(axis: 1, value: -7.5, discrete: 0, source: 0)))"])
    }

    func testFingerAndContinuousScrollHaveTheirSourcesAndAZeroIsAStop() {
        let finger = translator.translate(.pointerScroll(source: .finger, vertical: nil, horizontal: 4, device: .touchpad))
        XCTAssertEqual(finger.map { "\($0)" }, ["\(InputEvent.pointerDevice(.trackpad))", "\(InputEvent.pointerAxis(PointerAxis(axis: 1, value: 4, source: 1)))"])
        let stop = translator.translate(.pointerScroll(source: .finger, vertical: 0, horizontal: nil, device: .touchpad))
        XCTAssertEqual(stop.map { "\($0)" }, ["\(InputEvent.pointerAxis(PointerAxis(axis: 0, value: 0, discrete: 0, source: 1)))"], "value 0: axis_stop")
        let continuous = translator.translate(.pointerScroll(source: .continuous, vertical: 12, horizontal: nil, device: .mouse))
        XCTAssertEqual(continuous.last.map { "\($0)" }, "\(InputEvent.pointerAxis(PointerAxis(axis: 0, value: 12, source: 2)))")
    }

    func testGesturesMapWithFingersScaleAndRotation() {
        XCTAssertEqual(translator.translate(.gestureSwipeBegin(fingers: 3)), [.pointerDevice(.trackpad), .gesture(.swipeBegin(fingers: 3))])
        XCTAssertEqual(translator.translate(.gestureSwipeUpdate(dx: -4, dy: 1)), [.gesture(.swipeUpdate(dx: -4, dy: 1))])
        XCTAssertEqual(translator.translate(.gestureSwipeEnd(cancelled: true)), [.gesture(.swipeEnd(cancelled: true))])
        XCTAssertEqual(translator.translate(.gesturePinchBegin(fingers: 2)), [.gesture(.pinchBegin(fingers: 2))])
        XCTAssertEqual(translator.translate(.gesturePinchUpdate(dx: 1, dy: 2, scale: 1.25, angleDelta: -3)),
                       [.gesture(.pinchUpdate(dx: 1, dy: 2, scale: 1.25, rotation: -3))])
        XCTAssertEqual(translator.translate(.gesturePinchEnd(cancelled: false)), [.gesture(.pinchEnd(cancelled: false))])
        XCTAssertEqual(translator.translate(.gestureHoldBegin(fingers: 4)), [.gesture(.holdBegin(fingers: 4))])
        XCTAssertEqual(translator.translate(.gestureHoldEnd(cancelled: true)), [.gesture(.holdEnd(cancelled: true))])
    }

    func testTabletToolsMapToPenAndEraserWithTheirAxes() {
        let axes = TabletToolAxes(x: 10, y: 20, pressure: 0.4, distance: 0, tilt: (15, -5), rotation: 90)
        let pen = TabletTool(kind: .pen, serial: 77)
        XCTAssertEqual(translator.translate(.tabletToolProximity(tool: 1, serial: 77, inProximity: true, axes: axes)), [.tabletTool(.proximityIn(pen, axes))])
        XCTAssertEqual(translator.translate(.tabletToolAxis(tool: 1, serial: 77, axes: axes)), [.tabletTool(.axes(pen, axes))])
        XCTAssertEqual(translator.translate(.tabletToolTip(tool: 1, serial: 77, down: true, axes: axes)), [.tabletTool(.tip(pen, down: true, axes))])
        XCTAssertEqual(translator.translate(.tabletToolButton(tool: 1, serial: 77, button: 0x14b, pressed: true)),
                       [.tabletTool(.button(pen, button: 0x14b, pressed: true))])
        let eraser = TabletTool(kind: .eraser, serial: 77)
        XCTAssertEqual(translator.translate(.tabletToolProximity(tool: 2, serial: 77, inProximity: false, axes: axes)), [.tabletTool(.proximityOut(eraser))])
    }

    func testTouchPointsKeepTheirSlots() {
        XCTAssertEqual(translator.translate(.touchDown(slot: 1, x: 5, y: 6)).map { "\($0)" }, ["\(InputEvent.touchDown(id: 1, x: 5, y: 6))"])
        XCTAssertEqual(translator.translate(.touchUp(slot: 1)).map { "\($0)" }, ["\(InputEvent.touchUp(id: 1))"])
        XCTAssertEqual(translator.translate(.touchCancel).map { "\($0)" }, ["\(InputEvent.touchCancel)"])
    }

    /// The seat hears of the first touch device and the last, never of other devices; a
    /// removal without an addition (cannot happen) does not go below none.
    func testTouchDevicesAreCountedFirstAndLastAnnounced() {
        XCTAssertEqual(translator.translate(.deviceAdded(touch: false)), [])
        XCTAssertEqual(translator.translate(.deviceRemoved(touch: true)), [])
        XCTAssertEqual(translator.translate(.deviceAdded(touch: true)), [.touchscreen(present: true)])
        XCTAssertEqual(translator.translate(.deviceAdded(touch: true)), [])
        XCTAssertEqual(translator.translate(.deviceRemoved(touch: false)), [])
        XCTAssertEqual(translator.translate(.deviceRemoved(touch: true)), [])
        XCTAssertEqual(translator.translate(.deviceRemoved(touch: true)), [.touchscreen(present: false)])
        XCTAssertEqual(translator.translate(.deviceAdded(touch: true)), [.touchscreen(present: true)])
    }
}

/// libinput itself, for real: a path context with no devices is created, dispatched and destroyed.
final class LibinputContextTests: XCTestCase {
    func testEmptyPathContextIsCreatedDispatchedAndDestroyed() throws {
        var context: LibinputContext? = try LibinputContext()
        var events: [InputEvent] = []
        context?.dispatch { events.append($0) }
        XCTAssertEqual(events.count, 0, "no devices, no events")
        weak let weakContext = context
        context = nil
        XCTAssertNil(weakContext, "libinput_unref ran")
    }
}
